package io.openshiftagent.simulator;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.openshiftagent.testsupport.CrdInstaller;
import io.openshiftagent.testsupport.FreePorts;
import io.openshiftagent.testsupport.TestPaths;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * A real upstream controller manager, built by a hack/ script from its Go module, running against
 * the hub as it runs in a management cluster: its own directory ({@code <workDir>/<name>/}: the
 * hub's kubeconfig, the webhook serving certificate, its log), its CRDs installed (server-side
 * apply over the bare upstream files the hub may hold), its webhooks (conversion with its CRDs,
 * admission once it serves them) registered with the hub and served on 127.0.0.1 with a certificate
 * of a throwaway CA, health on a free port. {@link CapiManager}, {@link Capm3} and {@link
 * BareMetalOperator} say what each needs.
 */
final class UpstreamManager implements AutoCloseable {
  private static final Duration WEBHOOK_SERVER_START = Duration.ofSeconds(30);

  /** What a manager's command line is made of. */
  record Setup(Path dir, Path kubeconfig, Path certDir, int webhookPort, int healthPort) {

    /**
     * The flags every Cluster API provider's manager takes (sigs.k8s.io/cluster-api/util/flags and
     * controller-runtime's): the hub, one replica, the webhook server, health and diagnostics on
     * 127.0.0.1; then {@code more}.
     */
    List<String> clusterApiManagerFlags(String... more) {
      List<String> flags =
          new ArrayList<>(
              List.of(
                  "--kubeconfig=" + kubeconfig,
                  "--leader-elect=false",
                  "--webhook-port=" + webhookPort,
                  "--webhook-cert-dir=" + certDir,
                  "--health-addr=127.0.0.1:" + healthPort,
                  "--diagnostics-address=127.0.0.1:" + FreePorts.next(),
                  "--insecure-diagnostics=true"));
      flags.addAll(List.of(more));
      return flags;
    }
  }

  private final ManagerProcess process;
  private final Webhooks webhooks;

  private UpstreamManager(ManagerProcess process, Webhooks webhooks) {
    this.process = process;
    this.webhooks = webhooks;
  }

  /**
   * The binary {@code script} builds into the hack cache, failing with what to run when it is
   * missing; files named {@code <binary>-<suffix>} must be there too.
   */
  static Path binary(String fileName, String script, String... companions) {
    Path binary = TestPaths.toolsBin().resolve(fileName);
    boolean complete = Files.isExecutable(binary);
    for (String companion : companions) {
      complete &= Files.exists(Path.of(binary + "-" + companion));
    }
    if (!complete) {
      throw new IllegalStateException(
          binary + " is missing: run hack/" + script + " (or hack/test.sh)");
    }
    return binary;
  }

  /**
   * What one manager is.
   *
   * @param name its process and directory name
   * @param binary what a hack/ script built ({@link #binary})
   * @param manifests its release's CRDs and admission webhook configurations
   * @param webhookPrefix prefixed to the names of its webhook configurations
   * @param namespace the one namespace it watches (its webhooks admit only that namespace's
   *     objects), or null for all
   * @param certDir where in its directory it reads its webhook serving certificate
   * @param flags its command line, made of its setup
   * @param environment its environment variables
   */
  record Spec(
      String name,
      Path binary,
      List<HasMetadata> manifests,
      String webhookPrefix,
      String namespace,
      String certDir,
      Function<Setup, List<String>> flags,
      Map<String, String> environment) {}

  /**
   * Installs the manager's CRDs (their conversion webhooks pointed at it), starts it, waits until
   * it is ready and serves its webhooks, then registers its admission webhooks.
   *
   * @param hub a client of the hub, not closed here
   */
  static UpstreamManager start(
      KubernetesClient hub, String kubeconfigYaml, Path workDir, Spec spec) {
    Path dir = workDir.resolve(spec.name());
    Setup setup;
    Webhooks webhooks = new Webhooks(hub, spec.name());
    try {
      Files.createDirectories(dir);
      Path kubeconfig = dir.resolve("hub.kubeconfig");
      Files.writeString(kubeconfig, kubeconfigYaml);
      int webhookPort = FreePorts.next();
      setup =
          new Setup(
              dir,
              kubeconfig,
              webhooks.writeServingCertificate(dir.resolve(spec.certDir()), webhookPort),
              webhookPort,
              FreePorts.next());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    installCrds(hub, spec.manifests(), webhooks);
    List<String> command = new ArrayList<>();
    command.add(spec.binary().toString());
    command.addAll(spec.flags().apply(setup));
    ManagerProcess process =
        ManagerProcess.start(
            spec.name(),
            command,
            spec.environment(),
            dir.resolve(spec.name() + ".log"),
            setup.healthPort());
    // Registered once they are served: before, the hub would refuse every object they admit (a
    // namespace's hosts created while its baremetal-operator starts).
    try {
      awaitListening(spec.name(), setup.webhookPort());
      webhooks.registerAdmission(spec.manifests(), spec.webhookPrefix(), spec.namespace());
      return new UpstreamManager(process, webhooks);
    } catch (RuntimeException | Error e) {
      process.close();
      webhooks.unregister();
      throw e;
    }
  }

  /** Waits until the manager's webhook server accepts connections on 127.0.0.1:{@code port}. */
  static void awaitListening(String name, int port) {
    long deadline = System.nanoTime() + WEBHOOK_SERVER_START.toNanos();
    while (true) {
      try (Socket socket = new Socket()) {
        socket.connect(new InetSocketAddress("127.0.0.1", port), 1000);
        return;
      } catch (IOException notYet) {
        if (System.nanoTime() > deadline) {
          throw new IllegalStateException(
              name + " serves no webhooks on port " + port + " after " + WEBHOOK_SERVER_START);
        }
      }
      try {
        Thread.sleep(50);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted waiting for " + name, e);
      }
    }
  }

  /**
   * The manager's CRDs among {@code manifests}, created or replaced (the hub may hold the same CRDs
   * from the bare upstream files), their conversion webhooks pointed at this manager.
   */
  private static void installCrds(
      KubernetesClient hub, List<HasMetadata> manifests, Webhooks webhooks) {
    List<CustomResourceDefinition> crds =
        manifests.stream()
            .filter(CustomResourceDefinition.class::isInstance)
            .map(CustomResourceDefinition.class::cast)
            .toList();
    crds.forEach(webhooks::pointConversionHere);
    CrdInstaller.install(hub, crds, Duration.ofSeconds(60));
  }

  /** Its process, to kill and restart (fault tests), and its log. */
  WorldProcess process() {
    return process;
  }

  /** Stops the process first, then removes its admission webhooks. */
  @Override
  public void close() {
    try {
      process.close();
    } finally {
      webhooks.unregister();
    }
  }
}
