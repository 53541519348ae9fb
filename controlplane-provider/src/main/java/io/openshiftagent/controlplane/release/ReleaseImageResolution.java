package io.openshiftagent.controlplane.release;

import io.openshiftagent.api.controlplane.v1alpha3.OpenshiftAssistedControlPlaneStatus;
import io.openshiftagent.registry.ReleaseImages;
import io.openshiftagent.registry.ResolutionCache;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;

/**
 * The release image of a control plane as it is written (ClusterImageSet, upgrade requests): what
 * its spec and annotations request, resolved to a digest with the cluster's pull secret, its
 * mirrors and trusted CAs, and the hub's (docs/release-images.md). Reads nothing itself: the caller
 * hands it the objects, the pull secret and mirrors only to be read when a registry must be asked.
 */
public final class ReleaseImageResolution {
  /** A new value looks the tag up again. */
  public static final String RESOLVE_ANNOTATION =
      "controlplane.cluster.x-k8s.io/resolve-release-image";

  /** {@code tag}: write the tag, ask no registry. */
  public static final String REFERENCE_ANNOTATION =
      "controlplane.cluster.x-k8s.io/release-image-reference";

  static final String PULL_SECRET_NOT_FOUND = "PullSecretNotFound";
  static final String PULL_SECRET_INVALID = "PullSecretInvalid";
  static final String IMAGE_REGISTRY_CONFIG_INVALID = "ImageRegistryConfigInvalid";
  static final String TRUSTED_CA_BUNDLE_INVALID = "TrustedCABundleInvalid";
  static final String HUB_REGISTRIES_CONF_INVALID = "HubRegistriesConfInvalid";

  /** Per registry request: connecting, and each answer. */
  static final Duration REGISTRY_TIMEOUT = Duration.ofSeconds(10);

  private final ReleaseImages images;
  private final HubRegistries hubRegistries;
  private final Clock clock;

  ReleaseImageResolution(ReleaseImages images, HubRegistries hubRegistries, Clock clock) {
    this.images = images;
    this.hubRegistries = hubRegistries;
    this.clock = clock;
  }

  /**
   * As the provider resolves: each registry request bounded by {@link #REGISTRY_TIMEOUT}, sent with
   * {@code userAgent}; failures retried after 10 s, doubling up to 5 minutes; at most 1000
   * resolutions remembered.
   */
  public static ReleaseImageResolution overRegistries(
      String userAgent, HubRegistries hubRegistries) {
    Clock clock = Clock.systemUTC();
    ResolutionCache cache =
        new ResolutionCache(clock, Duration.ofSeconds(10), Duration.ofMinutes(5), 1000);
    return new ReleaseImageResolution(
        ReleaseImages.overRegistries(REGISTRY_TIMEOUT, userAgent, cache, clock),
        hubRegistries,
        clock);
  }

  /** The outcome: an image to write, or a reason to wait. */
  public sealed interface Outcome permits Use, Wait {}

  /**
   * Write {@code image}; record {@code status}; {@code ReleaseImageResolved=True} with {@code
   * reason} and {@code message}; {@code newlyResolved}: a registry was asked (an Event).
   */
  public record Use(
      String image,
      OpenshiftAssistedControlPlaneStatus.ReleaseImage status,
      String reason,
      String message,
      boolean newlyResolved)
      implements Outcome {}

  /**
   * Write nothing that names the release; {@code ReleaseImageResolved=False}; look again after
   * {@code retryAfter} (null: when the objects change); {@code lookedUp}: a registry was asked and
   * failed just now (an Event).
   */
  public record Wait(String reason, String message, Duration retryAfter, boolean lookedUp)
      implements Outcome {}

  public Outcome resolve(ReleaseInputs in) {
    return resolve(in, null);
  }

  /**
   * @param unwritten what this process resolved for the control plane and has not written into its
   *     status yet, trusted as if written (null: nothing)
   */
  public Outcome resolve(
      ReleaseInputs in, OpenshiftAssistedControlPlaneStatus.ReleaseImage unwritten) {
    Asked asked = Asked.of(in, unwritten);
    return known(in, asked).orElseGet(() -> lookUp(in, asked));
  }

  /**
   * The outcome when no registry, pull secret or mirror configuration must be read for it: a digest
   * given, a tag kept, or the resolution recorded (or {@code unwritten}) for this request.
   */
  public Optional<Outcome> withoutLookup(
      ReleaseInputs in, OpenshiftAssistedControlPlaneStatus.ReleaseImage unwritten) {
    return known(in, Asked.of(in, unwritten));
  }

  private Optional<Outcome> known(ReleaseInputs in, Asked asked) {
    return images
        .withoutLookup(in.requested(), asked.keepTag, asked.token, asked.recorded)
        .map(this::outcome);
  }

  /** What the control plane's annotations and status ask of a resolution. */
  private record Asked(boolean keepTag, String token, ReleaseImages.Recorded recorded) {
    static Asked of(ReleaseInputs in, OpenshiftAssistedControlPlaneStatus.ReleaseImage unwritten) {
      Map<String, String> annotations =
          in.cp().getMetadata().getAnnotations() == null
              ? Map.of()
              : in.cp().getMetadata().getAnnotations();
      OpenshiftAssistedControlPlaneStatus.ReleaseImage written =
          in.cp().getStatus() == null ? null : in.cp().getStatus().releaseImage;
      return new Asked(
          "tag".equalsIgnoreCase(annotations.get(REFERENCE_ANNOTATION)),
          annotations.getOrDefault(RESOLVE_ANNOTATION, ""),
          ReleaseImageResolution.recorded(written != null ? written : unwritten));
    }
  }

  private Outcome lookUp(ReleaseInputs in, Asked asked) {
    try {
      return outcome(
          images.answer(
              LookupRequest.of(in, hubRegistries, asked.keepTag, asked.token, asked.recorded)));
    } catch (LookupRequest.Unusable e) {
      return new Wait(e.reason, e.getMessage(), null, false);
    }
  }

  private Outcome outcome(ReleaseImages.Answer answer) {
    if (answer instanceof ReleaseImages.NotReady notReady) {
      return new Wait(
          notReady.reason(),
          notReady.message(),
          notReady.retryAt() == null
              ? null
              : Duration.between(clock.instant(), notReady.retryAt()).plusMillis(100),
          notReady.lookedUp());
    }
    ReleaseImages.Ready ready = (ReleaseImages.Ready) answer;
    OpenshiftAssistedControlPlaneStatus.ReleaseImage status =
        new OpenshiftAssistedControlPlaneStatus.ReleaseImage();
    status.requested = ready.requested();
    status.image = ready.image();
    status.resolvedFrom = ready.resolvedFrom().isEmpty() ? null : ready.resolvedFrom();
    status.resolvedAt = ready.resolvedAt().toString();
    status.resolveRequest = ready.token().isEmpty() ? null : ready.token();
    return new Use(ready.image(), status, ready.how(), message(ready), ready.lookedUp());
  }

  private static String message(ReleaseImages.Ready ready) {
    return switch (ready.how()) {
      case ReleaseImages.PINNED_BY_USER ->
          ready.image()
              + ": the digest given by annotation "
              + ReleaseImage.REPOSITORY_OVERRIDE_ANNOTATION;
      case ReleaseImages.TAG_KEPT ->
          ready.image() + ": by tag, as annotation " + REFERENCE_ANNOTATION + " asks";
      default ->
          ready.requested()
              + " is "
              + ready.image()
              + " (answered by "
              + ready.resolvedFrom()
              + " at "
              + ready.resolvedAt()
              + ")";
    };
  }

  private static ReleaseImages.Recorded recorded(
      OpenshiftAssistedControlPlaneStatus.ReleaseImage recorded) {
    if (recorded == null || recorded.requested == null || recorded.image == null) {
      return null;
    }
    Instant at;
    try {
      at = recorded.resolvedAt == null ? Instant.EPOCH : Instant.parse(recorded.resolvedAt);
    } catch (java.time.format.DateTimeParseException e) {
      at = Instant.EPOCH;
    }
    return new ReleaseImages.Recorded(
        recorded.requested,
        recorded.image,
        recorded.resolvedFrom == null ? "" : recorded.resolvedFrom,
        at,
        recorded.resolveRequest == null ? "" : recorded.resolveRequest);
  }
}
