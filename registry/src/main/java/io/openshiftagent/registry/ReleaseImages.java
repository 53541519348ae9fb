package io.openshiftagent.registry;

import io.micrometer.core.instrument.Metrics;
import io.openshiftagent.tls.TrustedCertificates;
import java.time.Clock;
import java.time.Instant;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * What the control plane asks of this module: the release image to hand to assisted-service and the
 * Cluster Version Operator for a requested pull spec. In order: an unusable spec is refused; a
 * digest the user pinned, or a tag the user asked to keep, is used as it is; a digest already
 * recorded for the same request and re-resolution token is reused (it survives restarts in the
 * control plane's status); anything else goes through the {@link ResolutionCache} to the
 * registries.
 */
public final class ReleaseImages {
  private final ReleaseDigests digests;
  private final ResolutionCache cache;
  private final Clock clock;

  public ReleaseImages(ReleaseDigests digests, ResolutionCache cache, Clock clock) {
    this.digests = digests;
    this.cache = cache;
    this.clock = clock;
  }

  /**
   * Release images resolved over the network: each request bounded by {@code timeout}, sent with
   * {@code userAgent}, remembered in {@code cache}.
   */
  public static ReleaseImages overRegistries(
      java.time.Duration timeout, String userAgent, ResolutionCache cache, Clock clock) {
    return new ReleaseImages(
        new ReleaseDigests(new RegistryLookup(timeout, userAgent), clock), cache, clock);
  }

  /** The digest recorded earlier (the control plane's {@code status.releaseImage}), if any. */
  public record Recorded(
      String requested, String image, String resolvedFrom, Instant resolvedAt, String token) {}

  /**
   * One control plane's request.
   *
   * @param requested the pull spec its spec and annotations give
   * @param architectures the OCI architectures of its hosts
   * @param keepTag the user asked for the tag (annotation), so no registry is asked
   * @param token the value of the re-resolution annotation ("" without it)
   * @param recorded what its status holds, or null
   */
  public record Request(
      String requested,
      Set<String> architectures,
      PullSecret pullSecret,
      RegistriesConf mirrors,
      TrustedCertificates trust,
      boolean keepTag,
      String token,
      Recorded recorded) {}

  /** The answer: a release image to write, or why there is none yet. */
  public sealed interface Answer permits Ready, NotReady {}

  /**
   * The image to write.
   *
   * @param how the condition reason: {@link #RESOLVED}, {@link #PINNED_BY_USER} or {@link
   *     #TAG_KEPT}
   * @param lookedUp whether a registry was asked for this answer (a new resolution: worth an Event)
   */
  public record Ready(
      String requested,
      String image,
      String resolvedFrom,
      Instant resolvedAt,
      String token,
      String how,
      boolean lookedUp)
      implements Answer {}

  /**
   * No image: {@code reason} (one of {@link Reasons}, or {@link #RELEASE_IMAGE_INVALID}), a message
   * for a person, when it is worth trying again (null: only after a spec change), and whether a
   * registry was asked for this answer (a failed lookup: worth an Event).
   */
  public record NotReady(String reason, String message, Instant retryAt, boolean lookedUp)
      implements Answer {}

  public static final String RESOLVED = "Resolved";
  public static final String PINNED_BY_USER = "DigestPinnedByUser";
  public static final String TAG_KEPT = "TagKept";
  public static final String RELEASE_IMAGE_INVALID = "ReleaseImageInvalid";

  /**
   * The answer that needs no registry, if there is one: an unusable spec, a pinned digest, a kept
   * tag, or the digest recorded for the same request and token. Asks nothing and reads no
   * credential, so a caller can skip reading the pull secret and mirrors when it is present.
   */
  public Optional<Answer> withoutLookup(
      String requested, boolean keepTag, String token, Recorded recorded) {
    ImageReference image;
    try {
      image = ImageReference.parse(requested);
    } catch (IllegalArgumentException e) {
      return Optional.of(new NotReady(RELEASE_IMAGE_INVALID, e.getMessage(), null, false));
    }
    Instant now = clock.instant();
    if (image.hasDigest()) {
      return Optional.of(
          new Ready(requested, image.toString(), "", now, token, PINNED_BY_USER, false));
    }
    if (keepTag) {
      return Optional.of(new Ready(requested, image.toString(), "", now, token, TAG_KEPT, false));
    }
    if (recorded != null
        && requested.equals(recorded.requested())
        && token.equals(recorded.token())
        && recorded.image() != null
        && recordsADigest(recorded.image())) {
      return Optional.of(
          new Ready(
              recorded.requested(),
              recorded.image(),
              recorded.resolvedFrom(),
              recorded.resolvedAt(),
              recorded.token(),
              RESOLVED,
              false));
    }
    return Optional.empty();
  }

  public Answer answer(Request request) {
    Optional<Answer> known =
        withoutLookup(request.requested(), request.keepTag(), request.token(), request.recorded());
    if (known.isPresent()) {
      return known.get();
    }
    ImageReference image = ImageReference.parse(request.requested());
    ResolutionCache.Key key =
        new ResolutionCache.Key(
            image.toString(),
            new TreeSet<>(request.architectures()),
            request.pullSecret().fingerprint(),
            request.mirrors().fingerprint(),
            request.trust().fingerprint(),
            request.token());
    ResolutionCache.Outcome outcome =
        cache.resolve(
            key,
            () ->
                digests.resolve(
                    new ReleaseDigests.Request(
                        image,
                        request.architectures(),
                        request.pullSecret(),
                        request.mirrors(),
                        request.trust())));
    if (outcome.lookedUp()) {
      lookups(
          outcome.resolution() instanceof ReleaseDigests.Unresolved unresolved
              ? unresolved.reason()
              : RESOLVED);
    }
    if (outcome.resolution() instanceof ReleaseDigests.Resolved resolved) {
      return new Ready(
          request.requested(),
          resolved.image().toString(),
          resolved.answeredBy().toString(),
          resolved.at(),
          request.token(),
          RESOLVED,
          outcome.lookedUp());
    }
    ReleaseDigests.Unresolved unresolved = (ReleaseDigests.Unresolved) outcome.resolution();
    return new NotReady(
        unresolved.reason(), unresolved.message(), outcome.retryAt(), outcome.lookedUp());
  }

  /**
   * Counts a lookup that asked registries ({@code openshift_agent_registry_lookups_total}), by its
   * outcome: {@link #RESOLVED} or the reason it failed ({@link Reasons}).
   */
  private static void lookups(String outcome) {
    Metrics.counter(LOOKUPS, "outcome", outcome).increment();
  }

  /** The name of the lookup counter. */
  public static final String LOOKUPS = "openshift_agent_registry_lookups";

  private static boolean recordsADigest(String image) {
    try {
      return ImageReference.parse(image).hasDigest();
    } catch (IllegalArgumentException e) {
      return false; // a status someone else wrote: look the tag up again
    }
  }
}
