package io.openshiftagent.registry;

import io.openshiftagent.tls.TrustedCertificates;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * Resolves a release image's tag to the digest it names. Asks the places registries.conf gives for
 * the image in order (the mirrors that serve tags, then the source), stops at the first that
 * answers, and checks that a manifest list has an image for every architecture the cluster needs.
 * The result names the <em>source</em> repository with the digest, so that the installed cluster's
 * ImageDigestMirrorSet (and the hub's) can redirect it to a mirror.
 */
public final class ReleaseDigests {
  private final RegistryLookup lookup;
  private final Clock clock;

  public ReleaseDigests(RegistryLookup lookup, Clock clock) {
    this.lookup = lookup;
    this.clock = clock;
  }

  /**
   * What to resolve.
   *
   * @param architectures the OCI architectures ({@code amd64}, {@code arm64}, ...) the cluster's
   *     hosts have; a manifest list must hold an image for each
   */
  public record Request(
      ImageReference image,
      Set<String> architectures,
      PullSecret pullSecret,
      RegistriesConf mirrors,
      TrustedCertificates trust) {}

  /** The outcome of one resolution. */
  public sealed interface Resolution permits Resolved, Unresolved {}

  /**
   * The release by digest.
   *
   * @param image the source repository with the digest
   * @param answeredBy the reference that was asked and answered (a mirror's, or the source's)
   * @param pinnedByUser the requested image already named a digest: nothing was asked
   */
  public record Resolved(
      ImageReference image, ImageReference answeredBy, Instant at, boolean pinnedByUser)
      implements Resolution {}

  /**
   * No digest: the reason (one of {@link Reasons}) of the first place asked and a message naming
   * the image and every registry asked with what each answered.
   */
  public record Unresolved(String reason, String message) implements Resolution {}

  public Resolution resolve(Request request) {
    ImageReference image = request.image();
    if (image.hasDigest()) {
      return new Resolved(image, image, clock.instant(), true);
    }
    List<RegistriesConf.Endpoint> endpoints;
    try {
      endpoints = request.mirrors().pullOrder(image);
    } catch (IllegalArgumentException e) {
      return new Unresolved(
          Reasons.REGISTRY_BLOCKED, "cannot resolve " + image + " to a digest: " + e.getMessage());
    }
    List<LookupFailure> failures = new ArrayList<>();
    for (RegistriesConf.Endpoint endpoint : endpoints) {
      try {
        Manifest manifest =
            lookup.manifest(
                endpoint.reference(),
                request.pullSecret().credentialFor(endpoint.reference()),
                request.trust(),
                endpoint.insecure());
        checkArchitectures(endpoint.reference(), manifest, request.architectures());
        return new Resolved(
            image.withDigest(manifest.digest()), endpoint.reference(), clock.instant(), false);
      } catch (LookupFailure failure) {
        failures.add(failure);
      }
    }
    return unresolved(image, failures, request.pullSecret());
  }

  private static void checkArchitectures(
      ImageReference asked, Manifest manifest, Set<String> needed) throws LookupFailure {
    if (!manifest.list()) {
      return; // a single-architecture release: its tag names the architecture
    }
    Set<String> missing = new TreeSet<>(needed);
    missing.removeAll(manifest.architectures());
    if (!missing.isEmpty()) {
      throw new LookupFailure(
          LookupFailure.Problem.NO_MATCHING_ARCHITECTURE,
          asked,
          "a manifest list for "
              + String.join(", ", new TreeSet<>(manifest.architectures()))
              + ", without "
              + String.join(", ", missing),
          null);
    }
  }

  static Unresolved unresolved(
      ImageReference image, List<LookupFailure> failures, PullSecret pullSecret) {
    LookupFailure first = failures.get(0);
    String asked =
        failures.stream()
            .map(f -> where(image, f.image()) + ": " + f.detail() + hint(f, pullSecret))
            .collect(Collectors.joining("; "));
    return new Unresolved(
        Reasons.of(first.problem()), "cannot resolve " + image + " to a digest: " + asked);
  }

  /** "registry quay.io", or for a mirror "mirror m.example:5000 (as m.example:5000/ocp:tag)". */
  private static String where(ImageReference requested, ImageReference asked) {
    return asked.name().equals(requested.name())
        ? "registry " + asked.registry()
        : "mirror " + asked.registry() + " (as " + asked + ")";
  }

  private static String hint(LookupFailure failure, PullSecret pullSecret) {
    String registry = failure.image().registry();
    if (failure.credentialsWithheld()) {
      return ""; // the detail says why nothing was sent
    }
    return switch (failure.problem()) {
      case UNAUTHORIZED, FORBIDDEN ->
          pullSecret.credentialFor(failure.image()).isPresent()
              ? ", with the pull secret's credentials for " + registry
              : ", anonymously: the pull secret has no entry for " + registry;
      case TLS -> ", add the CA that signs its certificate to the trusted CA bundles";
      default -> "";
    };
  }
}
