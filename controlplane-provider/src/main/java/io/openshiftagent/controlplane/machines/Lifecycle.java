package io.openshiftagent.controlplane.machines;

import static io.openshiftagent.controlplane.names.ControlPlaneConditions.UPGRADE_COMPLETED;
import static io.openshiftagent.controlplane.names.ControlPlaneConditions.UPGRADE_IN_PROGRESS;
import static io.openshiftagent.controlplane.names.ControlPlaneConditions.UPGRADE_REQUESTED;

import io.openshiftagent.api.common.Conditions;
import io.openshiftagent.api.controlplane.v1alpha3.OpenshiftAssistedControlPlane;
import io.openshiftagent.api.controlplane.v1alpha3.OpenshiftAssistedControlPlaneStatus;
import io.openshiftagent.api.external.capi.Cluster;
import io.openshiftagent.controlplane.scope.ControlPlaneScope;
import io.openshiftagent.provider.contract.InstallerStates;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * Where the cluster is in its life, as the lifecycle decisions need it: installed (assisted-service
 * finished and the kubeconfig is published), upgrading, and whether the installed cluster is due a
 * look.
 *
 * @param upgrading why an upgrade is in progress, empty when none is
 * @param lookDue whether the installed cluster is due its periodic look (nothing there is watched)
 */
public record Lifecycle(boolean installed, Optional<String> upgrading, boolean lookDue) {

  /**
   * @param initialized whether the kubeconfig is published (as stored, or by this reconcile)
   * @param lookDue whether the installed cluster is due its periodic look
   */
  public static Lifecycle of(ControlPlaneScope scope, boolean initialized, boolean lookDue) {
    boolean installed = initialized && InstallerStates.INSTALLED.contains(scope.installerState());
    return new Lifecycle(
        installed, upgrading(scope.cp(), scope.cluster(), scope.storedStatus()), lookDue);
  }

  /**
   * An upgrade is in progress when one was requested and is not completed, when the cluster runs
   * another release than the spec asks, or when a ClusterClass topology version has not reached the
   * control plane yet; the requests and the release running are as the last look at the installed
   * cluster reported them ({@code stored}).
   */
  static Optional<String> upgrading(
      OpenshiftAssistedControlPlane cp,
      Cluster cluster,
      OpenshiftAssistedControlPlaneStatus stored) {
    boolean requested =
        Conditions.find(stored.conditions, UPGRADE_COMPLETED)
            .map(c -> Set.of(UPGRADE_REQUESTED, UPGRADE_IN_PROGRESS).contains(c.getReason()))
            .orElse(false);
    if (requested) {
      return Optional.of("condition UpgradeCompleted is False");
    }
    String running = stored.distributionVersion;
    if (running != null && !running.equals(cp.getSpec().distributionVersion)) {
      return Optional.of(
          "OpenShift "
              + running
              + " runs, spec.distributionVersion is "
              + cp.getSpec().distributionVersion);
    }
    String topology =
        cluster.getSpec() == null || cluster.getSpec().topology == null
            ? null
            : cluster.getSpec().topology.version;
    if (topology != null
        && cp.getSpec().version != null
        && !Objects.equals(topology, cp.getSpec().version)) {
      return Optional.of(
          "Cluster.spec.topology.version "
              + topology
              + " has not reached the control plane's spec.version "
              + cp.getSpec().version
              + " yet");
    }
    return Optional.empty();
  }
}
