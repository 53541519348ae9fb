package io.openshiftagent.simulator;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.MutatingWebhookConfiguration;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.ValidatingWebhookConfiguration;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The real CAPM3, cluster-api-provider-metal3 ({@code hack/build-metal3.sh}), against the hub as
 * {@code clusterctl init --infrastructure metal3} installs it: the CRDs of its release manifest
 * (labelled with their Cluster API contract versions and with clusterctl's labels, v1beta1 served
 * through its conversion webhook), its defaulting and validation webhooks, and the manager with the
 * Deployment's flags ({@code CAPM3_FAST_TRACK=false}, as its ConfigMap's default).
 */
final class Capm3 {
  static final String VERSION = "1.13.2";
  static final String NAME = "capm3-manager";

  /** What clusterctl adds to every object of a provider it installs. */
  static final Map<String, String> CLUSTERCTL_LABELS =
      Map.of(
          "clusterctl.cluster.x-k8s.io", "", "cluster.x-k8s.io/provider", "infrastructure-metal3");

  private Capm3() {}

  /** Installs CAPM3's CRDs and webhooks, starts the manager and waits until it is ready. */
  static UpstreamManager start(KubernetesClient hub, String kubeconfigYaml, Path workDir) {
    Path binary =
        UpstreamManager.binary("capm3-manager-v" + VERSION, "build-metal3.sh", "components.yaml");
    List<HasMetadata> components =
        Webhooks.read(hub, Path.of(binary + "-components.yaml")).stream()
            .filter(
                o ->
                    o instanceof CustomResourceDefinition
                        || o instanceof MutatingWebhookConfiguration
                        || o instanceof ValidatingWebhookConfiguration)
            .toList();
    components.forEach(Capm3::labelAsClusterctlDoes);
    return UpstreamManager.start(
        hub,
        kubeconfigYaml,
        workDir,
        new UpstreamManager.Spec(
            NAME,
            binary,
            components,
            "",
            null,
            "webhook-certs",
            setup -> setup.clusterApiManagerFlags("--enable-bmh-name-based-preallocation=false"),
            Map.of("CAPM3_FAST_TRACK", "false")));
  }

  private static void labelAsClusterctlDoes(HasMetadata object) {
    Map<String, String> labels =
        new HashMap<>(
            object.getMetadata().getLabels() == null ? Map.of() : object.getMetadata().getLabels());
    labels.putAll(CLUSTERCTL_LABELS);
    object.getMetadata().setLabels(labels);
  }
}
