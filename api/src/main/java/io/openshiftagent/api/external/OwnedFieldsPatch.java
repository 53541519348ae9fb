package io.openshiftagent.api.external;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A JSON merge patch (RFC 7386) of the few fields we own on an object someone else owns (an Agent,
 * a Metal3Machine, a Machine). It names only those fields, so whatever else the object holds,
 * modelled or not, is left exactly as it is.
 */
public final class OwnedFieldsPatch {
  private final Map<String, Object> root = new LinkedHashMap<>();

  /**
   * Sets the field at {@code path} (e.g. "spec", "role") to {@code value}; null removes the field.
   */
  @SuppressWarnings("unchecked")
  public OwnedFieldsPatch set(Object value, String... path) {
    Map<String, Object> node = root;
    for (int i = 0; i < path.length - 1; i++) {
      node =
          (Map<String, Object>)
              node.computeIfAbsent(path[i], k -> new LinkedHashMap<String, Object>());
    }
    node.put(path[path.length - 1], value);
    return this;
  }

  /**
   * Makes the patch fail with a conflict if the object changed since {@code resourceVersion}: for
   * decisions that depend on more than the patched fields (such as approving only one Agent per
   * InfraEnv).
   */
  public OwnedFieldsPatch requireResourceVersion(String resourceVersion) {
    return set(resourceVersion, "metadata", "resourceVersion");
  }

  public boolean isEmpty() {
    return root.isEmpty();
  }

  public String toJson() {
    return Serialization.asJson(root);
  }

  /** Sends the patch and returns the object as the API server stored it. */
  public <T extends HasMetadata> T applyTo(KubernetesClient client, T object) {
    return client.resource(object).patch(PatchContext.of(PatchType.JSON_MERGE), toJson());
  }

  @Override
  public String toString() {
    return toJson();
  }
}
