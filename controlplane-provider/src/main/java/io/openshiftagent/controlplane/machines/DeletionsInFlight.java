package io.openshiftagent.controlplane.machines;

import io.openshiftagent.api.external.capi.Machine;
import io.openshiftagent.provider.reconcile.Metadata;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The Machines this process asked to delete whose deletion the cache does not show yet: until their
 * update event arrives they count as being deleted, so a reconcile in between never deletes a
 * second Machine for the same scale-down. Waiting for the cache this way replaces listing Machines
 * live; after a restart the caches start full, so nothing needs to survive one.
 */
public final class DeletionsInFlight {
  private DeletionsInFlight() {}

  /**
   * Of the Machines deleted by us ({@code deleted}, UIDs), those the cache still shows without a
   * deletion timestamp; those it shows deleting, or no more, are done.
   */
  public static Set<String> unseen(Set<String> deleted, List<Machine> cached) {
    if (deleted.isEmpty()) {
      return Set.of();
    }
    return cached.stream()
        .filter(m -> !Metadata.isDeleting(m))
        .map(m -> m.getMetadata().getUid())
        .filter(deleted::contains)
        .collect(Collectors.toUnmodifiableSet());
  }

  /**
   * The names of the Machines being deleted: as the cache shows them, and those this process
   * deleted before the cache caught up.
   */
  public static List<String> deleting(List<Machine> machines, Set<String> unseen) {
    return machines.stream()
        .filter(m -> Metadata.isDeleting(m) || unseen.contains(m.getMetadata().getUid()))
        .map(Metadata::name)
        .toList();
  }
}
