package io.openshiftagent.controlplane.machines;

import io.openshiftagent.api.controlplane.v1alpha3.OpenshiftAssistedControlPlane;
import io.openshiftagent.api.external.capi.Machine;
import io.openshiftagent.provider.reconcile.Metadata;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;

/**
 * The Machines this process asked to delete whose deletion the cache does not show yet: until their
 * update event arrives they count as being deleted, so a reconcile in between never deletes a
 * second Machine for the same scale-down. Waiting for the cache this way replaces listing Machines
 * live; after a restart the caches start full, so nothing needs to survive one.
 */
public final class DeletionsInFlight {
  /** Machine UIDs by control-plane UID. */
  private final Map<String, Set<String>> byControlPlane = new ConcurrentHashMap<>();

  void deleted(OpenshiftAssistedControlPlane cp, Machine machine) {
    byControlPlane
        .computeIfAbsent(cp.getMetadata().getUid(), k -> ConcurrentHashMap.newKeySet())
        .add(machine.getMetadata().getUid());
  }

  /**
   * The UIDs of the control plane's Machines deleted by us that the cache still shows without a
   * deletion timestamp; those it shows deleting, or no more, are forgotten.
   */
  public Set<String> unseen(OpenshiftAssistedControlPlane cp, List<Machine> cached) {
    Set<String> deleted = byControlPlane.get(cp.getMetadata().getUid());
    if (deleted == null) {
      return Set.of();
    }
    Set<String> unseen =
        cached.stream()
            .filter(m -> !Metadata.isDeleting(m))
            .map(m -> m.getMetadata().getUid())
            .filter(deleted::contains)
            .collect(Collectors.toSet());
    deleted.retainAll(unseen);
    if (deleted.isEmpty()) {
      byControlPlane.remove(cp.getMetadata().getUid(), deleted);
    }
    return Set.copyOf(unseen);
  }

  /** Forgets a control plane that is gone. */
  public void forget(OpenshiftAssistedControlPlane cp) {
    byControlPlane.remove(cp.getMetadata().getUid());
  }
}
