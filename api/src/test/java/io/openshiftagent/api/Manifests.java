package io.openshiftagent.api;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Test manifests from src/test/resources, as untyped objects that tests can edit field by field.
 */
final class Manifests {
  /** Marks a field to remove in {@link #with}. */
  static final Object REMOVE = new Object();

  private Manifests() {}

  static List<GenericKubernetesResource> load(KubernetesClient client, String resource) {
    try (InputStream in = Manifests.class.getClassLoader().getResourceAsStream(resource)) {
      List<GenericKubernetesResource> result = new ArrayList<>();
      for (HasMetadata item : client.load(in).items()) {
        result.add(Serialization.clone(toGeneric(item)));
      }
      return result;
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  static GenericKubernetesResource find(List<GenericKubernetesResource> objects, String kind) {
    return objects.stream().filter(o -> kind.equals(o.getKind())).findFirst().orElseThrow();
  }

  /** A copy of {@code object} with the dotted {@code path} set to {@code value} (or removed). */
  @SuppressWarnings("unchecked")
  static GenericKubernetesResource with(
      GenericKubernetesResource object, String path, Object value) {
    GenericKubernetesResource copy = Serialization.clone(object);
    String[] parts = path.split("\\.");
    Map<String, Object> node = copy.getAdditionalProperties();
    for (int i = 0; i < parts.length - 1; i++) {
      node = (Map<String, Object>) node.computeIfAbsent(parts[i], k -> new LinkedHashMap<>());
    }
    if (value == REMOVE) {
      node.remove(parts[parts.length - 1]);
    } else {
      node.put(parts[parts.length - 1], value);
    }
    return copy;
  }

  private static GenericKubernetesResource toGeneric(HasMetadata item) {
    return item instanceof GenericKubernetesResource g
        ? g
        : Serialization.unmarshal(Serialization.asJson(item), GenericKubernetesResource.class);
  }
}
