package io.openshiftagent.controlplane.status;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.openshiftagent.api.common.Conditions;
import io.openshiftagent.api.controlplane.v1alpha3.OpenshiftAssistedControlPlane;
import io.openshiftagent.api.controlplane.v1alpha3.OpenshiftAssistedControlPlaneStatus;
import java.time.Clock;
import java.util.List;

/**
 * The one writer of OpenshiftAssistedControlPlane status: the status a reconcile (or a cleanup) is
 * building, starting from the stored one so that what a step does not look at (for example the
 * versions while the workload cluster is unreachable) is kept. Its {@link #toPatch} is applied
 * server-side under the controller's field manager.
 */
public final class ControlPlaneStatus {
  private final OpenshiftAssistedControlPlane cp;
  private final Clock clock;
  private final OpenshiftAssistedControlPlaneStatus status;

  public ControlPlaneStatus(OpenshiftAssistedControlPlane cp, Clock clock) {
    this.cp = cp;
    this.clock = clock;
    OpenshiftAssistedControlPlaneStatus stored =
        cp.getStatus() == null ? new OpenshiftAssistedControlPlaneStatus() : cp.getStatus();
    status = new OpenshiftAssistedControlPlaneStatus();
    status.conditions = stored.conditions;
    status.initialization = stored.initialization;
    status.selector = stored.selector;
    status.replicas = stored.replicas;
    status.readyReplicas = stored.readyReplicas;
    status.availableReplicas = stored.availableReplicas;
    status.upToDateReplicas = stored.upToDateReplicas;
    status.version = stored.version;
    status.distributionVersion = stored.distributionVersion;
    status.releaseImage = stored.releaseImage;
    status.observedGeneration = stored.observedGeneration;
    status.versions = stored.versions;
    status.lastRemediation = stored.lastRemediation;
  }

  public ControlPlaneStatus set(ConditionUpdate update) {
    return set(update.type(), update.status(), update.reason(), update.message());
  }

  public ControlPlaneStatus set(
      String type, String conditionStatus, String reason, String message) {
    status.conditions =
        Conditions.set(
            status.conditions,
            type,
            conditionStatus,
            reason,
            message,
            cp.getMetadata().getGeneration(),
            clock.instant());
    return this;
  }

  public ControlPlaneStatus setTrue(String type, String reason, String message) {
    return set(type, Conditions.TRUE, reason, message);
  }

  public ControlPlaneStatus setFalse(String type, String reason, String message) {
    return set(type, Conditions.FALSE, reason, message);
  }

  public List<Condition> conditions() {
    return status.conditions;
  }

  public boolean isTrue(String type) {
    return Conditions.isTrue(status.conditions, type);
  }

  /** Whether the condition is there and False (not merely unset). */
  public boolean isFalse(String type) {
    return Conditions.find(status.conditions, type)
        .map(c -> Conditions.FALSE.equals(c.getStatus()))
        .orElse(false);
  }

  /** Whether a condition of {@code type} has one of {@code reasons}. */
  public boolean hasReason(String type, String... reasons) {
    return Conditions.find(status.conditions, type)
        .map(c -> java.util.Arrays.asList(reasons).contains(c.getReason()))
        .orElse(false);
  }

  public OpenshiftAssistedControlPlaneStatus status() {
    return status;
  }

  public boolean initialized() {
    return status.initialization != null
        && Boolean.TRUE.equals(status.initialization.controlPlaneInitialized);
  }

  public void markInitialized() {
    status.initialization = new OpenshiftAssistedControlPlaneStatus.Initialization();
    status.initialization.controlPlaneInitialized = true;
  }

  /** A new object holding only identity and status: the intent of a server-side apply. */
  public OpenshiftAssistedControlPlane toPatch(boolean observed) {
    if (observed) {
      status.observedGeneration = cp.getMetadata().getGeneration();
    }
    OpenshiftAssistedControlPlane patch = new OpenshiftAssistedControlPlane();
    patch.setMetadata(
        new ObjectMetaBuilder()
            .withName(cp.getMetadata().getName())
            .withNamespace(cp.getMetadata().getNamespace())
            .build());
    patch.setStatus(status);
    return patch;
  }
}
