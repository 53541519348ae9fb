package io.openshiftagent.delivery;

import static io.openshiftagent.delivery.Await.await;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.openshiftagent.testsupport.Command;
import io.openshiftagent.testsupport.KubeApiServerEnvironment;
import io.openshiftagent.testsupport.ProviderJar;
import io.openshiftagent.testsupport.ProviderProcess;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Each provider's shaded jar, started as a real process ({@code java -jar}) against the real API
 * server: probes, metrics, leader election, a clean stop on SIGTERM, and its command line.
 */
class RunnableJarTest {
  private static final Duration START = Duration.ofSeconds(60);
  private static final Duration STOP = Duration.ofSeconds(20);

  enum Provider {
    BOOTSTRAP(
        ProviderJar.BOOTSTRAP,
        "bootstrap-openshift-agent-leader",
        List.of("openshiftassistedconfig", "agent")),
    CONTROLPLANE(
        ProviderJar.CONTROLPLANE,
        "controlplane-openshift-agent-leader",
        List.of("openshiftassistedcontrolplane"));

    final ProviderJar jar;
    final String command;
    final String lease;
    final List<String> controllers;

    Provider(ProviderJar jar, String lease, List<String> controllers) {
      this.jar = jar;
      this.command = jar.command;
      this.lease = lease;
      this.controllers = controllers;
    }

    Path jar() {
      return jar.path();
    }
  }

  @ParameterizedTest
  @EnumSource(Provider.class)
  void servesProbesAndMetricsHoldsTheLeaseAndReleasesItOnSigterm(
      Provider provider, @TempDir Path dir) throws Exception {
    KubeApiServerEnvironment env = KubeApiServerEnvironment.shared();
    String namespace = env.createNamespace("jar-" + provider.command);
    try (ProviderProcess running = start(provider, env, namespace, "jar-test-pod", dir)) {
      await(
          provider.command + " answers /healthz and /readyz with 200 (log: " + running.log() + ")",
          START,
          () -> running.status("/healthz") == 200 && running.status("/readyz") == 200);
      await(
          provider.command + " takes the Lease " + namespace + "/" + provider.lease,
          START,
          () -> !holder(env, namespace, provider).isEmpty());
      String holder = holder(env, namespace, provider);
      // The Deployment sets POD_NAME from the downward API; the Lease holder is named after it.
      assertThat(holder).as("Lease holder while running").startsWith("jar-test-pod_");

      String metrics = running.metrics();
      for (String controller : provider.controllers) {
        String label = "\\{[^}]*controller=\"" + controller + "\"";
        assertThat(metrics)
            .as("controller-runtime's metrics of %s", controller)
            .containsPattern("(?m)^controller_runtime_reconcile_total" + label)
            .containsPattern("(?m)^controller_runtime_reconcile_errors_total" + label)
            .containsPattern("(?m)^controller_runtime_reconcile_time_seconds_bucket" + label)
            .containsPattern("(?m)^controller_runtime_active_workers" + label)
            .containsPattern("(?m)^workqueue_depth" + label)
            .containsPattern("(?m)^workqueue_adds_total" + label);
      }
      assertThat(metrics).contains("jvm_memory_used_bytes");
      if (provider == Provider.CONTROLPLANE) {
        assertThat(metrics)
            .containsPattern("(?m)^openshift_agent_clusters\\{[^}]*stage=\"Available\"")
            .contains("openshift_agent_cluster_time_to_available_seconds_count");
      }

      stopWithSigterm(running);
      assertThat(Files.readString(running.log())).contains("released leader Lease");
      assertThat(holder(env, namespace, provider))
          .as("Lease holder after a clean stop (was %s)", holder)
          .isEmpty();
    }
  }

  /**
   * A second replica waits while the first leads, and takes over as soon as the first stops
   * cleanly: sooner than the Lease's duration, because the first released it.
   */
  @ParameterizedTest
  @EnumSource(Provider.class)
  void aStandbyTakesOverAtOnceWhenTheLeaderStops(Provider provider, @TempDir Path dir)
      throws Exception {
    KubeApiServerEnvironment env = KubeApiServerEnvironment.shared();
    String namespace = env.createNamespace("failover-" + provider.command);
    try (ProviderProcess first = start(provider, env, namespace, "pod-a", dir.resolve("a"));
        ProviderProcess second = start(provider, env, namespace, "pod-b", dir.resolve("b"))) {
      await(
          "one of the two replicas leads",
          START,
          () -> holder(env, namespace, provider).startsWith("pod-"));
      try {
        await(
            "both replicas answer /healthz",
            START,
            () -> first.status("/healthz") == 200 && second.status("/healthz") == 200);
      } catch (AssertionError e) {
        throw new AssertionError(
            e.getMessage()
                + "\n--- pod-a log\n"
                + Files.readString(first.log())
                + "\n--- pod-b log\n"
                + Files.readString(second.log()),
            e);
      }
      boolean firstLeads = holder(env, namespace, provider).startsWith("pod-a_");
      ProviderProcess leader = firstLeads ? first : second;
      String standby = firstLeads ? "pod-b_" : "pod-a_";

      stopWithSigterm(leader);
      long stopped = System.nanoTime();
      await(
          "the standby takes the Lease",
          Duration.ofSeconds(10),
          () -> holder(env, namespace, provider).startsWith(standby));
      // The elector's Lease lasts 15 s: without the release the standby would wait for it to
      // expire.
      Duration takeover = Duration.ofNanos(System.nanoTime() - stopped);
      System.out.printf(
          "%s: the standby led %d ms after the leader exited%n",
          provider.command, takeover.toMillis());
      assertThat(takeover).isLessThan(Duration.ofSeconds(10));
    }
  }

  /** A provider started with {@code java -jar}, as a replica named {@code podName}. */
  private static ProviderProcess start(
      Provider provider, KubeApiServerEnvironment env, String namespace, String podName, Path dir) {
    return ProviderProcess.builder(provider.jar, env.kubeConfigYaml(), dir)
        .flag("--leader-elect=true")
        .flag("--leader-election-namespace=" + namespace)
        .env("POD_NAME", podName)
        .start();
  }

  /** SIGTERM, then the process must exit with 0 or 143 within {@link #STOP}. */
  private static void stopWithSigterm(ProviderProcess running)
      throws InterruptedException, IOException {
    long asked = System.nanoTime();
    assertThat(running.terminate(STOP))
        .as("%s exits within %s of SIGTERM (log: %s)", running.jar().command, STOP, running.log())
        .isTrue();
    System.out.printf(
        "%s: exited with %d, %d ms after SIGTERM%n",
        running.jar().command, running.exitValue(), (System.nanoTime() - asked) / 1_000_000);
    assertThat(running.exitValue())
        .as("exit code after SIGTERM; log:%n%s", Files.readString(running.log()))
        .isIn(0, 143);
  }

  /** The Lease's holder, empty when there is no Lease or no holder. */
  private static String holder(KubeApiServerEnvironment env, String namespace, Provider provider) {
    Lease lease = env.client().leases().inNamespace(namespace).withName(provider.lease).get();
    String holder = lease == null ? null : lease.getSpec().getHolderIdentity();
    return holder == null ? "" : holder;
  }

  @ParameterizedTest
  @EnumSource(Provider.class)
  void helpExitsZeroAndDocumentsEveryFlag(Provider provider) {
    Command.Result help =
        Command.run(
                Duration.ofSeconds(30),
                List.of(java(), "-jar", provider.jar().toString(), "--help"))
            .succeeded();
    assertThat(help.stdout()).startsWith("Usage: " + provider.command);
    assertThat(flags(help.stdout()))
        .containsExactlyInAnyOrder(
            "kubeconfig",
            "namespace",
            "watch-filter",
            "leader-elect",
            "leader-elect-lease-duration",
            "leader-elect-renew-deadline",
            "leader-elect-retry-period",
            "leader-election-id",
            "leader-election-namespace",
            "concurrency",
            "liveness-stall-timeout",
            "logging-format",
            "diagnostics-address",
            "insecure-diagnostics",
            "metrics-bind-address",
            "metrics-secure",
            "metrics-cert-path",
            "tls-min-version",
            "tls-cipher-suites",
            "health-probe-bind-address",
            "enable-http2",
            "version",
            "help",
            // the old spellings, listed as deprecated
            "log-level",
            "log-format",
            "metrics-port",
            "health-port");
    assertThat(help.stdout()).contains("  -v=N").contains("default: " + provider.lease);
    assertThat(help.stdout().substring(help.stdout().indexOf("Deprecated flags")))
        .contains("--log-level=LEVEL", "DEPRECATED: use -v instead");
  }

  @ParameterizedTest
  @EnumSource(Provider.class)
  void versionPrintsTheReleaseAndExitsZero(Provider provider) {
    Command.Result version =
        Command.run(
                Duration.ofSeconds(30),
                List.of(java(), "-jar", provider.jar().toString(), "--version"))
            .succeeded();
    assertThat(version.stdout().strip())
        .isEqualTo(provider.command + " " + Release.pomReleaseVersion() + "-SNAPSHOT");
  }

  /**
   * The Go provider's Deployment args, carried over unchanged (its manager.yaml's {@code
   * --leader-elect}, and the flags its --help offers a patch), start a provider that leads.
   */
  @ParameterizedTest
  @EnumSource(Provider.class)
  void theGoProvidersDeploymentArgsAreAccepted(Provider provider, @TempDir Path dir)
      throws Exception {
    KubeApiServerEnvironment env = KubeApiServerEnvironment.shared();
    String namespace = env.createNamespace("go-args-" + provider.command);
    try (ProviderProcess running =
        ProviderProcess.builder(provider.jar, env.kubeConfigYaml(), dir)
            .flag("--leader-elect")
            .flag("--metrics-secure=false")
            .flag("--enable-http2=false")
            .flag("-v=3")
            .flag("--logging-format=text")
            .flag("--leader-election-namespace=" + namespace)
            .env("POD_NAME", "go-args-pod")
            .start()) {
      await(
          provider.command + " with the Go provider's args leads (log: " + running.log() + ")",
          START,
          () -> running.status("/readyz") == 200 && !holder(env, namespace, provider).isEmpty());
      assertThat(running.metrics()).contains("jvm_memory_used_bytes");
      assertThat(Files.readString(running.log()))
          .contains(" INFO ")
          .doesNotContain("deprecated flag");
    }
  }

  @ParameterizedTest
  @EnumSource(Provider.class)
  void anUnknownFlagExitsTwoAndSaysWhich(Provider provider) {
    Command.Result bad =
        Command.run(
            Duration.ofSeconds(30),
            List.of(java(), "-jar", provider.jar().toString(), "--no-such-flag=1"));
    assertThat(bad.exitCode()).isEqualTo(2);
    assertThat(bad.stderr()).contains("unknown flag --no-such-flag").contains("Usage:");
  }

  /** The flags a --help text lists, in order. */
  static List<String> flags(String help) {
    List<String> flags = new ArrayList<>();
    Matcher m = Pattern.compile("(?m)^  --([a-z0-9-]+)").matcher(help);
    while (m.find()) {
      flags.add(m.group(1));
    }
    return flags;
  }

  private static String java() {
    return Path.of(System.getProperty("java.home"), "bin", "java").toString();
  }
}
