package io.openshiftagent.controlplane.upgrade;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.openshiftagent.api.external.OwnedFieldsPatch;
import io.openshiftagent.controlplane.release.KubernetesVersions;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The installed OpenShift cluster as the upgrade sees it: what its control-plane Nodes and its
 * ClusterVersion say (read by the scope), and the one write there, the ClusterVersion's {@code
 * spec.desiredUpdate}. Nothing can be watched there from the hub, so the reconciler looks again at
 * an interval.
 */
final class WorkloadCluster {
  private WorkloadCluster() {}

  /** The lowest kubelet version of the control-plane nodes, if any registered. */
  static Optional<String> controlPlaneKubernetesVersion(List<Node> controlPlaneNodes) {
    return controlPlaneNodes.stream()
        .filter(n -> n.getStatus() != null && n.getStatus().getNodeInfo() != null)
        .map(n -> n.getStatus().getNodeInfo().getKubeletVersion())
        // A Node registers before its kubelet reports status: its version is then empty.
        .filter(v -> v != null && !v.isBlank())
        .min(KubernetesVersions.ORDER);
  }

  /** What the ClusterVersion says, as the decision needs it. */
  static UpgradeDecision.ClusterVersionView view(GenericKubernetesResource cv) {
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
    return new UpgradeDecision.ClusterVersionView(
        running,
        (String) desiredUpdate.get("version"),
        (String) desiredUpdate.get("image"),
        "True".equals(progressing.get("status")),
        (String) progressing.get("message"),
        "True".equals(failing.get("status")),
        (String) failing.get("message"));
  }

  /** Sets spec.desiredUpdate, and nothing else, on the ClusterVersion. */
  static void requestUpdate(
      KubernetesClient workload, GenericKubernetesResource cv, Map<String, Object> desiredUpdate) {
    // Name every field we may set, so a stale image or version never sits next to the new one.
    Map<String, Object> update = new LinkedHashMap<>();
    for (String field : List.of("version", "image", "force", "architecture")) {
      update.put(field, null);
    }
    update.putAll(desiredUpdate);
    new OwnedFieldsPatch().set(update, "spec", "desiredUpdate").applyTo(workload, cv);
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
}
