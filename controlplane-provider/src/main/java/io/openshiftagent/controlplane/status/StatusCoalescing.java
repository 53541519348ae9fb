package io.openshiftagent.controlplane.status;

import io.fabric8.kubernetes.client.utils.Serialization;
import io.openshiftagent.api.controlplane.v1alpha3.OpenshiftAssistedControlPlane;
import io.openshiftagent.api.controlplane.v1alpha3.OpenshiftAssistedControlPlaneStatus;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * When a control plane's changed status is written. A change of what only reads as detail (the
 * conditions' messages, such as the installer's state, and the ready, available and up-to-date
 * counts) within {@link #WINDOW} of the last write waits for the window's end and goes out with
 * whatever else changed by then: an installation's states and its Machines becoming Ready come in
 * bursts. Anything else (a condition's status or reason, the initialization, the observed
 * generation, the replicas, versions, selector, release image, remediation) is written at once;
 * nothing in this provider reads a message or a count back.
 */
public final class StatusCoalescing {
  /** At most one write of details per control plane in this time. */
  public static final Duration WINDOW = Duration.ofSeconds(1);

  private final Supplier<Instant> now;
  private final Map<String, Instant> lastWrite = new ConcurrentHashMap<>();

  /**
   * @param now the time now (a clock's instant)
   */
  public StatusCoalescing(Supplier<Instant> now) {
    this.now = now;
  }

  /** Empty: write {@code desired} now; otherwise how long to wait before looking again. */
  public Optional<Duration> deferral(
      OpenshiftAssistedControlPlane cp, OpenshiftAssistedControlPlaneStatus desired) {
    Instant last = lastWrite.get(cp.getMetadata().getUid());
    if (last == null || !onlyDetailsChanged(cp.getStatus(), desired)) {
      return Optional.empty();
    }
    Duration left = WINDOW.minus(Duration.between(last, now.get()));
    return left.isNegative() || left.isZero() ? Optional.empty() : Optional.of(left);
  }

  /** The status of {@code cp} was written now. */
  public void written(OpenshiftAssistedControlPlane cp) {
    lastWrite.put(cp.getMetadata().getUid(), now.get());
  }

  /** {@code cp} is gone. */
  public void forget(OpenshiftAssistedControlPlane cp) {
    lastWrite.remove(cp.getMetadata().getUid());
  }

  /** Whether {@code desired} differs from {@code stored} in details only. */
  static boolean onlyDetailsChanged(
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
      copy.conditions.forEach(condition -> condition.setMessage(null));
    }
    return copy;
  }
}
