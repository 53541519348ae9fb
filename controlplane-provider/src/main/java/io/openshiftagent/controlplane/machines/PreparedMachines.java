package io.openshiftagent.controlplane.machines;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.openshiftagent.api.common.ContractVersionedObjectReference;
import io.openshiftagent.api.controlplane.v1alpha3.OpenshiftAssistedControlPlane;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * The configs and infrastructure clones of a new control plane's first Machines, made while its
 * Cluster's infrastructure is awaited (the contract holds the Machines until then, not their
 * parts): once it is provisioned, only the Machines are left to create, one round of requests
 * instead of two. Remembered by this process only: after a restart the parts look like the
 * leftovers of an interrupted creation, go as those do ({@link ControlPlaneMachines}), and the
 * Machines are made whole.
 */
public final class PreparedMachines {
  /**
   * The parts made for one control plane: the names planned, those whose config and clone were both
   * made (once their creations end: they run while the reconcile that started them returns), and
   * what they were made from.
   */
  public record Parts(
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

  private PreparedMachines() {}

  /**
   * The parts, while they still match the control plane's spec (its config spec and infrastructure
   * template); parts that no longer match are left, and then go as leftovers.
   */
  static Optional<Parts> matching(OpenshiftAssistedControlPlane cp, Optional<Parts> prepared) {
    ContractVersionedObjectReference ref =
        cp.getSpec().machineTemplate == null
            ? null
            : cp.getSpec().machineTemplate.effectiveInfrastructureRef();
    return prepared.filter(
        parts ->
            parts.configHash().equals(UpToDate.configHash(cp.getSpec().openshiftAssistedConfigSpec))
                && ref != null
                && Objects.equals(ref.apiGroup, parts.templateRef().apiGroup)
                && Objects.equals(ref.kind, parts.templateRef().kind)
                && Objects.equals(ref.name, parts.templateRef().name));
  }
}
