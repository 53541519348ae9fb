package io.openshiftagent.simulator;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceList;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.NonNamespaceOperation;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.openshiftagent.api.external.OwnedFieldsPatch;
import java.util.Map;

/**
 * The Machine Config Operator of an installed cluster, as far as upgrades need it: the {@code
 * master} and {@code worker} MachineConfigPools, each updating its Nodes in place (their kubelet
 * version) unless the pool is paused ({@code spec.paused}, as an administrator pauses a pool to
 * hold its reboots). The upgrade of the cluster completes only once the {@code master} pool is
 * updated, as the real Cluster Version Operator waits for the machine-config operator, which waits
 * for the control-plane pool; a paused worker pool does not hold it.
 */
final class MachineConfigOperator {
  static final String MASTER = "master";
  static final String WORKER = "worker";

  private MachineConfigOperator() {}

  /** The two pools every OpenShift cluster has, unpaused. */
  static void createPools(KubernetesClient workload) {
    for (String pool : new String[] {MASTER, WORKER}) {
      if (pools(workload).withName(pool).get() != null) {
        continue;
      }
      GenericKubernetesResource resource = new GenericKubernetesResource();
      resource.setApiVersion(ApiVersions.MACHINE_CONFIGURATION);
      resource.setKind("MachineConfigPool");
      resource.setMetadata(new ObjectMetaBuilder().withName(pool).build());
      resource.setAdditionalProperty(
          "spec",
          Map.of(
              "paused", false, "nodeSelector", Map.of("matchLabels", Map.of(roleLabel(pool), ""))));
      try {
        pools(workload).resource(resource).create();
      } catch (KubernetesClientException e) {
        if (e.getCode() != 409) { // made meanwhile for another installation of a shared server
          throw e;
        }
      }
    }
  }

  /** Whether the pool exists and is paused. */
  static boolean paused(KubernetesClient workload, String pool) {
    GenericKubernetesResource resource = pools(workload).withName(pool).get();
    return resource != null && Boolean.TRUE.equals(Fields.get(resource, "spec", "paused"));
  }

  /** Sets the kubelet version of every Node whose pool is not paused, where it differs. */
  static void updateNodes(KubernetesClient workload, String kubeletVersion) {
    boolean mastersPaused = paused(workload, MASTER);
    boolean workersPaused = paused(workload, WORKER);
    for (Node node : workload.nodes().list().getItems()) {
      Map<String, String> labels = node.getMetadata().getLabels();
      boolean master = labels != null && labels.containsKey(roleLabel(MASTER));
      boolean held = master ? mastersPaused : workersPaused;
      String current =
          node.getStatus() == null || node.getStatus().getNodeInfo() == null
              ? null
              : node.getStatus().getNodeInfo().getKubeletVersion();
      if (held || current == null || current.isEmpty() || current.equals(kubeletVersion)) {
        continue; // a Node whose kubelet has not reported yet is reported by its join
      }
      workload
          .nodes()
          .withName(node.getMetadata().getName())
          .subresource("status")
          .patch(
              PatchContext.of(PatchType.JSON_MERGE),
              new OwnedFieldsPatch()
                  .set(kubeletVersion, "status", "nodeInfo", "kubeletVersion")
                  .toJson());
    }
  }

  private static String roleLabel(String pool) {
    return "node-role.kubernetes.io/" + pool;
  }

  private static NonNamespaceOperation<
          GenericKubernetesResource,
          GenericKubernetesResourceList,
          Resource<GenericKubernetesResource>>
      pools(KubernetesClient workload) {
    return workload.genericKubernetesResources(
        ApiVersions.MACHINE_CONFIGURATION, "MachineConfigPool");
  }
}
