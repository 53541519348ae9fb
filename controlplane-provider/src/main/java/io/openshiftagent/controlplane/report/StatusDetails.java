package io.openshiftagent.controlplane.report;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.openshiftagent.api.common.Conditions;
import io.openshiftagent.api.controlplane.v1alpha3.OpenshiftAssistedControlPlaneStatus;
import io.openshiftagent.controlplane.names.ControlPlaneConditions;
import io.openshiftagent.controlplane.release.ReleaseImagePhase;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Which control-plane status changes are details ({@link
 * io.openshiftagent.provider.reconcile.StatusCoalescing}): the conditions' messages, such as the
 * installer's state; the ready, available and up-to-date counts and how many Machines run each
 * version; and good news on a condition Cluster API does not act on (MachinesReady,
 * EtcdClusterHealthy... becoming True). Anything else is written at once: whether the control plane
 * is available, paused or being deleted, the initialization, replicas, versions, selector, observed
 * generation and release image (what Cluster API's controllers act on), every wait and every
 * problem. Nothing in this provider reads a detail back. While the control plane waits in its
 * preflight (for its Cluster, the endpoint, the infrastructure), everything but a problem is a
 * detail.
 */
public final class StatusDetails {
  /** The conditions Cluster API acts on or mirrors as the control plane's state. */
  static final Set<String> WRITTEN_AT_ONCE =
      Set.of(
          ControlPlaneConditions.AVAILABLE,
          ControlPlaneConditions.PAUSED,
          ControlPlaneConditions.DELETING);

  private StatusDetails() {}

  /** The waits of the preflight, before the control plane makes anything that depends on them. */
  static final Set<String> PREFLIGHT_WAITS =
      Set.of(
          ControlPlaneConditions.WAITING_FOR_CLUSTER,
          ControlPlaneConditions.WAITING_FOR_CONTROL_PLANE_ENDPOINT,
          ControlPlaneConditions.WAITING_FOR_INFRASTRUCTURE);

  /** Whether {@code desired} differs from {@code stored} in details only. */
  public static boolean onlyDetailsChanged(
      OpenshiftAssistedControlPlaneStatus stored, OpenshiftAssistedControlPlaneStatus desired) {
    if (preflight(stored) && preflight(desired) && noProblem(desired)) {
      // A new control plane's first seconds: Cluster API links it, the infrastructure provider
      // sets the endpoint and provisions; nothing acts on what it waits for meanwhile, and the
      // status written once the infrastructure is there says all.
      return true;
    }
    if (stored == null) {
      return false;
    }
    OpenshiftAssistedControlPlaneStatus after = copy(desired);
    after.conditions = withoutGoodNews(desired.conditions, stored.conditions);
    return Serialization.asJson(withoutDetails(copy(stored)))
        .equals(Serialization.asJson(withoutDetails(after)));
  }

  /**
   * {@code desired} with its good news taken back: each such condition as {@code stored} has it, or
   * left out when it is new. Good news is a condition Cluster API does not act on being True.
   * Outside the preflight a move from one wait to another is not a detail: a wait may be short, and
   * what the control plane waited for is worth seeing.
   */
  private static List<Condition> withoutGoodNews(List<Condition> desired, List<Condition> stored) {
    if (desired == null) {
      return null;
    }
    List<Condition> kept = new ArrayList<>();
    for (Condition condition : desired) {
      if (!goodNews(condition)) {
        kept.add(condition);
      } else if (stored != null) {
        Conditions.find(stored, condition.getType()).ifPresent(kept::add);
      }
    }
    return kept;
  }

  /** {@code status} without the counts and the conditions' messages, times and generations. */
  private static OpenshiftAssistedControlPlaneStatus withoutDetails(
      OpenshiftAssistedControlPlaneStatus status) {
    status.readyReplicas = null;
    status.availableReplicas = null;
    status.upToDateReplicas = null;
    if (status.versions != null) {
      // Which versions run is not a detail; how many Machines run each is a count.
      status.versions.forEach(version -> version.replicas = null);
    }
    if (status.conditions != null) {
      List<Condition> kept = new ArrayList<>();
      for (Condition condition : status.conditions) {
        Condition c = Serialization.unmarshal(Serialization.asJson(condition), Condition.class);
        c.setMessage(null);
        c.setLastTransitionTime(null);
        c.setObservedGeneration(null);
        kept.add(c);
      }
      status.conditions = kept;
    }
    return status;
  }

  private static OpenshiftAssistedControlPlaneStatus copy(
      OpenshiftAssistedControlPlaneStatus status) {
    return Serialization.unmarshal(
        Serialization.asJson(status), OpenshiftAssistedControlPlaneStatus.class);
  }

  /** No status yet, or one that says the control plane waits in its preflight. */
  private static boolean preflight(OpenshiftAssistedControlPlaneStatus status) {
    if (status == null || status.conditions == null || status.conditions.isEmpty()) {
      return true;
    }
    return Conditions.find(status.conditions, ControlPlaneConditions.AVAILABLE)
        .filter(available -> PREFLIGHT_WAITS.contains(available.getReason()))
        .isPresent();
  }

  /**
   * Not paused, not being deleted, and every other condition but Available True, or the release
   * image still being asked for (one that cannot be resolved is a problem to show at once).
   */
  private static boolean noProblem(OpenshiftAssistedControlPlaneStatus status) {
    if (status == null || status.conditions == null) {
      return true;
    }
    return status.conditions.stream()
        .allMatch(
            c ->
                switch (c.getType()) {
                  case ControlPlaneConditions.AVAILABLE -> true;
                  case ControlPlaneConditions.PAUSED ->
                      ControlPlaneConditions.NOT_PAUSED.equals(c.getReason());
                  case ControlPlaneConditions.DELETING ->
                      ControlPlaneConditions.NOT_DELETING.equals(c.getReason());
                  case ControlPlaneConditions.RELEASE_IMAGE_RESOLVED ->
                      Conditions.TRUE.equals(c.getStatus())
                          || ReleaseImagePhase.RESOLVING.equals(c.getReason());
                  default -> Conditions.TRUE.equals(c.getStatus());
                });
  }

  private static boolean goodNews(Condition condition) {
    return !WRITTEN_AT_ONCE.contains(condition.getType())
        && Conditions.TRUE.equals(condition.getStatus());
  }
}
