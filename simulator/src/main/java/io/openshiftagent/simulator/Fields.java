package io.openshiftagent.simulator;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

/** Reads of nested fields of untyped objects, and the small values every actor writes. */
public final class Fields {
  private Fields() {}

  /** The value at {@code path}, or null when any step is missing. */
  public static Object get(GenericKubernetesResource object, String... path) {
    Object current = object.getAdditionalProperties();
    for (String step : path) {
      if (!(current instanceof Map<?, ?> map)) {
        return null;
      }
      current = map.get(step);
    }
    return current;
  }

  public static String string(GenericKubernetesResource object, String... path) {
    Object value = get(object, path);
    return value == null ? null : value.toString();
  }

  public static boolean isTrue(GenericKubernetesResource object, String... path) {
    return Boolean.TRUE.equals(get(object, path));
  }

  static int integer(GenericKubernetesResource object, int otherwise, String... path) {
    return get(object, path) instanceof Number n ? n.intValue() : otherwise;
  }

  @SuppressWarnings("unchecked")
  public static Map<String, String> stringMap(GenericKubernetesResource object, String... path) {
    return get(object, path) instanceof Map<?, ?> map ? (Map<String, String>) map : Map.of();
  }

  public static String label(HasMetadata object, String key) {
    Map<String, String> labels = object.getMetadata().getLabels();
    return labels == null ? null : labels.get(key);
  }

  public static String annotation(HasMetadata object, String key) {
    Map<String, String> annotations = object.getMetadata().getAnnotations();
    return annotations == null ? null : annotations.get(key);
  }

  /** A metav1 condition as the simulated systems report them. */
  static Map<String, Object> condition(String type, boolean status, String reason, String message) {
    Map<String, Object> condition = new LinkedHashMap<>();
    condition.put("type", type);
    condition.put("status", status ? "True" : "False");
    condition.put("reason", reason);
    condition.put("message", message);
    condition.put("lastTransitionTime", Instant.now().toString().replaceAll("\\.\\d+Z$", "Z"));
    return condition;
  }

  static String now() {
    return Instant.now().toString().replaceAll("\\.\\d+Z$", "Z");
  }
}
