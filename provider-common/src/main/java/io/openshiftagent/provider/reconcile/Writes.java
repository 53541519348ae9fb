package io.openshiftagent.provider.reconcile;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.ResourceOperations;
import io.openshiftagent.api.external.OwnedFieldsPatch;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.UnaryOperator;

/**
 * The one way both providers write, in three shapes:
 *
 * <ul>
 *   <li>what we create under a derived name is created, and an existing one (a restart, a cache
 *       that lags) is taken as it is: {@link #create}, {@link #createOrGet};
 *   <li>on objects others own, only the fields we own are patched, with {@link
 *       io.openshiftagent.api.external.OwnedFieldsPatch}, so unknown fields survive;
 *   <li>status is server-side applied under the controller's field manager, forced, as
 *       java-operator-sdk applies a primary's status: {@link #applyStatus}, and for the primary a
 *       reconcile was given, {@link #applyPrimaryStatus}; the primary's own fields are patched with
 *       {@link #patchPrimary}.
 * </ul>
 *
 * <p>What a reconcile writes to its primary, and the control plane's Machine statuses, go through
 * java-operator-sdk's read-your-writes cache ({@link ResourceOperations}, {@link #throughCache}):
 * the next reconcile, often one an event queued while the write was in flight, starts before the
 * watch delivers the write, and reads it from the cache all the same instead of deciding on the
 * object of before and making the same write again; and the write's own event starts no reconcile.
 */
public final class Writes {
  private Writes() {}

  /** Creates {@code object}; empty when one of that name exists already (HTTP 409). */
  public static <T extends HasMetadata> Optional<T> create(KubernetesClient client, T object) {
    try {
      return Optional.of(client.resource(object).create());
    } catch (KubernetesClientException e) {
      if (e.getCode() != 409) {
        throw e;
      }
      return Optional.empty();
    }
  }

  /**
   * Creates {@code object} (then tells {@code onCreated}), or reads the one that exists already:
   * the only read after a write, for a name our cache had not seen.
   */
  public static <T extends HasMetadata> T createOrGet(
      KubernetesClient client, T object, Consumer<T> onCreated) {
    Optional<T> created = create(client, object);
    created.ifPresent(onCreated);
    return created.orElseGet(() -> client.resource(object).get());
  }

  /** A write of one object: {@code resourceVersion} is the version it requires, or null. */
  @FunctionalInterface
  public interface Write<T> {
    T requiring(String resourceVersion);
  }

  /**
   * A cache written through: it runs the write, keeps what the API server answered until the watch
   * brings that version, and drops the write's own event (java-operator-sdk's {@link
   * ResourceOperations#resourcePatch} and {@code ManagedInformerEventSource
   * .eventFilteringUpdateAndCacheResource}).
   */
  @FunctionalInterface
  public interface Cache<T> {
    T write(T object, UnaryOperator<T> write);
  }

  /**
   * Writes {@code decidedOn} through {@code cache}, on condition that it is still the version the
   * write was decided on. java-operator-sdk 5.3.2 drops every event older than a write it caches:
   * unconditional, the write would hide a change someone made meanwhile (a spec scaled while the
   * status was written), and no reconcile would follow it. When the object did change (HTTP 409),
   * it is written again without a condition and without the cache, so neither the change's event
   * nor the write is lost. Returns the object as stored.
   */
  public static <T extends HasMetadata> T throughCache(
      Cache<T> cache, T decidedOn, Write<T> write) {
    String version = decidedOn.getMetadata().getResourceVersion();
    try {
      return cache.write(decidedOn, object -> write.requiring(version));
    } catch (KubernetesClientException e) {
      if (e.getCode() != 409 || version == null) {
        throw e;
      }
      return write.requiring(null);
    }
  }

  /**
   * Server-side applies the status of {@code withStatus} (a fresh object naming the primary and
   * holding only the status we own) as java-operator-sdk's patchStatus does: forced, under the
   * controller's field manager, through the primary's cache ({@link #throughCache}).
   */
  public static <P extends HasMetadata> P applyPrimaryStatus(
      Context<P> context, P primary, P withStatus) {
    PatchContext ssa = PatchContext.of(PatchType.SERVER_SIDE_APPLY);
    ssa.setFieldManager(context.getControllerConfiguration().fieldManager());
    ssa.setForce(true);
    return throughCache(
        primaryCache(context),
        primary,
        version -> {
          withStatus.getMetadata().setResourceVersion(version);
          return context.getClient().resource(withStatus).subresource("status").patch(ssa);
        });
  }

  /**
   * Patches the fields of {@code patch} on the primary a reconcile was given, through the primary's
   * cache ({@link #throughCache}). Returns the primary as stored.
   */
  public static <P extends HasMetadata> P patchPrimary(
      Context<P> context, P primary, OwnedFieldsPatch patch) {
    return throughCache(
        primaryCache(context),
        primary,
        version -> mergePatch(context.getClient(), primary, patch, version));
  }

  private static <P extends HasMetadata> Cache<P> primaryCache(Context<P> context) {
    return (object, write) ->
        context
            .resourceOperations()
            .resourcePatch(
                object, write, context.eventSourceRetriever().getControllerEventSource());
  }

  @SuppressWarnings("unchecked")
  private static <T extends HasMetadata> T mergePatch(
      KubernetesClient client, T object, OwnedFieldsPatch patch, String resourceVersion) {
    Map<String, Object> json = Serialization.unmarshal(patch.toJson(), Map.class);
    if (resourceVersion != null) {
      ((Map<String, Object>) json.computeIfAbsent("metadata", k -> new LinkedHashMap<>()))
          .put("resourceVersion", resourceVersion);
    }
    return client
        .resource(object)
        .patch(PatchContext.of(PatchType.JSON_MERGE), Serialization.asJson(json));
  }

  /**
   * Server-side applies {@code status} as the status of {@code target} (its apiVersion, kind,
   * namespace and name), forced, under {@code fieldManager}: fields of the status we applied before
   * and leave out now are removed, so {@code status} must be the whole status we own. Returns the
   * object as stored.
   */
  public static <T extends HasMetadata> T applyStatus(
      KubernetesClient client, T target, Object status, String fieldManager) {
    return applyStatus(client, target, status, fieldManager, null);
  }

  /** {@link #applyStatus}, on condition that the object is at {@code resourceVersion} if given. */
  public static <T extends HasMetadata> T applyStatus(
      KubernetesClient client,
      T target,
      Object status,
      String fieldManager,
      String resourceVersion) {
    Map<String, Object> metadata = new LinkedHashMap<>();
    metadata.put("name", target.getMetadata().getName());
    if (target.getMetadata().getNamespace() != null) {
      metadata.put("namespace", target.getMetadata().getNamespace());
    }
    if (resourceVersion != null) {
      metadata.put("resourceVersion", resourceVersion);
    }
    Map<String, Object> apply = new LinkedHashMap<>();
    apply.put("apiVersion", target.getApiVersion());
    apply.put("kind", target.getKind());
    apply.put("metadata", metadata);
    apply.put("status", status);
    PatchContext ssa = PatchContext.of(PatchType.SERVER_SIDE_APPLY);
    ssa.setFieldManager(fieldManager);
    ssa.setForce(true);
    // With the object at hand, fabric8 patches in one request (by name, it would read it first).
    return client.resource(target).subresource("status").patch(ssa, Serialization.asJson(apply));
  }
}
