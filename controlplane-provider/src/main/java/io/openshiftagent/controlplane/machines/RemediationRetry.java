package io.openshiftagent.controlplane.machines;

import static io.openshiftagent.controlplane.names.ControlPlaneConditions.CANNOT_BE_REMEDIATED;
import static io.openshiftagent.controlplane.names.ControlPlaneConditions.MAX_RETRIES_REACHED;
import static io.openshiftagent.controlplane.names.ControlPlaneConditions.REMEDIATION_DEFERRED;
import static io.openshiftagent.controlplane.names.ControlPlaneConditions.WAITING_FOR_RETRY_PERIOD;

import io.openshiftagent.api.controlplane.v1alpha3.RemediationSpec;
import io.openshiftagent.api.external.capi.Machine;
import io.openshiftagent.provider.reconcile.Metadata;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Optional;

/**
 * KubeadmControlPlane's retry bookkeeping, from the Machine's remediation-for annotation: whether a
 * Machine marked unhealthy replaces one remediated shortly before (a retry), and whether that retry
 * must wait for {@code spec.remediation.retryPeriodSeconds} or is one too many.
 *
 * @param count the retries in a row the remediation would be
 * @param now when it would be made, to the second
 * @param defer why it must not be made now, if so
 */
record RemediationRetry(int count, Instant now, Optional<Remediation.Defer> defer) {

  static RemediationRetry of(Machine machine, Remediation.Inputs in) {
    Instant now = in.now().truncatedTo(ChronoUnit.SECONDS);
    Optional<RemediationData> last =
        RemediationData.from(machine.getMetadata().getAnnotations(), RemediationData.FOR);
    RemediationSpec spec = in.spec() == null ? new RemediationSpec() : in.spec();
    if (last.isEmpty()
        || !last.get().time().plusSeconds(spec.effectiveMinHealthyPeriodSeconds()).isAfter(now)) {
      // No earlier remediation, or the replacement was healthy long enough: a new sequence.
      return new RemediationRetry(0, now, Optional.empty());
    }
    int count = last.get().retryCount();
    Instant retryAt = last.get().time().plusSeconds(spec.effectiveRetryPeriodSeconds());
    if (retryAt.isAfter(now)) {
      return deferred(
          count,
          now,
          machine,
          REMEDIATION_DEFERRED,
          WAITING_FOR_RETRY_PERIOD,
          Metadata.name(machine)
              + " replaces "
              + last.get().machine()
              + ", remediated at "
              + last.get().time()
              + ": the next try waits spec.remediation.retryPeriodSeconds ("
              + spec.effectiveRetryPeriodSeconds()
              + " s), until "
              + retryAt,
          Optional.of(Duration.between(now, retryAt)));
    }
    if (spec.maxRetry != null && count >= spec.maxRetry) {
      return deferred(
          count,
          now,
          machine,
          CANNOT_BE_REMEDIATED,
          MAX_RETRIES_REACHED,
          "the replacements of "
              + last.get().machine()
              + " failed "
              + count
              + " times in a row, spec.remediation.maxRetry ("
              + spec.maxRetry
              + "): "
              + Metadata.name(machine)
              + " is left for a person to look at",
          Optional.empty());
    }
    return new RemediationRetry(count + 1, now, Optional.empty());
  }

  /** A retry that must not be made now: why, as {@link Remediation.Defer} reports it. */
  private static RemediationRetry deferred(
      int count,
      Instant now,
      Machine machine,
      String ownerReason,
      String remediatingReason,
      String message,
      Optional<Duration> recheckAfter) {
    return new RemediationRetry(
        count,
        now,
        Optional.of(
            new Remediation.Defer(
                machine,
                ownerReason,
                Remediation.condition(remediatingReason, message),
                recheckAfter)));
  }
}
