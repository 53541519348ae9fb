package io.openshiftagent.provider.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ProviderOptionsTest {

  @Test
  void defaultsWatchEverythingWithProbesAndMetricsOnTheirPorts() {
    ProviderOptions o = ProviderOptions.parse("lease");
    assertThat(o.namespaces()).isEmpty();
    assertThat(o.watchFilter()).isEmpty();
    assertThat(o.leaderElectionId()).isEqualTo("lease");
    assertThat(o.concurrency()).isEqualTo(10);
    assertThat(o.metricsPort()).isEqualTo(8080);
    assertThat(o.healthPort()).isEqualTo(8081);
    assertThat(o.logFormat()).isEqualTo(ProviderOptions.LogFormat.TEXT);
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
  }

  @Test
  void everyFlagIsReadInBothSpellings() {
    ProviderOptions o =
        ProviderOptions.parse(
            "lease",
            "--kubeconfig=/tmp/kc",
            "--namespace",
            "a,b",
            "--watch-filter=team-a",
            "--leader-election-id=other",
            "--leader-election-namespace",
            "capi-system",
            "--concurrency=3",
            "--log-level=debug",
            "--log-format=json",
            "--metrics-port=0",
            "--health-port",
            "9000");
    assertThat(o.kubeconfig()).contains(Path.of("/tmp/kc"));
    assertThat(o.namespaces()).isEqualTo(Set.of("a", "b"));
    assertThat(o.watchFilter()).contains("team-a");
    assertThat(o.leaderElectionId()).isEqualTo("other");
    assertThat(o.leaderElectionNamespace()).isEqualTo(Optional.of("capi-system"));
    assertThat(o.concurrency()).isEqualTo(3);
    assertThat(o.logLevel()).isEqualTo("DEBUG");
    assertThat(o.logFormat()).isEqualTo(ProviderOptions.LogFormat.JSON);
    assertThat(o.metricsPort()).isZero();
    assertThat(o.healthPort()).isEqualTo(9000);
  }

  @Test
  void badFlagsAreRejectedWithWhatIsAllowed() {
    assertThatThrownBy(() -> ProviderOptions.parse("l", "--concurency=3"))
        .hasMessage("unknown flag --concurency");
    assertThatThrownBy(() -> ProviderOptions.parse("l", "--bogus"))
        .hasMessage("unknown flag --bogus");
    assertThatThrownBy(() -> ProviderOptions.parse("l", "--concurrency=0"))
        .hasMessage("--concurrency must be a number from 1 to 1000, not '0'");
    assertThatThrownBy(() -> ProviderOptions.parse("l", "--log-format=xml"))
        .hasMessage("--log-format must be text or json, not 'xml'");
    assertThatThrownBy(() -> ProviderOptions.parse("l", "--leader-elect=yes"))
        .hasMessage("--leader-elect must be true or false, not 'yes'");
    assertThatThrownBy(() -> ProviderOptions.parse("l", "--namespace"))
        .hasMessage("--namespace needs a value");
  }

  @Test
  void helpDocumentsEveryFlag() {
    String usage = ProviderOptions.usage("bootstrap-provider", "Does things.", "lease");
    for (String flag :
        new String[] {
          "--kubeconfig", "--namespace", "--watch-filter", "--leader-elect=",
              "--leader-election-id",
          "--leader-election-namespace", "--concurrency", "--log-level", "--log-format",
              "--metrics-port",
          "--health-port", "--help"
        }) {
      assertThat(usage).contains(flag);
    }
    assertThat(ProviderOptions.parse("l", "--help").help()).isTrue();
  }
}
