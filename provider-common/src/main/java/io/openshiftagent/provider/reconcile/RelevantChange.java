package io.openshiftagent.provider.reconcile;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.util.Objects;
import java.util.function.Function;

/**
 * Whether an update of a watched object can change what a reconcile decides. Cluster API and
 * assisted-service rewrite status often (conditions, heartbeats, progress); waking a reconcile for
 * each would cost API requests and time for nothing, so each watch names what it reads.
 */
public final class RelevantChange {
  private RelevantChange() {}

  /**
   * The spec (generation), labels, annotations, owners, finalizers or deletion changed: what every
   * reconcile may read from any object.
   */
  public static boolean ofMetadata(HasMetadata updated, HasMetadata old) {
    ObjectMeta n = updated.getMetadata();
    ObjectMeta o = old.getMetadata();
    return !Objects.equals(n.getGeneration(), o.getGeneration())
        || !Objects.equals(n.getLabels(), o.getLabels())
        || !Objects.equals(n.getAnnotations(), o.getAnnotations())
        || !Objects.equals(n.getOwnerReferences(), o.getOwnerReferences())
        || !Objects.equals(n.getFinalizers(), o.getFinalizers())
        || !Objects.equals(n.getDeletionTimestamp(), o.getDeletionTimestamp());
  }

  /**
   * The metadata changed, or the part of the object {@code read} returns (compared as JSON: the
   * models need no equals).
   */
  public static <T extends HasMetadata> boolean ofMetadataOr(
      T updated, T old, Function<T, ?> read) {
    return ofMetadata(updated, old)
        || !Serialization.asJson(read.apply(updated)).equals(Serialization.asJson(read.apply(old)));
  }
}
