package io.openshiftagent.controlplane.machines;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.openshiftagent.api.common.ContractVersionedObjectReference;
import io.openshiftagent.api.controlplane.v1alpha3.OpenshiftAssistedControlPlane;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The configs and infrastructure clones of a new control plane's first Machines, made while its
 * Cluster's infrastructure is awaited (the contract holds the Machines until then, not their
 * parts): once it is provisioned, only the Machines are left to create, one round of requests
 * instead of two. Kept in memory only: after a restart the parts look like the leftovers of an
 * interrupted creation, go as those do ({@link ControlPlaneMachines}), and the Machines are made
 * whole.
 */
final class PreparedMachines {
  /**
   * The parts made for one control plane: the names planned, those whose config and clone were both
   * made (once their creations end: they run while the reconcile that started them returns), and
   * what they were made from.
   */
  record Parts(
      List<String> names,
      CompletableFuture<List<String>> made,
      String configHash,
      ContractVersionedObjectReference templateRef,
      String templateApiVersion) {

    /** The names whose parts exist, once their creations end; none if they failed unexpectedly. */
    List<String> madeNames() {
      try {
        return made.join();
      } catch (RuntimeException e) {
        return List.of();
      }
    }

    /**
     * What planning the Machines needs of the template they were cloned from (its API version, kind
     * and name), without reading it again.
     */
    GenericKubernetesResource template() {
      GenericKubernetesResource template = new GenericKubernetesResource();
      template.setApiVersion(templateApiVersion);
      template.setKind(templateRef.kind);
      template.setMetadata(new ObjectMetaBuilder().withName(templateRef.name).build());
      return template;
    }
  }

  private final Map<String, Parts> byControlPlane = new ConcurrentHashMap<>();

  boolean has(OpenshiftAssistedControlPlane cp) {
    return byControlPlane.containsKey(cp.getMetadata().getUid());
  }

  void made(OpenshiftAssistedControlPlane cp, Parts parts) {
    byControlPlane.put(cp.getMetadata().getUid(), parts);
  }

  /**
   * The parts, while they still match the control plane's spec (its config spec and infrastructure
   * template); parts that no longer match are forgotten, and then go as leftovers.
   */
  Optional<Parts> matching(OpenshiftAssistedControlPlane cp) {
    Parts parts = byControlPlane.get(cp.getMetadata().getUid());
    if (parts == null) {
      return Optional.empty();
    }
    ContractVersionedObjectReference ref =
        cp.getSpec().machineTemplate == null
            ? null
            : cp.getSpec().machineTemplate.effectiveInfrastructureRef();
    boolean matches =
        parts.configHash().equals(UpToDate.configHash(cp.getSpec().openshiftAssistedConfigSpec))
            && ref != null
            && Objects.equals(ref.apiGroup, parts.templateRef().apiGroup)
            && Objects.equals(ref.kind, parts.templateRef().kind)
            && Objects.equals(ref.name, parts.templateRef().name);
    if (!matches) {
      byControlPlane.remove(cp.getMetadata().getUid());
      return Optional.empty();
    }
    return Optional.of(parts);
  }

  /** The parts now belong to Machines (or go as leftovers if a Machine could not be made). */
  void forget(OpenshiftAssistedControlPlane cp) {
    byControlPlane.remove(cp.getMetadata().getUid());
  }
}
