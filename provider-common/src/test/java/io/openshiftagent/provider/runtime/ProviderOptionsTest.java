package io.openshiftagent.provider.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.openshiftagent.provider.runtime.ProviderOptions.MetricsEndpoint;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ProviderOptionsTest {

  @Test
  void defaultsAreClusterApisSecureMetricsOn8443AndProbesOn8081() {
    ProviderOptions o = ProviderOptions.parse("lease");
    assertThat(o.namespaces()).isEmpty();
    assertThat(o.watchFilter()).isEmpty();
    assertThat(o.leaderElectionId()).isEqualTo("lease");
    assertThat(o.leaseTiming()).isEqualTo(LeaseTiming.DEFAULT);
    assertThat(o.concurrency()).isEqualTo(10);
    assertThat(o.livenessStallTimeout()).isEqualTo(Duration.ofMinutes(5));
    assertThat(o.metrics()).contains(new MetricsEndpoint(new InetSocketAddress(8443), true));
    assertThat(o.health()).contains(new InetSocketAddress(8081));
    assertThat(o.logLevel()).isEqualTo("INFO");
    assertThat(o.logFormat()).isEqualTo(ProviderOptions.LogFormat.TEXT);
    assertThat(o.tls().minVersion()).isEmpty();
    assertThat(o.tls().cipherSuites()).isEmpty();
    assertThat(o.deprecatedFlags()).isEmpty();
  }

  @Test
  void leaderElectionDefaultsToOnInAClusterAndOffOutside() {
    ProviderOptions defaults = ProviderOptions.parse("lease");
    assertThat(defaults.leaderElectionEnabled(true)).isTrue();
    assertThat(defaults.leaderElectionEnabled(false)).isFalse();
    assertThat(ProviderOptions.parse("lease", "--leader-elect=false").leaderElectionEnabled(true))
        .isFalse();
    assertThat(
            ProviderOptions.parse("lease", "--leader-elect", "true").leaderElectionEnabled(false))
        .isTrue();
    assertThat(ProviderOptions.parse("lease", "--leader-elect").leaderElectionEnabled(false))
        .isTrue();
  }

  /** The Go provider's Deployment args, and what its --help offers, carried over unchanged. */
  @Test
  void theGoProvidersArgsAreAccepted() {
    ProviderOptions manifest = ProviderOptions.parse("lease", "--leader-elect");
    assertThat(manifest.leaderElectionEnabled(false)).isTrue();

    ProviderOptions o =
        ProviderOptions.parse(
            "lease",
            "--leader-elect",
            "--metrics-bind-address=:8080",
            "--health-probe-bind-address=:8081",
            "--enable-http2=false",
            "-v=3",
            "--logging-format=text");
    assertThat(o.metrics()).contains(new MetricsEndpoint(new InetSocketAddress(8080), false));
    assertThat(o.health()).contains(new InetSocketAddress(8081));
    assertThat(o.logLevel()).isEqualTo("INFO");
    assertThat(o.deprecatedFlags()).isEmpty();

    // The kubebuilder scaffold's secure metrics: HTTPS behind TokenReview and SubjectAccessReview.
    assertThat(
            ProviderOptions.parse("lease", "--metrics-bind-address=:8443", "--metrics-secure")
                .metrics())
        .contains(new MetricsEndpoint(new InetSocketAddress(8443), true));
  }

  @Test
  void clusterApisFlagsAreReadInEverySpelling() {
    ProviderOptions o =
        ProviderOptions.parse(
            "lease",
            "--kubeconfig=/tmp/kc",
            "--namespace",
            "a,b",
            "--watch-filter=team-a",
            "--leader-elect=true",
            "--leader-elect-lease-duration=30s",
            "--leader-elect-renew-deadline",
            "20s",
            "--leader-elect-retry-period=1500ms",
            "--leader-election-id=other",
            "--leader-election-namespace",
            "capi-system",
            "--concurrency=3",
            "-v",
            "6",
            "--logging-format=json",
            "--diagnostics-address=127.0.0.1:9443",
            "--health-probe-bind-address",
            "[::1]:9000",
            "--tls-min-version=VersionTLS13",
            "--tls-cipher-suites=TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256,"
                + "TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384",
            "--metrics-cert-path=/certs");
    assertThat(o.kubeconfig()).contains(Path.of("/tmp/kc"));
    assertThat(o.namespaces()).isEqualTo(Set.of("a", "b"));
    assertThat(o.watchFilter()).contains("team-a");
    assertThat(o.leaseTiming())
        .isEqualTo(
            new LeaseTiming(
                Duration.ofSeconds(30), Duration.ofSeconds(20), Duration.ofMillis(1500)));
    assertThat(o.leaderElectionId()).isEqualTo("other");
    assertThat(o.leaderElectionNamespace()).isEqualTo(Optional.of("capi-system"));
    assertThat(o.concurrency()).isEqualTo(3);
    assertThat(o.logLevel()).isEqualTo("DEBUG");
    assertThat(o.logFormat()).isEqualTo(ProviderOptions.LogFormat.JSON);
    assertThat(o.metrics())
        .contains(new MetricsEndpoint(new InetSocketAddress("127.0.0.1", 9443), true));
    assertThat(o.health()).contains(new InetSocketAddress("::1", 9000));
    assertThat(o.tls().minVersion()).contains("VersionTLS13");
    assertThat(o.tls().cipherSuites())
        .containsExactly(
            "TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256", "TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384");
    assertThat(o.tls().certDir()).contains(Path.of("/certs"));

    assertThat(ProviderOptions.parse("l", "--v=9").logLevel()).isEqualTo("TRACE");
    assertThat(ProviderOptions.parse("l", "-v1").logLevel()).isEqualTo("WARN");
    assertThat(ProviderOptions.parse("l", "--insecure-diagnostics").metrics())
        .contains(new MetricsEndpoint(new InetSocketAddress(8443), false));
    assertThat(ProviderOptions.parse("l", "--diagnostics-address=0").metrics()).isEmpty();
    assertThat(ProviderOptions.parse("l", "--metrics-bind-address=0").metrics()).isEmpty();
    assertThat(ProviderOptions.parse("l", "--health-probe-bind-address=0").health()).isEmpty();
    assertThat(ProviderOptions.parse("l", "--diagnostics-address=:0").metrics())
        .as("port 0: any free port, as Go listens")
        .contains(new MetricsEndpoint(new InetSocketAddress(0), true));
    assertThat(ProviderOptions.parse("l", "--health_probe_bind_address=:9001").health())
        .as("pflag reads _ as -")
        .contains(new InetSocketAddress(9001));
  }

  @Test
  void theOldSpellingsStillWorkAndAreReportedDeprecated() {
    ProviderOptions o =
        ProviderOptions.parse(
            "lease",
            "--log-level=debug",
            "--log-format=json",
            "--metrics-port=9090",
            "--health-port",
            "9000");
    assertThat(o.logLevel()).isEqualTo("DEBUG");
    assertThat(o.logFormat()).isEqualTo(ProviderOptions.LogFormat.JSON);
    assertThat(o.metrics()).contains(new MetricsEndpoint(new InetSocketAddress(9090), false));
    assertThat(o.health()).contains(new InetSocketAddress(9000));
    assertThat(o.deprecatedFlags())
        .containsExactly(
            "--log-level: use -v",
            "--log-format: use --logging-format",
            "--metrics-port: use --diagnostics-address (or --metrics-bind-address=:PORT)",
            "--health-port: use --health-probe-bind-address=:PORT");
    assertThat(ProviderOptions.parse("l", "--metrics-port=0", "--health-port=0").metrics())
        .isEmpty();
    assertThat(ProviderOptions.parse("l", "--health-port=0").health()).isEmpty();
  }

  @Test
  void theLivenessStallTimeoutIsAGoDuration() {
    assertThat(ProviderOptions.parse("l", "--liveness-stall-timeout=2s").livenessStallTimeout())
        .isEqualTo(Duration.ofSeconds(2));
    assertThat(
            ProviderOptions.parse("l", "--liveness-stall-timeout", "1m30s").livenessStallTimeout())
        .isEqualTo(Duration.ofSeconds(90));
    assertThatThrownBy(() -> ProviderOptions.parse("l", "--liveness-stall-timeout=300"))
        .hasMessage("--liveness-stall-timeout must be a duration such as 15s or 1m30s, not '300'");
  }

  @Test
  void badFlagsAreRejectedWithWhatIsAllowed() {
    assertThatThrownBy(() -> ProviderOptions.parse("l", "--concurency=3"))
        .hasMessage("unknown flag --concurency");
    assertThatThrownBy(() -> ProviderOptions.parse("l", "--bogus"))
        .hasMessage("unknown flag --bogus");
    assertThatThrownBy(() -> ProviderOptions.parse("l", "--concurrency=0"))
        .hasMessage("--concurrency must be a number from 1 to 1000, not '0'");
    assertThatThrownBy(() -> ProviderOptions.parse("l", "--logging-format=xml"))
        .hasMessage("--logging-format must be text or json, not 'xml'");
    assertThatThrownBy(() -> ProviderOptions.parse("l", "--log-format=xml"))
        .hasMessage("--log-format must be text or json, not 'xml'");
    assertThatThrownBy(() -> ProviderOptions.parse("l", "--leader-elect=yes"))
        .hasMessage("--leader-elect must be true or false, not 'yes'");
    assertThatThrownBy(() -> ProviderOptions.parse("l", "--namespace"))
        .hasMessage("--namespace needs a value");
    assertThatThrownBy(() -> ProviderOptions.parse("l", "-v=loud"))
        .hasMessage("-v must be a number, not 'loud'");
    assertThatThrownBy(() -> ProviderOptions.parse("l", "--diagnostics-address=8443"))
        .hasMessage("--diagnostics-address must be HOST:PORT, :PORT or 0, not '8443'");
    assertThatThrownBy(() -> ProviderOptions.parse("l", "--leader-elect-lease-duration=15"))
        .hasMessage(
            "--leader-elect-lease-duration must be a duration such as 15s or 1m30s, not '15'");
    assertThatThrownBy(() -> ProviderOptions.parse("l", "--leader-elect-renew-deadline=20s"))
        .hasMessage(
            "--leader-elect-lease-duration must be longer than --leader-elect-renew-deadline");
    assertThatThrownBy(() -> ProviderOptions.parse("l", "--tls-min-version=VersionTLS10"))
        .hasMessage("--tls-min-version must be VersionTLS12 or VersionTLS13, not 'VersionTLS10'");
    assertThatThrownBy(() -> ProviderOptions.parse("l", "--tls-cipher-suites=TLS_FAST"))
        .hasMessage("--tls-cipher-suites: 'TLS_FAST' is not a cipher suite this JVM implements");
    assertThatThrownBy(() -> ProviderOptions.parse("l", "stray"))
        .hasMessage("unexpected argument 'stray'");
  }

  @Test
  void helpDocumentsEveryFlagAndMarksTheOldSpellingsDeprecated() {
    String usage = ProviderOptions.usage("bootstrap-provider", "Does things.", "lease");
    for (String flag :
        List.of(
            "--kubeconfig=",
            "--namespace=",
            "--watch-filter=",
            "--leader-elect ",
            "--leader-elect-lease-duration=",
            "--leader-elect-renew-deadline=",
            "--leader-elect-retry-period=",
            "--leader-election-id=",
            "--leader-election-namespace=",
            "--concurrency=",
            "--liveness-stall-timeout=",
            "-v=N",
            "--logging-format=",
            "--diagnostics-address=",
            "--insecure-diagnostics",
            "--metrics-bind-address=",
            "--metrics-secure",
            "--metrics-cert-path=",
            "--tls-min-version=",
            "--tls-cipher-suites=",
            "--health-probe-bind-address=",
            "--enable-http2",
            "--version",
            "--help")) {
      assertThat(usage).contains("  " + flag);
    }
    String deprecated = usage.substring(usage.indexOf("Deprecated flags"));
    assertThat(deprecated)
        .contains("--log-level=LEVEL")
        .contains("DEPRECATED: use -v instead")
        .contains("--log-format=text|json")
        .contains("--metrics-port=PORT")
        .contains("--health-port=PORT");
    assertThat(usage.substring(0, usage.indexOf("Deprecated flags"))).doesNotContain("--log-level");
    assertThat(ProviderOptions.parse("l", "--help").help()).isTrue();
    assertThat(ProviderOptions.parse("l", "--version").version()).isTrue();
  }
}
