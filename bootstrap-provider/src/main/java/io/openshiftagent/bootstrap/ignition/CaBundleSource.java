package io.openshiftagent.bootstrap.ignition;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * Where the CA bundle that signs assisted-service's certificate lives: a key of a Secret (plain
 * Kubernetes) or a ConfigMap (OpenShift's injected service CA). Configured with the Go provider's
 * environment variables and defaults, so existing deployments keep working: {@code
 * ASSISTED_CA_BUNDLE_RESOURCE} (secret or configmap, default secret), {@code
 * ASSISTED_CA_BUNDLE_NAMESPACE} (default assisted-installer), {@code ASSISTED_CA_BUNDLE_NAME}
 * (default assisted-installer-ca), {@code ASSISTED_CA_BUNDLE_KEY} (default ca.crt). Both name and
 * namespace set to empty values mean no bundle.
 *
 * @param optional whether the location is the default one, which need not exist (the JVM's trusted
 *     roots are used then; the Go provider failed instead); a location given explicitly must exist
 */
public record CaBundleSource(
    boolean configMap, String namespace, String name, String key, boolean optional) {
  static final String DEFAULT_NAMESPACE = "assisted-installer";
  static final String DEFAULT_NAME = "assisted-installer-ca";

  /** The configured source, or empty when both name and namespace are set empty. */
  public static Optional<CaBundleSource> fromEnvironment(Map<String, String> env) {
    boolean defaulted =
        !env.containsKey("ASSISTED_CA_BUNDLE_NAMESPACE")
            && !env.containsKey("ASSISTED_CA_BUNDLE_NAME");
    String namespace = env.getOrDefault("ASSISTED_CA_BUNDLE_NAMESPACE", DEFAULT_NAMESPACE);
    String name = env.getOrDefault("ASSISTED_CA_BUNDLE_NAME", DEFAULT_NAME);
    if (namespace.isBlank() && name.isBlank()) {
      return Optional.empty();
    }
    if (namespace.isBlank() || name.isBlank()) {
      throw new IllegalArgumentException(
          "set both ASSISTED_CA_BUNDLE_NAMESPACE and ASSISTED_CA_BUNDLE_NAME, or both empty");
    }
    String resource =
        env.getOrDefault("ASSISTED_CA_BUNDLE_RESOURCE", "secret").toLowerCase(Locale.ROOT);
    if (!resource.equals("secret") && !resource.equals("configmap")) {
      throw new IllegalArgumentException(
          "ASSISTED_CA_BUNDLE_RESOURCE must be secret or configmap, not '" + resource + "'");
    }
    String key = env.getOrDefault("ASSISTED_CA_BUNDLE_KEY", "ca.crt");
    return Optional.of(
        new CaBundleSource(resource.equals("configmap"), namespace, name, key, defaulted));
  }

  /**
   * Reads the bundle now, so a rotated CA is picked up without a restart.
   *
   * @return the PEM bundle, or null when the default location holds none
   */
  String read(KubernetesClient client) throws DiscoveryIgnitionSource.DownloadException {
    String pem;
    if (configMap) {
      ConfigMap map = client.configMaps().inNamespace(namespace).withName(name).get();
      pem = map == null || map.getData() == null ? null : map.getData().get(key);
    } else {
      Secret secret = client.secrets().inNamespace(namespace).withName(name).get();
      String encoded =
          secret == null || secret.getData() == null ? null : secret.getData().get(key);
      pem =
          encoded == null
              ? null
              : new String(Base64.getDecoder().decode(encoded), StandardCharsets.UTF_8);
    }
    if (pem == null || pem.isBlank()) {
      if (optional) {
        return null;
      }
      throw new DiscoveryIgnitionSource.DownloadException(
          "the assisted-service CA bundle " + this + " is missing or empty", true, null);
    }
    return pem;
  }

  @Override
  public String toString() {
    return (configMap ? "ConfigMap " : "Secret ") + namespace + "/" + name + " key " + key;
  }
}
