package io.openshiftagent.controlplane.release;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Secret;
import io.openshiftagent.controlplane.names.Names;
import io.openshiftagent.registry.PullSecret;
import io.openshiftagent.registry.RegistriesConf;
import io.openshiftagent.registry.ReleaseArchitectures;
import io.openshiftagent.registry.ReleaseImages;
import io.openshiftagent.tls.TrustedCertificates;
import java.util.Arrays;
import java.util.Base64;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * What a registry lookup of the release needs, read from the cluster's objects and the hub's
 * configuration: the pull secret, the mirrors and trusted CAs, the architectures; or why they
 * cannot be used.
 */
final class LookupRequest {
  /** Why the objects make no lookup: a condition reason and a message a user can act on. */
  static final class Unusable extends Exception {
    final String reason;

    Unusable(String reason, String message) {
      super(message, null, false, false);
      this.reason = reason;
    }
  }

  private LookupRequest() {}

  static ReleaseImages.Request of(
      ReleaseInputs in,
      HubRegistries hubRegistries,
      boolean keepTag,
      String token,
      ReleaseImages.Recorded recorded)
      throws Unusable {
    var config = in.cp().getSpec().config;
    String pullSecretName =
        config == null || config.pullSecretRef == null ? null : config.pullSecretRef.name;
    PullSecret pullSecret = PullSecret.none();
    if (pullSecretName != null) {
      Secret secret =
          in.pullSecret()
              .get()
              .orElseThrow(
                  () ->
                      new Unusable(
                          ReleaseImageResolution.PULL_SECRET_NOT_FOUND,
                          "Secret "
                              + pullSecretName
                              + " (spec.config.pullSecretRef) not found; create it"));
      try {
        pullSecret = pullSecret(secret);
      } catch (IllegalArgumentException e) {
        throw new Unusable(
            ReleaseImageResolution.PULL_SECRET_INVALID,
            "Secret "
                + pullSecretName
                + " (spec.config.pullSecretRef) key .dockerconfigjson: "
                + e.getMessage());
      }
    }
    String registryConfigName =
        config == null || config.imageRegistryRef == null ? null : config.imageRegistryRef.name;
    Map<String, String> registryData = Map.of();
    if (registryConfigName != null) {
      Optional<ConfigMap> found = in.registryConfig().get();
      if (found.isEmpty()) {
        throw new Unusable(
            ReleaseImageResolution.IMAGE_REGISTRY_CONFIG_INVALID,
            "ConfigMap "
                + registryConfigName
                + " (spec.config.imageRegistryRef) not found; create it");
      }
      registryData = found.get().getData() == null ? Map.of() : found.get().getData();
    }
    RegistriesConf mirrors;
    TrustedCertificates mirrorCa;
    try {
      String conf = registryData.get(Names.REGISTRIES_CONF_KEY);
      mirrors = conf == null ? RegistriesConf.EMPTY : RegistriesConf.parse(conf);
      mirrorCa = TrustedCertificates.withBundles(nonBlank(registryData.get(Names.CA_BUNDLE_KEY)));
    } catch (IllegalArgumentException e) {
      throw new Unusable(
          ReleaseImageResolution.IMAGE_REGISTRY_CONFIG_INVALID,
          "ConfigMap " + registryConfigName + " (spec.config.imageRegistryRef): " + e.getMessage());
    }
    TrustedCertificates hubCa;
    try {
      hubCa = TrustedCertificates.withBundles(nonBlank(hubRegistries.caBundle().orElse(null)));
    } catch (IllegalArgumentException e) {
      throw new Unusable(
          ReleaseImageResolution.TRUSTED_CA_BUNDLE_INVALID,
          "the hub's trusted CA bundle ("
              + hubRegistries.caBundleSource()
              + "): "
              + e.getMessage());
    }
    try {
      mirrors = mirrors.withDefaults(hubRegistries.mirrors());
    } catch (IllegalArgumentException e) {
      throw new Unusable(
          ReleaseImageResolution.HUB_REGISTRIES_CONF_INVALID,
          "the hub's registries.conf (" + hubRegistries.mirrorsSource() + "): " + e.getMessage());
    }
    return new ReleaseImages.Request(
        in.requested(),
        architectures(in),
        pullSecret,
        mirrors,
        hubCa.and(mirrorCa),
        keepTag,
        token,
        recorded);
  }

  /** The OCI architectures of the configs' CPU architectures (none given: amd64). */
  private static Set<String> architectures(ReleaseInputs in) {
    Set<String> architectures = new LinkedHashSet<>();
    for (String arch : in.cpuArchitectures()) {
      ReleaseArchitectures.oci(arch == null ? "x86_64" : arch).ifPresent(architectures::add);
    }
    if (architectures.isEmpty()) {
      architectures.add("amd64");
    }
    return architectures;
  }

  private static PullSecret pullSecret(Secret secret) {
    String encoded = secret.getData() == null ? null : secret.getData().get(".dockerconfigjson");
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

  private static List<String> nonBlank(String... values) {
    return Arrays.stream(values).filter(v -> v != null && !v.isBlank()).toList();
  }
}
