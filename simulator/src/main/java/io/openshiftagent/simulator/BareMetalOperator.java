package io.openshiftagent.simulator;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.openshiftagent.testsupport.CrdInstaller;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * The real baremetal-operator ({@code hack/build-metal3.sh}) against the hub, in its test mode: the
 * fixture provisioner stands in for Ironic (registration, inspection with fixed hardware details,
 * provisioning and deprovisioning with its own short delays, power), everything else is the
 * operator's own (the BareMetalHost state machine, its CRDs, its validating webhooks).
 *
 * <p>One operator per namespace of hosts ({@code -namespace}), as a multi-tenant Metal3 runs it:
 * the fixture provisioner keeps one state for all the hosts an operator manages (one image being
 * provisioned, one power state), so hosts managed together change each other's power and
 * provisioning (docs/e2e.md, "The baremetal-operator's test mode"). One per namespace keeps each
 * cluster's hosts apart from every other cluster's. Its webhooks admit its namespace's objects.
 */
final class BareMetalOperator {
  static final String VERSION = "0.13.2";
  static final String NAME = "baremetal-operator";

  private BareMetalOperator() {}

  private static Path binary() {
    return UpstreamManager.binary(
        "baremetal-operator-v" + VERSION, "build-metal3.sh", "components.yaml");
  }

  private static List<HasMetadata> components(KubernetesClient hub) {
    return Webhooks.read(hub, Path.of(binary() + "-components.yaml"));
  }

  /** Installs the operator's CRDs (once per world). */
  static void installCrds(KubernetesClient hub) {
    CrdInstaller.install(
        hub,
        components(hub).stream()
            .filter(CustomResourceDefinition.class::isInstance)
            .map(CustomResourceDefinition.class::cast)
            .toList(),
        Duration.ofSeconds(60));
  }

  /**
   * Starts the operator of {@code namespace}, registers its webhooks for that namespace and waits
   * until it is ready.
   */
  static UpstreamManager start(
      KubernetesClient hub, String kubeconfigYaml, Path workDir, String namespace) {
    String name = NAME + "-" + namespace;
    return UpstreamManager.start(
        hub,
        kubeconfigYaml,
        workDir,
        new UpstreamManager.Spec(
            name,
            binary(),
            components(hub).stream().filter(o -> !(o instanceof CustomResourceDefinition)).toList(),
            name + "-",
            namespace,
            // Its webhook server reads its certificate from the default directory, <temp
            // dir>/k8s-webhook-server/serving-certs: its temp dir is tmp/ in its directory.
            "tmp/k8s-webhook-server/serving-certs",
            setup ->
                List.of(
                    "-kubeconfig=" + setup.kubeconfig(),
                    "-test-mode",
                    "-namespace=" + namespace,
                    "-webhook-port=" + setup.webhookPort(),
                    "-health-addr=127.0.0.1:" + setup.healthPort(),
                    "-metrics-addr=0",
                    "-dev"),
            Map.of("TMPDIR", workDir.resolve(name).resolve("tmp").toString())));
  }
}
