package io.openshiftagent.simulator;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.MutatingWebhookConfiguration;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.ValidatingWebhookConfiguration;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.WebhookClientConfig;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.NonDeletingOperation;
import io.openshiftagent.testsupport.CrdInstaller;
import io.openshiftagent.testsupport.FreePorts;
import io.openshiftagent.testsupport.TestPki;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The real Cluster API core manager ({@code hack/build-capi-manager.sh}) as a child process against
 * the hub, with its admission webhooks served on 127.0.0.1 (certificate from a throwaway CA) and
 * registered with the hub's API server, as in a real management cluster.
 */
public final class CapiManager implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(CapiManager.class);
  static final String VERSION = "1.14.0";

  private final Process process;
  private final Path log;
  private final KubernetesClient hub;
  private final List<HasMetadata> webhooks = new ArrayList<>();

  private CapiManager(Process process, Path log, KubernetesClient hub) {
    this.process = process;
    this.log = log;
    this.hub = hub;
  }

  /** The binary hack/build-capi-manager.sh builds. */
  public static Path binary() {
    String cache = System.getenv("OPENSHIFT_AGENT_CACHE");
    Path dir =
        cache != null && !cache.isBlank()
            ? Path.of(cache)
            : Path.of(System.getProperty("user.home"), ".cache", "openshift-agent");
    return dir.resolve("bin").resolve("capi-manager-v" + VERSION);
  }

  /**
   * Starts the manager against the cluster of {@code kubeconfigYaml} and waits until it is ready.
   *
   * @param hub a client of that cluster, of its own: closed with the manager
   * @param workDir where its kubeconfig, certificates and log go
   */
  public static CapiManager start(String kubeconfigYaml, KubernetesClient hub, Path workDir)
      throws Exception {
    Path binary = binary();
    Path webhookManifests = Path.of(binary + "-webhooks.yaml");
    Path crds = Path.of(binary + "-crds");
    if (!Files.isExecutable(binary)
        || !Files.isRegularFile(webhookManifests)
        || !Files.isDirectory(crds)) {
      throw new IllegalStateException(
          binary + " is missing: run hack/build-capi-manager.sh (or hack/test.sh)");
    }
    installMissingCrds(hub, crds);
    Files.createDirectories(workDir);
    Path kubeconfig = workDir.resolve("hub.kubeconfig");
    Files.writeString(kubeconfig, kubeconfigYaml);
    Path certs = Files.createDirectories(workDir.resolve("webhook-certs"));
    TestPki pki = TestPki.newCertificateAuthority("capi-webhook-ca");
    TestPki.PemKeyPair serving = pki.pemServerCertificateFor127001("capi-webhook");
    Files.writeString(certs.resolve("tls.crt"), serving.certificate());
    Files.writeString(certs.resolve("tls.key"), serving.privateKey());

    int webhookPort = FreePorts.next();
    int healthPort = FreePorts.next();
    Path log = workDir.resolve("capi-manager.log");
    Process process =
        new ProcessBuilder(
                binary.toString(),
                "--kubeconfig=" + kubeconfig,
                "--leader-elect=false",
                "--feature-gates=ClusterTopology=true",
                "--webhook-port=" + webhookPort,
                "--webhook-cert-dir=" + certs,
                "--health-addr=127.0.0.1:" + healthPort,
                "--diagnostics-address=127.0.0.1:" + FreePorts.next(),
                "--insecure-diagnostics=true")
            .redirectErrorStream(true)
            .redirectOutput(log.toFile())
            .start();
    CapiManager manager = new CapiManager(process, log, hub);
    try {
      manager.registerWebhooks(webhookManifests, webhookPort, pki.caPem());
      manager.awaitReady(healthPort, Duration.ofSeconds(60));
    } catch (Exception | Error e) {
      manager.close();
      throw e;
    }
    return manager;
  }

  /**
   * The manager watches kinds the tests' hub lacks (ClusterResourceSet, ExtensionConfig,
   * IPAddress...): install those; the CRDs the hub has stay as they are.
   */
  private static void installMissingCrds(KubernetesClient hub, Path dir) {
    List<CustomResourceDefinition> missing =
        CrdInstaller.read(hub, dir).stream()
            .filter(
                crd ->
                    hub.apiextensions()
                            .v1()
                            .customResourceDefinitions()
                            .withName(crd.getMetadata().getName())
                            .get()
                        == null)
            .toList();
    if (!missing.isEmpty()) {
      CrdInstaller.install(hub, missing, Duration.ofSeconds(60));
    }
  }

  /**
   * The release's webhook configurations, pointed at 127.0.0.1 instead of the in-cluster Service.
   */
  private void registerWebhooks(Path manifests, int port, String caPem) throws IOException {
    String caBundle = Base64.getEncoder().encodeToString(caPem.getBytes(StandardCharsets.UTF_8));
    List<HasMetadata> objects;
    try (InputStream in = Files.newInputStream(manifests)) {
      objects = hub.load(in).items();
    }
    for (HasMetadata object : objects) {
      object.getMetadata().setName("capi-" + object.getMetadata().getName());
      if (object instanceof MutatingWebhookConfiguration mutating) {
        mutating.getWebhooks().forEach(w -> local(w.getClientConfig(), port, caBundle));
      } else if (object instanceof ValidatingWebhookConfiguration validating) {
        validating.getWebhooks().forEach(w -> local(w.getClientConfig(), port, caBundle));
      }
      webhooks.add(hub.resource(object).createOr(NonDeletingOperation::update));
    }
  }

  private static void local(WebhookClientConfig config, int port, String caBundle) {
    String path = config.getService().getPath();
    config.setService(null);
    config.setUrl("https://127.0.0.1:" + port + path);
    config.setCaBundle(caBundle);
  }

  private void awaitReady(int healthPort, Duration timeout) throws Exception {
    HttpClient http = HttpClient.newHttpClient();
    URI readyz = URI.create("http://127.0.0.1:" + healthPort + "/readyz");
    long deadline = System.nanoTime() + timeout.toNanos();
    long started = System.nanoTime();
    while (System.nanoTime() < deadline) {
      if (!process.isAlive()) {
        throw new IllegalStateException(
            "the Cluster API manager exited with " + process.exitValue() + "; see " + log);
      }
      try {
        HttpResponse<Void> response =
            http.send(
                HttpRequest.newBuilder(readyz).timeout(Duration.ofSeconds(2)).build(),
                HttpResponse.BodyHandlers.discarding());
        if (response.statusCode() == 200) {
          LOG.info(
              "Cluster API core manager v{} ready in {} ms (log: {})",
              VERSION,
              (System.nanoTime() - started) / 1_000_000,
              log);
          return;
        }
      } catch (IOException notYetListening) {
        // The process is still starting.
      }
      Thread.sleep(200);
    }
    throw new IllegalStateException("the Cluster API manager is not ready after " + timeout);
  }

  public Path log() {
    return log;
  }

  @Override
  public void close() {
    // Webhooks with failurePolicy Fail must not outlive the server behind them.
    for (HasMetadata webhook : webhooks) {
      hub.resource(webhook).delete();
    }
    hub.close();
    process.destroy();
    try {
      if (!process.waitFor(10, TimeUnit.SECONDS)) {
        process.destroyForcibly();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      process.destroyForcibly();
    }
  }
}
