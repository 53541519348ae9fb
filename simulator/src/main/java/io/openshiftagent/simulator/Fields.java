package io.openshiftagent.simulator;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Reads of nested fields of untyped objects, and the small values every actor writes. Public: the
 * end-to-end tests read the world's objects the same way.
 */
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

  public static int integer(GenericKubernetesResource object, int otherwise, String... path) {
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

  /** The metav1 conditions of {@code status.conditions}; none when the object is null. */
  @SuppressWarnings("unchecked")
  public static List<Map<String, Object>> conditions(GenericKubernetesResource object) {
    Object conditions = object == null ? null : get(object, "status", "conditions");
    return conditions instanceof List<?> list ? (List<Map<String, Object>>) list : List.of();
  }

  /** The status of the condition {@code type}, or null when the object has no such condition. */
  public static String conditionStatus(GenericKubernetesResource object, String type) {
    return findCondition(object, type).map(c -> String.valueOf(c.get("status"))).orElse(null);
  }

  /** The condition {@code type}, if the object has it. */
  public static Optional<Map<String, Object>> findCondition(
      GenericKubernetesResource object, String type) {
    return conditions(object).stream().filter(c -> type.equals(c.get("type"))).findFirst();
  }

  /** A field of the condition {@code type} (its reason, message...), or null. */
  public static String conditionField(GenericKubernetesResource object, String type, String field) {
    return findCondition(object, type).map(c -> (String) c.get(field)).orElse(null);
  }

  /** Whether the object has the condition {@code type} with status True. */
  public static boolean conditionTrue(GenericKubernetesResource object, String type) {
    return conditions(object).stream()
        .anyMatch(c -> type.equals(c.get("type")) && "True".equals(c.get("status")));
  }

  /** A metav1 condition as the simulated systems report them. */
  public static Map<String, Object> condition(
      String type, boolean status, String reason, String message) {
    Map<String, Object> condition = new LinkedHashMap<>();
    condition.put("type", type);
    condition.put("status", status ? "True" : "False");
    condition.put("reason", reason);
    condition.put("message", message);
    condition.put("lastTransitionTime", Instant.now().toString().replaceAll("\\.\\d+Z$", "Z"));
    return condition;
  }

  public static String now() {
    return Instant.now().toString().replaceAll("\\.\\d+Z$", "Z");
  }
}
