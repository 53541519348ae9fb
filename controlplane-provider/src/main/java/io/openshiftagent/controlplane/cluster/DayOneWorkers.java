package io.openshiftagent.controlplane.cluster;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.openshiftagent.api.controlplane.v1alpha3.OpenshiftAssistedControlPlane;
import io.openshiftagent.api.external.capi.MachineDeployment;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * How many workers the installation waits for ({@code workerAgents} of the AgentClusterInstall):
 * the replicas of the cluster's MachineDeployments and MachinePools that Cluster API creates while
 * the control plane is still being installed.
 *
 * <p>Cluster API's MachineSet preflight check {@code ControlPlaneIsStable} holds a MachineSet's
 * scale-up while the control plane reports no {@code status.version}, which ours does only once the
 * cluster is installed. The check runs when the control plane has a {@code spec.version} (always
 * with ClusterClass) and the MachineDeployment does not skip it (annotation {@code
 * machineset.cluster.x-k8s.io/skip-preflight-checks}: {@code ControlPlaneIsStable} or {@code All}).
 * Waiting for such workers would wait forever: they join as day-2 hosts instead.
 */
final class DayOneWorkers {
  static final String SKIP_PREFLIGHT_CHECKS_ANNOTATION =
      "machineset.cluster.x-k8s.io/skip-preflight-checks";

  private DayOneWorkers() {}

  static int count(
      OpenshiftAssistedControlPlane cp,
      List<MachineDeployment> machineDeployments,
      List<GenericKubernetesResource> machinePools) {
    int workers =
        machineDeployments.stream()
            .filter(md -> md.getMetadata().getDeletionTimestamp() == null)
            .filter(md -> !heldUntilControlPlaneIsStable(cp, md))
            .mapToInt(
                md ->
                    md.getSpec() == null || md.getSpec().replicas == null
                        ? 0
                        : md.getSpec().replicas)
            .sum();
    return workers
        + machinePools.stream()
            .filter(pool -> pool.getMetadata().getDeletionTimestamp() == null)
            .mapToInt(DayOneWorkers::replicas)
            .sum();
  }

  /** Whether Cluster API's ControlPlaneIsStable preflight check holds the deployment's Machines. */
  static boolean heldUntilControlPlaneIsStable(
      OpenshiftAssistedControlPlane cp, MachineDeployment md) {
    String version = cp.getSpec() == null ? null : cp.getSpec().version;
    if (version == null || version.isBlank()) {
      return false; // Cluster API skips the preflight checks of a control plane without a version
    }
    Map<String, String> annotations = md.getMetadata().getAnnotations();
    String skipped = annotations == null ? null : annotations.get(SKIP_PREFLIGHT_CHECKS_ANNOTATION);
    return skipped == null
        || Arrays.stream(skipped.split(","))
            .map(String::trim)
            .noneMatch(check -> check.equals("ControlPlaneIsStable") || check.equals("All"));
  }

  private static int replicas(GenericKubernetesResource pool) {
    Object spec = pool.getAdditionalProperties().get("spec");
    Object replicas = spec instanceof Map<?, ?> m ? m.get("replicas") : null;
    return replicas instanceof Number n ? n.intValue() : 0;
  }
}
