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
 * Kubernetes) or a ConfigMap (OpenShift's injected service CA). Configured with the environment
 * variables the Go provider reads, so existing deployments keep working: {@code
 * ASSISTED_CA_BUNDLE_RESOURCE} (secret or configmap, default secret), {@code
 * ASSISTED_CA_BUNDLE_NAMESPACE}, {@code ASSISTED_CA_BUNDLE_NAME}, {@code ASSISTED_CA_BUNDLE_KEY}
 * (default ca.crt).
 */
public record CaBundleSource(boolean configMap, String namespace, String name, String key) {

  /**
   * The configured source, or empty when no bundle is configured (the JVM's trusted roots suffice).
   */
  public static Optional<CaBundleSource> fromEnvironment(Map<String, String> env) {
    String namespace = env.getOrDefault("ASSISTED_CA_BUNDLE_NAMESPACE", "");
    String name = env.getOrDefault("ASSISTED_CA_BUNDLE_NAME", "");
    if (namespace.isBlank() && name.isBlank()) {
      return Optional.empty();
    }
    if (namespace.isBlank() || name.isBlank()) {
      throw new IllegalArgumentException(
          "set both ASSISTED_CA_BUNDLE_NAMESPACE and ASSISTED_CA_BUNDLE_NAME, or neither");
    }
    String resource =
        env.getOrDefault("ASSISTED_CA_BUNDLE_RESOURCE", "secret").toLowerCase(Locale.ROOT);
    if (!resource.equals("secret") && !resource.equals("configmap")) {
      throw new IllegalArgumentException(
          "ASSISTED_CA_BUNDLE_RESOURCE must be secret or configmap, not '" + resource + "'");
    }
    String key = env.getOrDefault("ASSISTED_CA_BUNDLE_KEY", "ca.crt");
    return Optional.of(new CaBundleSource(resource.equals("configmap"), namespace, name, key));
  }

  /** Reads the bundle now, so a rotated CA is picked up without a restart. */
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
