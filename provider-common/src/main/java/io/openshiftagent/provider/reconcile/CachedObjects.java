package io.openshiftagent.provider.reconcile;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.client.informers.cache.ItemStore;
import io.javaoperatorsdk.operator.processing.event.source.informer.TransformingItemStore;
import io.openshiftagent.api.external.UnknownFields;
import io.openshiftagent.api.external.assisted.AgentStatus;
import java.util.function.UnaryOperator;

/**
 * What an informer cache keeps of each object: what the providers read, not what a hub of thousands
 * of clusters holds. Dropped as an object enters the cache: its managed fields (the API server's
 * record of which manager set which field, often larger than the object), the fields of an external
 * kind's status our models do not declare (an Agent's validations, a BareMetalHost's hardware
 * details, an AgentClusterInstall's validations, Cluster API's deprecated conditions), an Agent's
 * inventory and the copy of the object {@code kubectl apply} keeps in an annotation. A cache whose
 * reader never reads the status keeps none ({@link #storeWithoutStatus}). Nothing reads what is
 * dropped, and no cached object is ever written back whole: every write is a patch of the fields we
 * own ({@code OwnedFieldsPatch}, {@link Writes}), so nothing is lost on the hub.
 */
public final class CachedObjects {
  /** Where {@code kubectl apply} keeps the whole object it applied. */
  static final String LAST_APPLIED = "kubectl.kubernetes.io/last-applied-configuration";

  private CachedObjects() {}

  /** A cache store that keeps what {@link #trim} leaves. */
  public static <R extends HasMetadata> ItemStore<R> store() {
    return new TransformingItemStore<>(CachedObjects::trim);
  }

  /**
   * A cache store that keeps what {@link #trim} leaves, then what {@code keep} leaves of that: for
   * a reader that reads a part of the status only (the rest of the status is dropped).
   */
  public static <R extends HasMetadata> ItemStore<R> store(UnaryOperator<R> keep) {
    return new TransformingItemStore<>(object -> keep.apply(trim(object)));
  }

  /**
   * A cache store for a reader that never reads the objects' status: it is dropped too (a Cluster's
   * or a Machine's conditions, a host's provisioning record), besides what {@link #trim} drops.
   */
  public static <R extends HasMetadata> ItemStore<R> storeWithoutStatus() {
    return new TransformingItemStore<>(
        object -> {
          trim(object);
          if (object instanceof CustomResource<?, ?> resource) {
            resource.setStatus(null);
          }
          return object;
        });
  }

  /**
   * A cache store of Secrets of which only the existence and the metadata are read: their data is
   * dropped too.
   */
  public static ItemStore<Secret> metadataOnlySecrets() {
    return new TransformingItemStore<>(
        secret -> {
          trim(secret);
          secret.setData(null);
          secret.setStringData(null);
          return secret;
        });
  }

  /** Drops from {@code object} what no provider reads; returns it. */
  public static <R extends HasMetadata> R trim(R object) {
    object.getMetadata().setManagedFields(null);
    if (object.getMetadata().getAnnotations() != null
        && object.getMetadata().getAnnotations().containsKey(LAST_APPLIED)) {
      object.getMetadata().getAnnotations().remove(LAST_APPLIED);
    }
    if (object instanceof CustomResource<?, ?> resource
        && resource.getStatus() instanceof UnknownFields status) {
      status.unknownFields().clear();
      if (status instanceof AgentStatus agent) {
        agent.inventory = null;
      }
    }
    return object;
  }
}
