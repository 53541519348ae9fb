package io.openshiftagent.provider.reconcile;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.util.List;
import java.util.Map;

/** Finalizers of others on objects we take over (java-operator-sdk handles our own). */
public final class Finalizers {
  private Finalizers() {}

  public static boolean has(HasMetadata object, String finalizer) {
    return object.getMetadata().getFinalizers() != null
        && object.getMetadata().getFinalizers().contains(finalizer);
  }

  /**
   * Removes {@code finalizer} with a JSON patch that first tests it is where we saw it, so a
   * finalizer list changed meanwhile (ours being added) is never overwritten; a failed test is
   * tried again at the next event.
   *
   * @return whether the finalizer is gone
   */
  public static boolean remove(KubernetesClient client, HasMetadata object, String finalizer) {
    List<String> finalizers = object.getMetadata().getFinalizers();
    int index = finalizers == null ? -1 : finalizers.indexOf(finalizer);
    if (index < 0) {
      return true;
    }
    String path = "/metadata/finalizers/" + index;
    String patch =
        Serialization.asJson(
            List.of(
                Map.of("op", "test", "path", path, "value", finalizer),
                Map.of("op", "remove", "path", path)));
    try {
      client.resource(object).patch(PatchContext.of(PatchType.JSON), patch);
      return true;
    } catch (KubernetesClientException e) {
      if (e.getCode() == 404) {
        return true;
      }
      if (e.getCode() == 422 || e.getCode() == 409) {
        return false; // the list changed: the next event brings the object as it is now
      }
      throw e;
    }
  }
}
