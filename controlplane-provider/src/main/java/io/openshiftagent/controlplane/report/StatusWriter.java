package io.openshiftagent.controlplane.report;

import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.openshiftagent.api.controlplane.v1alpha3.OpenshiftAssistedControlPlane;
import io.openshiftagent.api.controlplane.v1alpha3.OpenshiftAssistedControlPlaneStatus;
import io.openshiftagent.provider.reconcile.StatusCoalescing;
import io.openshiftagent.provider.reconcile.Writes;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * The one writer of OpenshiftAssistedControlPlane status: what {@link ControlPlaneReport} built is
 * applied server-side under the controller's field manager when it differs from the stored status,
 * unless {@link StatusCoalescing} holds back a change of {@link StatusDetails} only.
 */
public final class StatusWriter {
  private final Clock clock;

  public StatusWriter(Clock clock) {
    this.clock = clock;
  }

  /**
   * What a write did: when to look again, when a change of details only is held back; the write,
   * when it wrote.
   */
  public record Written(Optional<Duration> later, Optional<StatusCoalescing.LastWrite> write) {}

  /**
   * Writes {@code status} when it changed.
   *
   * @param lastWrite this process's last write of the control plane's status
   */
  public Written write(
      OpenshiftAssistedControlPlane cp,
      OpenshiftAssistedControlPlaneStatus status,
      Context<OpenshiftAssistedControlPlane> context,
      Optional<StatusCoalescing.LastWrite> lastWrite) {
    if (Serialization.asJson(status).equals(Serialization.asJson(cp.getStatus()))) {
      return new Written(Optional.empty(), Optional.empty());
    }
    Instant now = clock.instant();
    boolean detailsOnly = StatusDetails.onlyDetailsChanged(cp.getStatus(), status);
    Optional<Duration> later =
        StatusCoalescing.deferral(cp, detailsOnly, lastWrite, now, StatusCoalescing.FIRST_WINDOW);
    if (later.isPresent()) {
      return new Written(later, Optional.empty());
    }
    apply(cp, status, context);
    return new Written(
        Optional.empty(),
        Optional.of(StatusCoalescing.LastWrite.after(lastWrite, now, detailsOnly)));
  }

  /**
   * Writes {@code status} at once when it changed: a deletion's stages are written as they come.
   */
  public void writeNow(
      OpenshiftAssistedControlPlane cp,
      OpenshiftAssistedControlPlaneStatus status,
      Context<OpenshiftAssistedControlPlane> context) {
    if (!Serialization.asJson(status).equals(Serialization.asJson(cp.getStatus()))) {
      apply(cp, status, context);
    }
  }

  /** Server-side apply of a new object holding only identity and status, as its intent. */
  private static void apply(
      OpenshiftAssistedControlPlane cp,
      OpenshiftAssistedControlPlaneStatus status,
      Context<OpenshiftAssistedControlPlane> context) {
    OpenshiftAssistedControlPlane patch = new OpenshiftAssistedControlPlane();
    patch.setMetadata(
        new ObjectMetaBuilder()
            .withName(cp.getMetadata().getName())
            .withNamespace(cp.getMetadata().getNamespace())
            .build());
    patch.setStatus(status);
    Writes.applyPrimaryStatus(context, cp, patch);
  }
}
