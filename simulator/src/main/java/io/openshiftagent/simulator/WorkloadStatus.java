package io.openshiftagent.simulator;

import io.fabric8.kubernetes.client.dsl.Resource;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The status a kubelet reports for the objects of an installed cluster's Nodes, merged in. */
public final class WorkloadStatus {
  private WorkloadStatus() {}

  /** Merges {@code status} into the object's status subresource. */
  public static void merge(Resource<?> object, Map<String, ?> status) {
    object
        .subresource("status")
        .patch(
            PatchContext.of(PatchType.JSON_MERGE), Serialization.asJson(Map.of("status", status)));
  }

  /** A pod running on a simulated Node (its host on loopback), with these conditions now. */
  public static Map<String, Object> runningPod(Map<String, Boolean> conditions) {
    String now = Fields.now();
    List<Map<String, String>> listed =
        conditions.entrySet().stream()
            .map(
                c ->
                    Map.of(
                        "type",
                        c.getKey(),
                        "status",
                        c.getValue() ? "True" : "False",
                        "lastTransitionTime",
                        now))
            .toList();
    Map<String, Object> status = new LinkedHashMap<>();
    status.put("phase", "Running");
    status.put("hostIP", "127.0.0.1");
    status.put("conditions", listed);
    return status;
  }
}
