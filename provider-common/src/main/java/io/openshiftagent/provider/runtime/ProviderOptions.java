package io.openshiftagent.provider.runtime;

import io.openshiftagent.provider.runtime.Flags.Flag;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The command line every provider takes: Cluster API's managers' flags, and the spellings this
 * provider had before as deprecated aliases. {@link #usage} documents each flag.
 *
 * @param metrics where {@code /metrics} is served, if anywhere
 * @param health where {@code /healthz} and {@code /readyz} are served, if anywhere
 * @param livenessStallTimeout how long reconciling may make no progress before {@code /healthz}
 *     fails (see {@link Liveness})
 * @param deprecatedFlags the deprecated spellings given, each with its replacement
 */
public record ProviderOptions(
    boolean help,
    boolean version,
    Optional<Path> kubeconfig,
    Set<String> namespaces,
    Optional<String> watchFilter,
    Optional<Boolean> leaderElect,
    String leaderElectionId,
    Optional<String> leaderElectionNamespace,
    LeaseTiming leaseTiming,
    int concurrency,
    Duration livenessStallTimeout,
    String logLevel,
    LogFormat logFormat,
    Optional<MetricsEndpoint> metrics,
    Optional<InetSocketAddress> health,
    TlsOptions tls,
    List<String> deprecatedFlags) {

  /** How log lines are written to standard output. */
  public enum LogFormat {
    TEXT,
    JSON
  }

  /**
   * Where metrics are served: over HTTPS behind TokenReview and SubjectAccessReview ({@code
   * secure}), or plain HTTP to anyone.
   */
  public record MetricsEndpoint(InetSocketAddress address, boolean secure) {}

  /**
   * The metrics server's TLS settings given on the command line: they win over the cluster's TLS
   * profile. {@code certDir} holds {@code tls.crt} and {@code tls.key}; without it the server makes
   * a self-signed certificate.
   */
  public record TlsOptions(
      Optional<String> minVersion, List<String> cipherSuites, Optional<Path> certDir) {}

  private static final Duration LEASE = LeaseTiming.DEFAULT.leaseDuration();
  private static final Duration RENEW = LeaseTiming.DEFAULT.renewDeadline();
  private static final Duration RETRY = LeaseTiming.DEFAULT.retryPeriod();
  private static final Duration STALL_TIMEOUT = Duration.ofMinutes(5);

  private static Flags flags(String defaultLeaseName) {
    return new Flags(
        List.of(
            Flag.of(
                "kubeconfig",
                "PATH",
                "kubeconfig to use (default: in-cluster config, else $KUBECONFIG or ~/.kube/config)"),
            Flag.of("namespace", "NS[,NS...]", "watch only these namespaces (default: all)"),
            Flag.of(
                "watch-filter",
                "VALUE",
                "reconcile only objects labelled cluster.x-k8s.io/watch-filter=VALUE"),
            Flag.of(
                "leader-elect",
                "",
                "elect a leader through a Lease; --leader-elect=false to not (default: true in a"
                    + " cluster, false outside)"),
            Flag.of(
                "leader-elect-lease-duration",
                "DURATION",
                "how long a standby waits after the leader's last renew (default: 15s)"),
            Flag.of(
                "leader-elect-renew-deadline",
                "DURATION",
                "how long the leader tries to renew before it gives up (default: 10s)"),
            Flag.of(
                "leader-elect-retry-period",
                "DURATION",
                "how often the Lease is tried (default: 2s)"),
            Flag.of(
                "leader-election-id",
                "NAME",
                "name of the leader-election Lease (default: " + defaultLeaseName + ")"),
            Flag.of(
                "leader-election-namespace",
                "NS",
                "namespace of the Lease (default: the pod's namespace)"),
            Flag.of("concurrency", "N", "reconciles run in parallel (default: 10)"),
            Flag.of(
                "liveness-stall-timeout",
                "DURATION",
                "/healthz fails once a reconcile has run this long, or work has waited this long"
                    + " for a worker with no reconcile finishing (default: 5m)"),
            Flag.of(
                "v",
                "N",
                "log verbosity: 0-2 warnings and errors, 3-5 info, 6-8 debug, 9 trace (default: 3)"),
            Flag.of("logging-format", "text|json", "text lines or JSON lines (default: text)"),
            Flag.of(
                "diagnostics-address",
                "ADDR",
                "where /metrics is served, over HTTPS behind TokenReview and SubjectAccessReview;"
                    + " 0 to disable (default: :8443)"),
            Flag.of(
                "insecure-diagnostics",
                "",
                "serve /metrics on --diagnostics-address over plain HTTP, to anyone"),
            Flag.of(
                "metrics-bind-address",
                "ADDR",
                "serve /metrics here instead, over plain HTTP unless --metrics-secure; 0 to"
                    + " disable (the Go provider's flag)"),
            Flag.of(
                "metrics-secure",
                "",
                "with --metrics-bind-address: HTTPS behind TokenReview and SubjectAccessReview"),
            Flag.of(
                "metrics-cert-path",
                "DIR",
                "the metrics server's tls.crt and tls.key (default: a self-signed certificate)"),
            Flag.of(
                "tls-min-version",
                "VERSION",
                "VersionTLS12 or VersionTLS13 (default: the cluster's TLS profile, else"
                    + " Intermediate's VersionTLS12)"),
            Flag.of(
                "tls-cipher-suites",
                "SUITE[,SUITE...]",
                "IANA names of the TLS 1.2 cipher suites (default: the cluster's TLS profile, else"
                    + " Intermediate's)"),
            Flag.of(
                "health-probe-bind-address",
                "ADDR",
                "where /healthz and /readyz are served; 0 to disable (default: :8081)"),
            Flag.of(
                "enable-http2",
                "",
                "accepted for the Go provider's manifests; HTTP/2 is never served"),
            Flag.of("version", "", "print the version and exit"),
            Flag.of("help", "", "print this help and exit"),
            Flag.deprecated("log-level", "LEVEL", "-v"),
            Flag.deprecated("log-format", "text|json", "--logging-format"),
            Flag.deprecated(
                "metrics-port", "PORT", "--diagnostics-address (or --metrics-bind-address=:PORT)"),
            Flag.deprecated("health-port", "PORT", "--health-probe-bind-address=:PORT")));
  }

  /** Parses the command line. Throws {@link IllegalArgumentException} with the reason. */
  public static ProviderOptions parse(String defaultLeaseName, String... args) {
    Flags.Parsed p = flags(defaultLeaseName).parse(args);
    List<String> namespaces = new ArrayList<>();
    for (String ns : p.get("namespace").orElse("").split(",")) {
      if (!ns.isBlank()) {
        namespaces.add(ns.trim());
      }
    }
    List<String> suites = new ArrayList<>();
    for (String suite : p.get("tls-cipher-suites").orElse("").split(",")) {
      if (!suite.isBlank()) {
        suites.add(suite.trim());
      }
    }
    return new ProviderOptions(
        p.has("help") && p.get("help").get().equals("true"),
        p.has("version") && p.get("version").get().equals("true"),
        p.get("kubeconfig").map(Path::of),
        Set.copyOf(namespaces),
        p.get("watch-filter").filter(v -> !v.isBlank()),
        p.get("leader-elect").map(Boolean::parseBoolean),
        p.get("leader-election-id").orElse(defaultLeaseName),
        p.get("leader-election-namespace").filter(v -> !v.isBlank()),
        new LeaseTiming(
            p.get("leader-elect-lease-duration")
                .map(v -> FlagValues.duration("leader-elect-lease-duration", v))
                .orElse(LEASE),
            p.get("leader-elect-renew-deadline")
                .map(v -> FlagValues.duration("leader-elect-renew-deadline", v))
                .orElse(RENEW),
            p.get("leader-elect-retry-period")
                .map(v -> FlagValues.duration("leader-elect-retry-period", v))
                .orElse(RETRY)),
        FlagValues.parseInt("concurrency", p.get("concurrency").orElse("10"), 1, 1000),
        p.get("liveness-stall-timeout")
            .map(v -> FlagValues.duration("liveness-stall-timeout", v))
            .orElse(STALL_TIMEOUT),
        p.get("v")
            .map(FlagValues::verbosity)
            .orElseGet(() -> p.get("log-level").map(FlagValues::level).orElse("INFO")),
        FlagValues.format(
            p.get("logging-format").isPresent() ? "logging-format" : "log-format",
            p.get("logging-format").or(() -> p.get("log-format")).orElse("text")),
        metrics(p),
        p.get("health-probe-bind-address")
            .map(v -> FlagValues.address("health-probe-bind-address", v))
            .orElseGet(
                () ->
                    FlagValues.address(
                        "health-port",
                        ":"
                            + FlagValues.parseInt(
                                "health-port", p.get("health-port").orElse("8081"), 0, 65535),
                        true)),
        new TlsOptions(
            p.get("tls-min-version").map(FlagValues::tlsVersion),
            TlsSettings.checkCipherSuites(suites),
            p.get("metrics-cert-path").map(Path::of)),
        p.deprecated());
  }

  /** The --help text. */
  public static String usage(String command, String description, String defaultLeaseName) {
    return flags(defaultLeaseName).usage(command, description);
  }

  /** Whether to elect a leader: as asked, else only when running in a pod. */
  public boolean leaderElectionEnabled(boolean inCluster) {
    return leaderElect.orElse(inCluster);
  }

  /**
   * As Cluster API reads its flags: {@code --metrics-bind-address} (or the old {@code
   * --metrics-port}) serves plain HTTP unless {@code --metrics-secure}; otherwise {@code
   * --diagnostics-address} serves HTTPS unless {@code --insecure-diagnostics}.
   */
  private static Optional<MetricsEndpoint> metrics(Flags.Parsed p) {
    if (p.has("metrics-bind-address")) {
      return FlagValues.address("metrics-bind-address", p.get("metrics-bind-address").get())
          .map(a -> new MetricsEndpoint(a, p.get("metrics-secure").orElse("false").equals("true")));
    }
    if (p.has("metrics-port")) {
      int port = FlagValues.parseInt("metrics-port", p.get("metrics-port").get(), 0, 65535);
      return FlagValues.address("metrics-port", ":" + port, true)
          .map(a -> new MetricsEndpoint(a, false));
    }
    return FlagValues.address("diagnostics-address", p.get("diagnostics-address").orElse(":8443"))
        .map(
            a ->
                new MetricsEndpoint(
                    a, !p.get("insecure-diagnostics").orElse("false").equals("true")));
  }
}
