package io.openshiftagent.controlplane.release;

import static io.openshiftagent.controlplane.status.ControlPlaneConditions.RELEASE_IMAGE_RESOLVED;

import io.openshiftagent.api.controlplane.v1alpha3.OpenshiftAssistedControlPlane;
import io.openshiftagent.api.controlplane.v1alpha3.OpenshiftAssistedControlPlaneStatus;
import io.openshiftagent.controlplane.ControlPlaneScope;
import io.openshiftagent.controlplane.status.ControlPlaneStatus;
import io.openshiftagent.provider.reconcile.EventRecorder;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The release image of one reconcile, before anything that names it is written: resolved by {@link
 * ReleaseImageResolution}, reported as the {@code ReleaseImageResolved} condition and {@code
 * status.releaseImage}, with an Event when a registry was asked (the digest found, or why none).
 */
public final class ReleaseImagePhase {
  private final ReleaseImageResolution resolution;
  private final EventRecorder events;

  /**
   * Releases resolved and not written into the status yet (a change the status coalescing holds
   * back while the control plane waits for its infrastructure), by control plane UID: trusted as
   * written, so that the pull secret is not read again to find them.
   */
  private final Map<String, OpenshiftAssistedControlPlaneStatus.ReleaseImage> unwritten =
      new ConcurrentHashMap<>();

  public ReleaseImagePhase(ReleaseImageResolution resolution, EventRecorder events) {
    this.resolution = resolution;
    this.events = events;
  }

  public ReleaseImageResolution.Outcome reconcile(
      ControlPlaneScope scope, ControlPlaneStatus status) {
    String uid = scope.cp().getMetadata().getUid();
    OpenshiftAssistedControlPlaneStatus.ReleaseImage written =
        scope.cp().getStatus() == null ? null : scope.cp().getStatus().releaseImage;
    if (written != null) {
      unwritten.remove(uid);
    }
    ReleaseImageResolution.Outcome outcome =
        resolution.resolve(
            ReleaseImageResolution.Inputs.of(scope), written == null ? unwritten.get(uid) : null);
    if (outcome instanceof ReleaseImageResolution.Use use) {
      status.setTrue(RELEASE_IMAGE_RESOLVED, use.reason(), use.message());
      status.status().releaseImage = use.status();
      if (written == null) {
        unwritten.put(uid, use.status());
      }
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

  /** {@code cp} is gone. */
  public void forget(OpenshiftAssistedControlPlane cp) {
    unwritten.remove(cp.getMetadata().getUid());
  }
}
