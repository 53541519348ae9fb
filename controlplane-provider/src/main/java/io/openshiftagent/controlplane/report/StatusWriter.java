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
import java.util.Optional;

/**
 * The one writer of OpenshiftAssistedControlPlane status: what {@link ControlPlaneReport} built is
 * applied server-side under the controller's field manager when it differs from the stored status,
 * unless {@link StatusCoalescing} holds back a change of {@link StatusDetails} only.
 */
public final class StatusWriter {
  private final StatusCoalescing coalescing;

  public StatusWriter(Clock clock) {
    this.coalescing = new StatusCoalescing(clock::instant);
  }

  /**
   * Writes {@code status} when it changed.
   *
   * @return when to look again, when a change of details only is held back
   */
  public Optional<Duration> write(
      OpenshiftAssistedControlPlane cp,
      OpenshiftAssistedControlPlaneStatus status,
      Context<OpenshiftAssistedControlPlane> context) {
    if (Serialization.asJson(status).equals(Serialization.asJson(cp.getStatus()))) {
      return Optional.empty();
    }
    Optional<Duration> later =
        coalescing.deferral(cp, StatusDetails.onlyDetailsChanged(cp.getStatus(), status));
    if (later.isEmpty()) {
      apply(cp, status, context);
      coalescing.written(cp);
    }
    return later;
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

  /** {@code cp} is gone. */
  public void forget(OpenshiftAssistedControlPlane cp) {
    coalescing.forget(cp);
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
