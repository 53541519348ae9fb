package io.openshiftagent.controlplane.release;

import static io.openshiftagent.controlplane.status.ControlPlaneConditions.RELEASE_IMAGE_RESOLVED;

import io.openshiftagent.controlplane.ControlPlaneScope;
import io.openshiftagent.controlplane.status.ControlPlaneStatus;
import io.openshiftagent.provider.reconcile.EventRecorder;

/**
 * The release image of one reconcile, before anything that names it is written: resolved by {@link
 * ReleaseImageResolution}, reported as the {@code ReleaseImageResolved} condition and {@code
 * status.releaseImage}, with an Event when a registry was asked (the digest found, or why none).
 */
public final class ReleaseImagePhase {
  private final ReleaseImageResolution resolution;
  private final EventRecorder events;

  public ReleaseImagePhase(ReleaseImageResolution resolution, EventRecorder events) {
    this.resolution = resolution;
    this.events = events;
  }

  public ReleaseImageResolution.Outcome reconcile(
      ControlPlaneScope scope, ControlPlaneStatus status) {
    ReleaseImageResolution.Outcome outcome =
        resolution.resolve(ReleaseImageResolution.Inputs.of(scope));
    if (outcome instanceof ReleaseImageResolution.Use use) {
      status.setTrue(RELEASE_IMAGE_RESOLVED, use.reason(), use.message());
      status.status().releaseImage = use.status();
      if (use.newlyResolved()) {
        events.normal(scope.cp(), RELEASE_IMAGE_RESOLVED, "ResolveReleaseImage", use.message());
      }
    } else {
      ReleaseImageResolution.Wait wait = (ReleaseImageResolution.Wait) outcome;
      status.setFalse(RELEASE_IMAGE_RESOLVED, wait.reason(), wait.message());
      if (wait.lookedUp()) {
        events.warning(scope.cp(), wait.reason(), "ResolveReleaseImage", wait.message());
      }
    }
    return outcome;
  }
}
