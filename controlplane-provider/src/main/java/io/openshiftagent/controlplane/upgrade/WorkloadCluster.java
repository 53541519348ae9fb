package io.openshiftagent.controlplane.upgrade;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.openshiftagent.api.external.OwnedFieldsPatch;
import io.openshiftagent.controlplane.release.KubernetesVersions;
import io.openshiftagent.controlplane.workload.WorkloadClients;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * The installed OpenShift cluster, seen through its admin kubeconfig: the Kubernetes version its
 * control-plane nodes run and its ClusterVersion. Nothing can be watched there from the hub, so the
 * reconciler looks again at an interval.
 */
final class WorkloadCluster implements AutoCloseable {
  static final String CLUSTER_VERSION_API = "config.openshift.io/v1";
  static final String CLUSTER_VERSION_KIND = "ClusterVersion";
  static final String CLUSTER_VERSION_NAME = "version";

  private static final ResourceDefinitionContext CLUSTER_VERSIONS =
      new ResourceDefinitionContext.Builder()
          .withGroup("config.openshift.io")
          .withVersion("v1")
          .withKind(CLUSTER_VERSION_KIND)
          .withPlural("clusterversions")
          .withNamespaced(false)
          .build();

  private final KubernetesClient client;

  private WorkloadCluster(KubernetesClient client) {
    this.client = client;
  }

  static WorkloadCluster connect(String kubeconfigYaml) {
    return new WorkloadCluster(WorkloadClients.connect(kubeconfigYaml));
  }

  /** The lowest kubelet version of the control-plane nodes, if any registered. */
  Optional<String> controlPlaneKubernetesVersion() {
    Stream<Node> nodes =
        Stream.concat(
                client
                    .nodes()
                    .withLabel("node-role.kubernetes.io/control-plane")
                    .list()
                    .getItems()
                    .stream(),
                client
                    .nodes()
                    .withLabel("node-role.kubernetes.io/master")
                    .list()
                    .getItems()
                    .stream())
            .filter(n -> n.getStatus() != null && n.getStatus().getNodeInfo() != null);
    return nodes
        .map(n -> n.getStatus().getNodeInfo().getKubeletVersion())
        // A Node registers before its kubelet reports status: its version is then empty.
        .filter(v -> v != null && !v.isBlank())
        .min(KubernetesVersions.ORDER);
  }

  /** The ClusterVersion, if the cluster has one yet. */
  Optional<UpgradeDecision.ClusterVersionView> clusterVersion() {
    GenericKubernetesResource cv = clusterVersionResource().get();
    if (cv == null) {
      return Optional.empty();
    }
    Map<String, Object> spec = map(cv.getAdditionalProperties().get("spec"));
    Map<String, Object> status = map(cv.getAdditionalProperties().get("status"));
    Map<String, Object> desiredUpdate = map(spec.get("desiredUpdate"));
    String running =
        list(status.get("history")).stream()
            .map(WorkloadCluster::map)
            .filter(h -> "Completed".equals(h.get("state")))
            .map(h -> (String) h.get("version"))
            .filter(Objects::nonNull)
            .findFirst() // the CVO keeps the newest entry first
            .orElse(null);
    Map<String, Object> progressing = condition(status, "Progressing");
    Map<String, Object> failing = condition(status, "Failing");
    return Optional.of(
        new UpgradeDecision.ClusterVersionView(
            running,
            (String) desiredUpdate.get("version"),
            (String) desiredUpdate.get("image"),
            "True".equals(progressing.get("status")),
            (String) progressing.get("message"),
            "True".equals(failing.get("status")),
            (String) failing.get("message")));
  }

  /** Sets spec.desiredUpdate, and nothing else, on the ClusterVersion. */
  void requestUpdate(Map<String, Object> desiredUpdate) {
    // Name every field we may set, so a stale image or version never sits next to the new one.
    Map<String, Object> update = new java.util.LinkedHashMap<>();
    for (String field : List.of("version", "image", "force", "architecture")) {
      update.put(field, null);
    }
    update.putAll(desiredUpdate);
    new OwnedFieldsPatch()
        .set(update, "spec", "desiredUpdate")
        .applyTo(client, clusterVersionResource().get());
  }

  /**
   * The ClusterVersion, its resource named outright: a look's new client would otherwise ask the
   * cluster's discovery for it first, each time.
   */
  private Resource<GenericKubernetesResource> clusterVersionResource() {
    return client.genericKubernetesResources(CLUSTER_VERSIONS).withName(CLUSTER_VERSION_NAME);
  }

  private static Map<String, Object> condition(Map<String, Object> status, String type) {
    return list(status.get("conditions")).stream()
        .map(WorkloadCluster::map)
        .filter(c -> type.equals(c.get("type")))
        .findFirst()
        .orElse(Map.of());
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> map(Object o) {
    return o instanceof Map<?, ?> m ? (Map<String, Object>) m : Map.of();
  }

  private static List<?> list(Object o) {
    return o instanceof List<?> l ? l : List.of();
  }

  @Override
  public void close() {
    client.close();
  }
}
