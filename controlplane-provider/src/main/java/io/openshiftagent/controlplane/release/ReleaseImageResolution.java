package io.openshiftagent.controlplane.release;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Secret;
import io.openshiftagent.api.controlplane.v1alpha3.OpenshiftAssistedControlPlane;
import io.openshiftagent.api.controlplane.v1alpha3.OpenshiftAssistedControlPlaneStatus;
import io.openshiftagent.controlplane.cluster.MirrorRegistryManifests;
import io.openshiftagent.registry.PullSecret;
import io.openshiftagent.registry.RegistriesConf;
import io.openshiftagent.registry.ReleaseArchitectures;
import io.openshiftagent.registry.ReleaseImages;
import io.openshiftagent.registry.TrustedCertificates;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;

/**
 * The release image of a control plane as it is written (ClusterImageSet, upgrade requests): what
 * its spec and annotations request, resolved to a digest with the cluster's pull secret, its
 * mirrors and trusted CAs (docs/release-images.md). Reads nothing itself: the caller hands it the
 * objects.
 */
public final class ReleaseImageResolution {
  static final String CONDITION = "ReleaseImageResolved";

  /** A new value looks the tag up again. */
  static final String RESOLVE_ANNOTATION = "controlplane.cluster.x-k8s.io/resolve-release-image";

  /** {@code tag}: write the tag, ask no registry. */
  static final String REFERENCE_ANNOTATION =
      "controlplane.cluster.x-k8s.io/release-image-reference";

  /** The provider's environment variable naming the hub's trusted CA bundle (PEM file). */
  static final String CA_BUNDLE_ENV = "REGISTRY_CA_BUNDLE_FILE";

  static final String PULL_SECRET_INVALID = "PullSecretInvalid";
  static final String IMAGE_REGISTRY_CONFIG_INVALID = "ImageRegistryConfigInvalid";

  private final ReleaseImages images;
  private final Supplier<String> hubCaBundle;
  private final Clock clock;

  /**
   * @param hubCaBundle the hub's trusted CA bundle (PEM), read when asked; null or blank: none
   */
  ReleaseImageResolution(ReleaseImages images, Supplier<String> hubCaBundle, Clock clock) {
    this.images = images;
    this.hubCaBundle = hubCaBundle;
    this.clock = clock;
  }

  /**
   * What the cluster's objects say.
   *
   * @param requested the pull spec {@link ReleaseImage} gives
   * @param cpuArchitectures of the cluster's configs (control plane and workers)
   * @param pullSecret {@code spec.config.pullSecretRef}'s Secret, or null (none given: anonymous)
   * @param registryConfig {@code spec.config.imageRegistryRef}'s ConfigMap, or null
   */
  record Inputs(
      OpenshiftAssistedControlPlane cp,
      String requested,
      Collection<String> cpuArchitectures,
      Secret pullSecret,
      ConfigMap registryConfig) {}

  /** The outcome: an image to write, or a reason to wait. */
  sealed interface Outcome permits Use, Wait {}

  /**
   * Write {@code image}; record {@code status}; {@code ReleaseImageResolved=True} with {@code
   * reason} and {@code message}; {@code newlyResolved}: a registry was asked (an Event).
   */
  record Use(
      String image,
      OpenshiftAssistedControlPlaneStatus.ReleaseImage status,
      String reason,
      String message,
      boolean newlyResolved)
      implements Outcome {}

  /**
   * Write nothing that names the release; {@code ReleaseImageResolved=False}; look again after
   * {@code retryAfter} (null: only a change of the objects can help, and their watches tell).
   */
  record Wait(String reason, String message, Duration retryAfter) implements Outcome {}

  Outcome resolve(Inputs in) {
    PullSecret pullSecret;
    try {
      pullSecret = pullSecret(in.pullSecret());
    } catch (IllegalArgumentException e) {
      return new Wait(
          PULL_SECRET_INVALID,
          "Secret "
              + in.pullSecret().getMetadata().getName()
              + " (spec.config.pullSecretRef) key .dockerconfigjson: "
              + e.getMessage(),
          null);
    }
    Map<String, String> registryData =
        in.registryConfig() == null || in.registryConfig().getData() == null
            ? Map.of()
            : in.registryConfig().getData();
    RegistriesConf mirrors;
    TrustedCertificates trust;
    try {
      String conf = registryData.get(MirrorRegistryManifests.REGISTRIES_CONF_KEY);
      mirrors = conf == null ? RegistriesConf.EMPTY : RegistriesConf.parse(conf);
      trust =
          TrustedCertificates.withBundles(
              nonNull(hubCaBundle.get(), registryData.get(MirrorRegistryManifests.CA_BUNDLE_KEY)));
    } catch (IllegalArgumentException e) {
      return new Wait(
          IMAGE_REGISTRY_CONFIG_INVALID,
          "the mirrors or trusted CAs for the release image: " + e.getMessage(),
          null);
    }
    Set<String> architectures = new LinkedHashSet<>();
    for (String arch : in.cpuArchitectures()) {
      ReleaseArchitectures.oci(arch == null ? "x86_64" : arch).ifPresent(architectures::add);
    }
    if (architectures.isEmpty()) {
      architectures.add("amd64");
    }
    Map<String, String> annotations =
        in.cp().getMetadata().getAnnotations() == null
            ? Map.of()
            : in.cp().getMetadata().getAnnotations();
    OpenshiftAssistedControlPlaneStatus.ReleaseImage recorded =
        in.cp().getStatus() == null ? null : in.cp().getStatus().releaseImage;
    ReleaseImages.Answer answer =
        images.answer(
            new ReleaseImages.Request(
                in.requested(),
                architectures,
                pullSecret,
                mirrors,
                trust,
                "tag".equalsIgnoreCase(annotations.get(REFERENCE_ANNOTATION)),
                annotations.getOrDefault(RESOLVE_ANNOTATION, ""),
                recorded(recorded)));
    if (answer instanceof ReleaseImages.NotReady notReady) {
      return new Wait(
          notReady.reason(),
          notReady.message(),
          notReady.retryAt() == null
              ? null
              : Duration.between(clock.instant(), notReady.retryAt()).plusMillis(100));
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

  private static PullSecret pullSecret(Secret secret) {
    if (secret == null || secret.getData() == null) {
      return PullSecret.none();
    }
    String encoded = secret.getData().get(".dockerconfigjson");
    if (encoded == null) {
      throw new IllegalArgumentException("missing");
    }
    byte[] json;
    try {
      json = Base64.getDecoder().decode(encoded);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("not base64");
    }
    return PullSecret.parse(json);
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

  private static List<String> nonNull(String... values) {
    List<String> list = new ArrayList<>();
    for (String v : values) {
      if (v != null && !v.isBlank()) {
        list.add(v);
      }
    }
    return list;
  }
}
