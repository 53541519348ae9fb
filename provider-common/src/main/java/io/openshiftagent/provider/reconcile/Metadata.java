package io.openshiftagent.provider.reconcile;

import io.fabric8.kubernetes.api.model.HasMetadata;
import java.util.Map;

/** Reading an object's metadata: labels, annotations and whether it is being deleted. */
public final class Metadata {
  private Metadata() {}

  /** The annotation's value, or null when the object does not have it. */
  public static String annotation(HasMetadata object, String key) {
    Map<String, String> annotations = object.getMetadata().getAnnotations();
    return annotations == null ? null : annotations.get(key);
  }

  public static boolean hasAnnotation(HasMetadata object, String key) {
    Map<String, String> annotations = object.getMetadata().getAnnotations();
    return annotations != null && annotations.containsKey(key);
  }

  /** The label's value, or null when the object does not have it. */
  public static String label(HasMetadata object, String key) {
    Map<String, String> labels = object.getMetadata().getLabels();
    return labels == null ? null : labels.get(key);
  }

  public static boolean hasLabel(HasMetadata object, String key) {
    Map<String, String> labels = object.getMetadata().getLabels();
    return labels != null && labels.containsKey(key);
  }

  public static boolean isDeleting(HasMetadata object) {
    return object.getMetadata().getDeletionTimestamp() != null;
  }

  public static String name(HasMetadata object) {
    return object.getMetadata().getName();
  }

  /** {@code namespace/name}: the key of our cache indexes. */
  public static String key(String namespace, String name) {
    return namespace + "/" + name;
  }

  /** The same key for an object. */
  public static String key(HasMetadata object) {
    return key(object.getMetadata().getNamespace(), object.getMetadata().getName());
  }
}
