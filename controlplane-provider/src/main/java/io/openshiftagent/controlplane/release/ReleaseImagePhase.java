package io.openshiftagent.controlplane.release;

import static io.openshiftagent.controlplane.names.ControlPlaneConditions.RELEASE_IMAGE_RESOLVED;

import io.openshiftagent.api.common.Conditions;
import io.openshiftagent.api.controlplane.v1alpha3.OpenshiftAssistedControlPlane;
import io.openshiftagent.api.controlplane.v1alpha3.OpenshiftAssistedControlPlaneStatus.ReleaseImage;
import io.openshiftagent.controlplane.scope.ControlPlaneScope;
import io.openshiftagent.provider.reconcile.DaemonThreads;
import io.openshiftagent.provider.reconcile.EventRecorder;
import io.openshiftagent.provider.reconcile.Futures;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.Executors;

/**
 * The release image of one reconcile, before anything that names it is written: resolved by {@link
 * ReleaseImageResolution}, with an Event when a registry was asked (the digest found, or why none).
 * The report turns the outcome into the {@code ReleaseImageResolved} condition and {@code
 * status.releaseImage}.
 *
 * <p>While the Cluster's infrastructure is awaited, a registry lookup runs in the background
 * ({@link #resolveAhead}): the reconcile that the provisioned infrastructure brings must not queue
 * behind it. That reconcile makes the Machines meanwhile; the lookup's end brings the next one.
 */
public final class ReleaseImagePhase {
  /** {@code ReleaseImageResolved} False while a lookup is under way in the background. */
  public static final String RESOLVING = "Resolving";

  private final ReleaseImageResolution resolution;
  private final EventRecorder events;

  /** Where lookups made ahead run: each mostly waits for a registry. */
  private final Executor lookups =
      Executors.newFixedThreadPool(4, DaemonThreads.named("release-lookup"));

  /**
   * The outcome; the release resolved but not in the stored status yet (a change the status
   * coalescing holds back while the control plane waits for its infrastructure), trusted as written
   * at the next reconcile so that the pull secret is not read again to find it; and the lookup
   * under way in the background, if any.
   */
  public record Resolved(
      ReleaseImageResolution.Outcome outcome,
      Optional<ReleaseImage> unwritten,
      Optional<CompletableFuture<Resolved>> lookup) {}

  public ReleaseImagePhase(ReleaseImageResolution resolution, EventRecorder events) {
    this.resolution = resolution;
    this.events = events;
  }

  /**
   * Resolves in this reconcile; a lookup made ahead is awaited no longer: while it is under way the
   * outcome says so ({@link #RESOLVING}), once done it is the outcome.
   *
   * @param unwritten what the last reconcile resolved and the stored status may not have yet
   * @param ahead the lookup started ahead, if any
   */
  public Resolved resolve(
      ControlPlaneScope scope,
      Optional<ReleaseImage> unwritten,
      Optional<CompletableFuture<Resolved>> ahead) {
    if (ahead.isPresent()) {
      return taken(scope, unwritten, ahead.get());
    }
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
    return new Resolved(outcome, remembered, Optional.empty());
  }

  /**
   * As {@link #resolve}, but a registry lookup, with the reads of the pull secret and mirrors it
   * needs, runs in the background.
   *
   * @param lookedUp brings the control plane's next reconcile, once the lookup ends
   */
  public Resolved resolveAhead(
      ControlPlaneScope scope,
      Optional<ReleaseImage> unwritten,
      Optional<CompletableFuture<Resolved>> ahead,
      Runnable lookedUp) {
    if (ahead.isPresent()) {
      return taken(scope, unwritten, ahead.get());
    }
    boolean written = scope.storedStatus().releaseImage != null;
    ReleaseInputs inputs = ReleaseInputs.of(scope);
    if (resolution.withoutLookup(inputs, written ? null : unwritten.orElse(null)).isPresent()) {
      return resolve(scope, unwritten, Optional.empty());
    }
    // The scope's reads of the pull secret and mirrors go through the client, which outlives it.
    CompletableFuture<Resolved> lookup =
        CompletableFuture.supplyAsync(() -> resolve(scope, unwritten, Optional.empty()), lookups);
    lookup.whenComplete((resolved, failure) -> lookedUp.run());
    return resolving(inputs, unwritten, lookup);
  }

  /** A lookup made ahead: its outcome once done (a failure is thrown as it was), else under way. */
  private static Resolved taken(
      ControlPlaneScope scope,
      Optional<ReleaseImage> unwritten,
      CompletableFuture<Resolved> ahead) {
    return ahead.isDone()
        ? Futures.join(ahead)
        : resolving(ReleaseInputs.of(scope), unwritten, ahead);
  }

  /**
   * A lookup under way: {@link #RESOLVING}, unless the stored status already says why the release
   * of this spec cannot be resolved. That answer stands while the registries are asked again: the
   * user sees what to fix, not a condition that flips at every retry.
   */
  private static Resolved resolving(
      ReleaseInputs inputs, Optional<ReleaseImage> unwritten, CompletableFuture<Resolved> lookup) {
    ReleaseImageResolution.Wait asking =
        storedFailure(inputs.cp())
            .orElseGet(
                () ->
                    new ReleaseImageResolution.Wait(
                        RESOLVING,
                        "asking the registries for " + inputs.requested() + "'s digest",
                        null,
                        false));
    return new Resolved(asking, unwritten, Optional.of(lookup));
  }

  /** The stored {@code ReleaseImageResolved} failure, if the status was written for this spec. */
  static Optional<ReleaseImageResolution.Wait> storedFailure(OpenshiftAssistedControlPlane cp) {
    if (!ControlPlaneScope.statusObservesSpec(cp)) {
      return Optional.empty();
    }
    return Conditions.find(cp.getStatus().conditions, RELEASE_IMAGE_RESOLVED)
        .filter(c -> Conditions.FALSE.equals(c.getStatus()))
        .filter(c -> !RESOLVING.equals(c.getReason()))
        .map(c -> new ReleaseImageResolution.Wait(c.getReason(), c.getMessage(), null, false));
  }
}
