package io.openshiftagent.simulator;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.openshiftagent.testsupport.FreePorts;
import io.openshiftagent.testsupport.TestPki;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The control-plane provider's in-place update hooks as a management cluster registers them: served
 * on 127.0.0.1 with a certificate of a CA of their own (as cert-manager would issue), and an
 * ExtensionConfig naming that URL and CA, which Cluster API's manager (feature gates {@code
 * RuntimeSDK} and {@code InPlaceUpdates}) discovers.
 */
final class InPlaceExtension {
  private static final Logger LOG = LoggerFactory.getLogger(InPlaceExtension.class);

  /** The ExtensionConfig's name: one per hub, as Cluster API takes one handler per hook. */
  static final String NAME = "openshift-agent-inplace";

  private final int port;
  private final Path certDir;
  private final String caPem;

  private InPlaceExtension(int port, Path certDir, String caPem) {
    this.port = port;
    this.certDir = certDir;
    this.caPem = caPem;
  }

  /** A port and a serving certificate in {@code workDir}, before the provider starts. */
  static InPlaceExtension prepare(Path workDir) {
    try {
      TestPki pki = TestPki.newCertificateAuthority("runtime-extension-ca");
      TestPki.PemKeyPair serving = pki.pemServerCertificateFor127001("controlplane-provider");
      Path dir = workDir.resolve("runtime-extension-certs");
      Files.createDirectories(dir);
      Files.writeString(dir.resolve("tls.crt"), serving.certificate());
      Files.writeString(dir.resolve("tls.key"), serving.privateKey());
      return new InPlaceExtension(FreePorts.next(), dir, pki.caPem());
    } catch (Exception e) {
      throw new IllegalStateException("cannot make the runtime extension's certificate", e);
    }
  }

  /** The control-plane provider's settings that serve the hooks. */
  Map<String, String> environment() {
    return Map.of(
        "RUNTIME_EXTENSION_ADDRESS",
        "127.0.0.1:" + port,
        "RUNTIME_EXTENSION_CERT_DIR",
        certDir.toString());
  }

  /**
   * The ExtensionConfig, once the provider serves; waits until Cluster API discovered its three
   * handlers.
   */
  void register(KubernetesClient hub) throws IOException, InterruptedException {
    GenericKubernetesResource config =
        new GenericKubernetesResourceBuilder()
            .withApiVersion("runtime.cluster.x-k8s.io/v1beta2")
            .withKind("ExtensionConfig")
            .withNewMetadata()
            .withName(NAME)
            .endMetadata()
            .withAdditionalProperties(
                Map.of(
                    "spec",
                    Map.of(
                        "clientConfig",
                        Map.of(
                            "url",
                            "https://127.0.0.1:" + port,
                            "caBundle",
                            Base64.getEncoder()
                                .encodeToString(caPem.getBytes(StandardCharsets.US_ASCII))),
                        "namespaceSelector",
                        Map.of())))
            .build();
    hub.resource(config).forceConflicts().serverSideApply();
    long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
    while (handlers(hub) < 3) {
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException(
            "Cluster API did not discover the runtime extension's handlers: "
                + hub.genericKubernetesResources(
                        "runtime.cluster.x-k8s.io/v1beta2", "ExtensionConfig")
                    .withName(NAME)
                    .get());
      }
      Thread.sleep(200);
    }
    LOG.info("ExtensionConfig {} discovered at https://127.0.0.1:{}", NAME, port);
  }

  private static int handlers(KubernetesClient hub) {
    GenericKubernetesResource found =
        hub.genericKubernetesResources("runtime.cluster.x-k8s.io/v1beta2", "ExtensionConfig")
            .withName(NAME)
            .get();
    Object handlers = found == null ? null : Fields.get(found, "status", "handlers");
    return handlers instanceof List<?> list ? list.size() : 0;
  }
}
