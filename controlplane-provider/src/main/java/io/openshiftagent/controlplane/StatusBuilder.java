package io.openshiftagent.controlplane;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.openshiftagent.api.common.Conditions;
import io.openshiftagent.api.controlplane.v1alpha3.OpenshiftAssistedControlPlane;
import io.openshiftagent.api.controlplane.v1alpha3.OpenshiftAssistedControlPlaneStatus;
import java.time.Clock;
import java.util.List;

/**
 * The status a reconcile is building, starting from the stored one so that what a step does not
 * look at (for example the versions while the workload cluster is unreachable) is kept.
 */
final class StatusBuilder {
  private final OpenshiftAssistedControlPlane cp;
  private final Clock clock;
  private final OpenshiftAssistedControlPlaneStatus status;

  StatusBuilder(OpenshiftAssistedControlPlane cp, Clock clock) {
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
    status.observedGeneration = stored.observedGeneration;
  }

  StatusBuilder set(String type, String conditionStatus, String reason, String message) {
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

  StatusBuilder setTrue(String type, String reason, String message) {
    return set(type, Conditions.TRUE, reason, message);
  }

  StatusBuilder setFalse(String type, String reason, String message) {
    return set(type, Conditions.FALSE, reason, message);
  }

  List<Condition> conditions() {
    return status.conditions;
  }

  boolean isTrue(String type) {
    return Conditions.isTrue(status.conditions, type);
  }

  OpenshiftAssistedControlPlaneStatus status() {
    return status;
  }

  boolean initialized() {
    return status.initialization != null
        && Boolean.TRUE.equals(status.initialization.controlPlaneInitialized);
  }

  void markInitialized() {
    status.initialization = new OpenshiftAssistedControlPlaneStatus.Initialization();
    status.initialization.controlPlaneInitialized = true;
  }

  /** A new object holding only identity and status: the intent of a server-side apply. */
  OpenshiftAssistedControlPlane toPatch(boolean observed) {
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
