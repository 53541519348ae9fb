package io.openshiftagent.controlplane;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.openshiftagent.api.bootstrap.v1alpha2.OpenshiftAssistedConfig;
import io.openshiftagent.api.controlplane.v1alpha3.OpenshiftAssistedControlPlane;
import io.openshiftagent.api.external.ExternalKinds;
import io.openshiftagent.api.external.assisted.AgentClusterInstall;
import io.openshiftagent.api.external.capi.Cluster;
import io.openshiftagent.api.external.capi.Machine;
import io.openshiftagent.api.external.capi.MachineDeployment;
import io.openshiftagent.api.external.hive.ClusterDeployment;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * What one reconcile observed: the control plane, its Cluster, its Machines with their configs, the
 * cluster's MachineDeployments and the assisted-service objects.
 */
record ControlPlaneScope(
    OpenshiftAssistedControlPlane cp,
    Cluster cluster,
    List<Machine> machines,
    Map<String, OpenshiftAssistedConfig> configs,
    List<MachineDeployment> machineDeployments,
    List<GenericKubernetesResource> machinePools,
    Optional<ClusterDeployment> clusterDeployment,
    Optional<AgentClusterInstall> clusterInstall) {

  /** assisted-service states in which the installation has not begun. */
  private static final Set<String> NOT_STARTED_STATES =
      Set.of("", "insufficient", "ready", "pending-for-input");

  /** States in which the cluster's API serves requests. */
  private static final Set<String> AVAILABLE_STATES =
      Set.of("finalizing", "installed", "adding-hosts");

  String namespace() {
    return cp.getMetadata().getNamespace();
  }

  String clusterName() {
    return cluster.getMetadata().getName();
  }

  /** The Cluster API control-plane labels, on every Machine, config and clone we create. */
  Map<String, String> controlPlaneLabels() {
    Map<String, String> labels = new LinkedHashMap<>();
    labels.put(ExternalKinds.CLUSTER_NAME_LABEL, clusterName());
    labels.put(ExternalKinds.CONTROL_PLANE_LABEL, "");
    labels.put(ExternalKinds.CONTROL_PLANE_NAME_LABEL, Names.controlPlaneLabelValue(cp));
    return labels;
  }

  /** The label selector of the control-plane Machines, for status.selector. */
  String selector() {
    return ExternalKinds.CLUSTER_NAME_LABEL
        + "="
        + clusterName()
        + ","
        + ExternalKinds.CONTROL_PLANE_LABEL
        + ","
        + ExternalKinds.CONTROL_PLANE_NAME_LABEL
        + "="
        + Names.controlPlaneLabelValue(cp);
  }

  String installerState() {
    return clusterInstall
        .map(
            a ->
                a.getStatus() == null || a.getStatus().debugInfo == null
                    ? null
                    : a.getStatus().debugInfo.state)
        .orElse("");
  }

  String installerStateInfo() {
    return clusterInstall
        .map(
            a ->
                a.getStatus() == null || a.getStatus().debugInfo == null
                    ? null
                    : a.getStatus().debugInfo.stateInfo)
        .orElse(null);
  }

  /**
   * Whether assisted-service has begun installing: from then on most of the AgentClusterInstall is
   * frozen.
   */
  boolean installationStarted() {
    boolean hasMetadata =
        clusterInstall
            .map(a -> a.getSpec() != null && a.getSpec().clusterMetadata != null)
            .orElse(false);
    String state = installerState();
    return hasMetadata || !NOT_STARTED_STATES.contains(state == null ? "" : state);
  }

  boolean installerReportsAvailable() {
    return AVAILABLE_STATES.contains(installerState());
  }
}
