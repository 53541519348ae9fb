package io.openshiftagent.controlplane.release;

import static io.openshiftagent.controlplane.names.ControlPlaneConditions.RELEASE_IMAGE_RESOLVED;

import io.openshiftagent.api.controlplane.v1alpha3.OpenshiftAssistedControlPlaneStatus.ReleaseImage;
import io.openshiftagent.controlplane.scope.ControlPlaneScope;
import io.openshiftagent.provider.reconcile.EventRecorder;
import java.util.Optional;

/**
 * The release image of one reconcile, before anything that names it is written: resolved by {@link
 * ReleaseImageResolution}, with an Event when a registry was asked (the digest found, or why none).
 * The report turns the outcome into the {@code ReleaseImageResolved} condition and {@code
 * status.releaseImage}.
 */
public final class ReleaseImagePhase {
  private final ReleaseImageResolution resolution;
  private final EventRecorder events;

  /**
   * The outcome, and the release resolved but not in the stored status yet (a change the status
   * coalescing holds back while the control plane waits for its infrastructure): trusted as written
   * at the next reconcile, so that the pull secret is not read again to find it.
   */
  public record Resolved(
      ReleaseImageResolution.Outcome outcome, Optional<ReleaseImage> unwritten) {}

  public ReleaseImagePhase(ReleaseImageResolution resolution, EventRecorder events) {
    this.resolution = resolution;
    this.events = events;
  }

  /**
   * @param unwritten what the last reconcile resolved and the stored status may not have yet
   */
  public Resolved resolve(ControlPlaneScope scope, Optional<ReleaseImage> unwritten) {
    boolean written = scope.storedStatus().releaseImage != null;
    Optional<ReleaseImage> remembered = written ? Optional.empty() : unwritten;
    ReleaseImageResolution.Outcome outcome =
        resolution.resolve(ReleaseInputs.of(scope), remembered.orElse(null));
    if (outcome instanceof ReleaseImageResolution.Use use) {
      if (!written) {
        remembered = Optional.of(use.status());
      }
      if (use.newlyResolved()) {
        events.normal(scope.cp(), RELEASE_IMAGE_RESOLVED, "ResolveReleaseImage", use.message());
      }
    } else if (outcome instanceof ReleaseImageResolution.Wait wait && wait.lookedUp()) {
      events.warning(scope.cp(), wait.reason(), "ResolveReleaseImage", wait.message());
    }
    return new Resolved(outcome, remembered);
  }
}
