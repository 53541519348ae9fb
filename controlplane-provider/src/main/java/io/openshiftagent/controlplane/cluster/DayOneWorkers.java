package io.openshiftagent.controlplane.cluster;

import io.openshiftagent.api.bootstrap.v1alpha2.OpenshiftAssistedConfigTemplate;
import io.openshiftagent.api.common.ContractVersionedObjectReference;
import io.openshiftagent.api.controlplane.v1alpha3.OpenshiftAssistedControlPlane;
import io.openshiftagent.api.external.capi.MachineDeployment;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * How many workers the installation waits for ({@code workerAgents} of the AgentClusterInstall):
 * the replicas of the cluster's MachineDeployments that Cluster API creates while the control plane
 * is still being installed. MachinePools are not counted: the bootstrap provider refuses their
 * configs (one config for many hosts), so waiting for them would wait forever.
 *
 * <p>Cluster API's MachineSet preflight check {@code ControlPlaneIsStable} holds a MachineSet's
 * scale-up while the control plane reports no {@code status.version}, which ours does only once the
 * cluster is installed. The check runs when the control plane has a {@code spec.version} (always
 * with ClusterClass) unless it is skipped (annotation {@code
 * machineset.cluster.x-k8s.io/skip-preflight-checks}: {@code ControlPlaneIsStable} or {@code All},
 * read from the MachineSet, which has the MachineDeployment's, or else from its bootstrap config
 * template). Waiting for workers it holds would wait forever: they join as day-2 hosts instead.
 */
final class DayOneWorkers {
  static final String SKIP_PREFLIGHT_CHECKS_ANNOTATION =
      "machineset.cluster.x-k8s.io/skip-preflight-checks";

  private DayOneWorkers() {}

  /** {@link #count}, with the annotations of the templates as cached. */
  static int count(
      OpenshiftAssistedControlPlane cp,
      List<MachineDeployment> machineDeployments,
      List<OpenshiftAssistedConfigTemplate> templates) {
    return count(cp, machineDeployments, md -> templateAnnotations(md, templates));
  }

  /**
   * The annotations of a MachineDeployment's OpenshiftAssistedConfigTemplate among {@code
   * templates} (empty: none, or not made yet).
   */
  static Map<String, String> templateAnnotations(
      MachineDeployment md, List<OpenshiftAssistedConfigTemplate> templates) {
    ContractVersionedObjectReference ref =
        md.getSpec() == null
                || md.getSpec().template == null
                || md.getSpec().template.spec == null
                || md.getSpec().template.spec.bootstrap == null
            ? null
            : md.getSpec().template.spec.bootstrap.configRef;
    if (ref == null || !OpenshiftAssistedConfigTemplate.class.getSimpleName().equals(ref.kind)) {
      return Map.of();
    }
    return templates.stream()
        .filter(t -> t.getMetadata().getName().equals(ref.name))
        .findFirst()
        .map(t -> t.getMetadata().getAnnotations())
        .orElse(Map.of());
  }

  /**
   * @param templateAnnotations the annotations of a deployment's bootstrap config template, read
   *     only for a deployment that has no skip annotation itself
   */
  static int count(
      OpenshiftAssistedControlPlane cp,
      List<MachineDeployment> machineDeployments,
      Function<MachineDeployment, Map<String, String>> templateAnnotations) {
    return machineDeployments.stream()
        .filter(md -> md.getMetadata().getDeletionTimestamp() == null)
        .filter(md -> !heldUntilControlPlaneIsStable(cp, md, templateAnnotations))
        .mapToInt(
            md -> md.getSpec() == null || md.getSpec().replicas == null ? 0 : md.getSpec().replicas)
        .sum();
  }

  /** Whether Cluster API's ControlPlaneIsStable preflight check holds the deployment's Machines. */
  static boolean heldUntilControlPlaneIsStable(
      OpenshiftAssistedControlPlane cp,
      MachineDeployment md,
      Function<MachineDeployment, Map<String, String>> templateAnnotations) {
    String version = cp.getSpec() == null ? null : cp.getSpec().version;
    if (version == null || version.isBlank()) {
      return false; // Cluster API skips the preflight checks of a control plane without a version
    }
    Map<String, String> annotations = md.getMetadata().getAnnotations();
    String skipped = annotations == null ? null : annotations.get(SKIP_PREFLIGHT_CHECKS_ANNOTATION);
    if (skipped == null || skipped.isEmpty()) {
      Map<String, String> template = templateAnnotations.apply(md); // Cluster API's fallback
      skipped = template == null ? null : template.get(SKIP_PREFLIGHT_CHECKS_ANNOTATION);
    }
    return skipped == null
        || Arrays.stream(skipped.split(","))
            .map(String::trim)
            .noneMatch(check -> check.equals("ControlPlaneIsStable") || check.equals("All"));
  }
}
