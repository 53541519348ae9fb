package io.openshiftagent.controlplane.status;

import io.fabric8.kubernetes.api.model.ConditionBuilder;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.openshiftagent.api.common.Conditions;
import io.openshiftagent.api.controlplane.v1alpha3.OpenshiftAssistedControlPlaneStatus;
import java.util.Set;

/**
 * Which control-plane status changes are details ({@link
 * io.openshiftagent.provider.reconcile.StatusCoalescing}): every condition but {@link
 * #WRITTEN_AT_ONCE}, the reasons and messages of those (which wait it is, the installer's state),
 * the ready, available and up-to-date counts, and how many Machines run each version. Anything else
 * is written at once: the initialization, the observed generation, the replicas, versions,
 * selector, release image, remediation, and whether the control plane is available, paused or being
 * deleted. Those are what Cluster API's controllers act on (its topology and MachineSet preflight
 * checks read the versions, replicas and observed generation; the Cluster reports the control
 * plane's availability); the other conditions (ScalingUp, MachinesReady, EtcdClusterHealthy...) it
 * only mirrors or aggregates. Nothing in this provider reads a detail back.
 */
public final class StatusDetails {
  /** The conditions whose status is not a detail. */
  static final Set<String> WRITTEN_AT_ONCE =
      Set.of(
          ControlPlaneConditions.AVAILABLE,
          ControlPlaneConditions.PAUSED,
          ControlPlaneConditions.DELETING);

  private StatusDetails() {}

  /** Whether {@code desired} differs from {@code stored} in details only. */
  public static boolean onlyDetailsChanged(
      OpenshiftAssistedControlPlaneStatus stored, OpenshiftAssistedControlPlaneStatus desired) {
    if (stored == null || stored.conditions == null || stored.conditions.isEmpty()) {
      // A new control plane's first report, until its release is resolved (the status keeps the
      // answer of the registry: asked again at every reconcile until written), it is initialized
      // or paused: in its first seconds it finds its Cluster, and nothing acts on what it says.
      return desired.releaseImage == null
          && (desired.initialization == null
              || !Boolean.TRUE.equals(desired.initialization.controlPlaneInitialized))
          && !Conditions.isTrue(desired.conditions, ControlPlaneConditions.PAUSED);
    }
    return Serialization.asJson(withoutDetails(stored))
        .equals(Serialization.asJson(withoutDetails(desired)));
  }

  private static OpenshiftAssistedControlPlaneStatus withoutDetails(
      OpenshiftAssistedControlPlaneStatus status) {
    OpenshiftAssistedControlPlaneStatus copy =
        Serialization.unmarshal(
            Serialization.asJson(status), OpenshiftAssistedControlPlaneStatus.class);
    copy.readyReplicas = null;
    copy.availableReplicas = null;
    copy.upToDateReplicas = null;
    if (copy.versions != null) {
      // Which versions run is not a detail; how many Machines run each is a count.
      copy.versions.forEach(version -> version.replicas = null);
    }
    if (copy.conditions != null) {
      copy.conditions =
          copy.conditions.stream()
              .filter(condition -> WRITTEN_AT_ONCE.contains(condition.getType()))
              .map(
                  condition ->
                      new ConditionBuilder()
                          .withType(condition.getType())
                          .withStatus(condition.getStatus())
                          .build())
              .toList();
    }
    return copy;
  }
}
