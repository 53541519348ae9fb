package io.openshiftagent.controlplane.status;

import io.fabric8.kubernetes.client.utils.Serialization;
import io.openshiftagent.api.controlplane.v1alpha3.OpenshiftAssistedControlPlaneStatus;

/**
 * Which control-plane status changes are details ({@link
 * io.openshiftagent.provider.reconcile.StatusCoalescing}): the conditions' reasons and messages,
 * such as which wait it is and the installer's state, and the ready, available and up-to-date
 * counts. Anything else (a condition's status, the initialization, the observed generation, the
 * replicas, versions, selector, release image, remediation) is written at once: those are what
 * Cluster API's controllers act on (its topology and MachineSet preflight checks read the versions,
 * replicas and observed generation; the Cluster mirrors the conditions). Nothing in this provider
 * reads a reason, a message or a count back.
 */
public final class StatusDetails {
  private StatusDetails() {}

  /** Whether {@code desired} differs from {@code stored} in details only. */
  public static boolean onlyDetailsChanged(
      OpenshiftAssistedControlPlaneStatus stored, OpenshiftAssistedControlPlaneStatus desired) {
    return stored != null
        && Serialization.asJson(withoutDetails(stored))
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
    if (copy.conditions != null) {
      copy.conditions.forEach(
          condition -> {
            condition.setReason(null);
            condition.setMessage(null);
          });
    }
    return copy;
  }
}
