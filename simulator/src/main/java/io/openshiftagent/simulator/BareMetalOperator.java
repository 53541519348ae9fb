package io.openshiftagent.simulator;

import io.fabric8.kubernetes.client.KubernetesClient;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * The real baremetal-operator ({@code hack/build-metal3.sh}) against the hub, in its test mode: the
 * fixture provisioner stands in for Ironic (registration, inspection with fixed hardware details,
 * provisioning and deprovisioning with its own short delays), everything else is the operator's own
 * (the BareMetalHost state machine, its CRDs, its validating webhooks).
 */
final class BareMetalOperator {
  static final String VERSION = "0.13.2";
  static final String NAME = "baremetal-operator";

  private BareMetalOperator() {}

  /** Installs the operator's CRDs and webhooks, starts it and waits until it is ready. */
  static UpstreamManager start(KubernetesClient hub, String kubeconfigYaml, Path workDir) {
    Path binary =
        UpstreamManager.binary(
            "baremetal-operator-v" + VERSION, "build-metal3.sh", "components.yaml");
    return UpstreamManager.start(
        hub,
        kubeconfigYaml,
        workDir,
        new UpstreamManager.Spec(
            NAME,
            binary,
            Webhooks.read(hub, Path.of(binary + "-components.yaml")),
            "baremetal-operator-",
            // Its webhook server reads its certificate from the default directory, <temp
            // dir>/k8s-webhook-server/serving-certs: its temp dir is tmp/ in its directory.
            "tmp/k8s-webhook-server/serving-certs",
            setup ->
                List.of(
                    "-kubeconfig=" + setup.kubeconfig(),
                    "-test-mode",
                    "-webhook-port=" + setup.webhookPort(),
                    "-health-addr=127.0.0.1:" + setup.healthPort(),
                    "-metrics-addr=0",
                    "-dev"),
            Map.of("TMPDIR", workDir.resolve(NAME).resolve("tmp").toString())));
  }
}
