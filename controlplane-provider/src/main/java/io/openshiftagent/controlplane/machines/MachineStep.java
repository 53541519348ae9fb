package io.openshiftagent.controlplane.machines;

import static io.openshiftagent.controlplane.names.ControlPlaneConditions.INFRASTRUCTURE_TEMPLATE_UNAVAILABLE;
import static io.openshiftagent.controlplane.names.ControlPlaneConditions.MACHINE_CREATION_FAILED;
import static io.openshiftagent.controlplane.names.ControlPlaneConditions.SCALING_UP;
import static io.openshiftagent.controlplane.names.ControlPlaneConditions.WAITING_FOR_ETCD;
import static io.openshiftagent.controlplane.names.ControlPlaneConditions.WAITING_FOR_ETCD_MEMBER_REMOVAL;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.openshiftagent.api.external.capi.Machine;
import io.openshiftagent.controlplane.names.ConditionUpdate;
import io.openshiftagent.controlplane.scope.ControlPlaneScope;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The rolling update or scaling step of one reconcile, applied: Machines created (from the parts
 * prepared for them, if any) once no departed etcd member is in the way, or one deleted once etcd
 * can do without its host.
 */
final class MachineStep {
  private final MachineWrites writes;
  private final MachineCreation creation;

  MachineStep(MachineWrites writes, MachineCreation creation) {
    this.writes = writes;
    this.creation = creation;
  }

  /**
   * What the step did.
   *
   * @param conditions the decision's condition, then what it found applying it (in that order: the
   *     later one of a type wins)
   * @param created the Machines made, when every one planned was
   * @param deleted the UID of the Machine deleted
   * @param creationBlocked Machines could not be made (refused, or no template)
   */
  record Taken(
      List<ConditionUpdate> conditions,
      List<Machine> created,
      Optional<String> deleted,
      boolean creationBlocked) {
    static final Taken NOTHING = new Taken(List.of(), List.of(), Optional.empty(), false);
  }

  /**
   * @param departed the etcd members of departed hosts still to be removed
   * @param inProgress the remediation whose replacement is not made yet
   * @param prepared the parts made for the control plane's first Machines, if they still match
   */
  Taken take(
      ControlPlaneScope scope,
      MachineScaling.Decision decision,
      EtcdGuard etcd,
      List<String> departed,
      Optional<RemediationData> inProgress,
      Optional<PreparedMachines.Parts> prepared) {
    List<ConditionUpdate> conditions = new ArrayList<>();
    decision.condition().ifPresent(conditions::add);
    if (decision instanceof MachineScaling.Create create) {
      if (!departed.isEmpty()) {
        conditions.add(
            ConditionUpdate.isTrue(
                create.condition().get().type(),
                WAITING_FOR_ETCD_MEMBER_REMOVAL,
                "waiting for the etcd members of departed hosts "
                    + departed
                    + " to be removed, so that the new host can join"));
        return new Taken(conditions, List.of(), Optional.empty(), false);
      }
      return create(scope, create, inProgress, prepared, conditions);
    }
    if (decision instanceof MachineScaling.Delete delete) {
      Optional<String> unsafe = etcd.whyNotRemovable(delete.machine());
      if (unsafe.isPresent()) {
        conditions.add(
            ConditionUpdate.isTrue(
                decision.condition().get().type(), WAITING_FOR_ETCD, unsafe.get()));
        return new Taken(conditions, List.of(), Optional.empty(), false);
      }
      String deleted = writes.scaleDown(scope.cp(), delete.machine());
      return new Taken(conditions, List.of(), Optional.of(deleted), false);
    }
    return new Taken(conditions, List.of(), Optional.empty(), false);
  }

  private Taken create(
      ControlPlaneScope scope,
      MachineScaling.Create create,
      Optional<RemediationData> inProgress,
      Optional<PreparedMachines.Parts> prepared,
      List<ConditionUpdate> conditions) {
    List<String> names = prepared.map(PreparedMachines.Parts::madeNames).orElse(List.of());
    Optional<GenericKubernetesResource> template;
    if (prepared.isPresent() && create.count() <= names.size()) {
      template = Optional.of(prepared.get().template());
    } else {
      Optional<ConditionUpdate> unavailable = Optional.empty();
      GenericKubernetesResource read = null;
      try {
        read = scope.infrastructureTemplate();
        if (read == null) {
          unavailable =
              Optional.of(
                  unavailable(
                      "infrastructure template "
                          + scope.infrastructureTemplateRef()
                          + " (spec.machineTemplate.spec.infrastructureRef) not found; create it"));
        }
      } catch (RuntimeException e) {
        unavailable = Optional.of(unavailable(e.getMessage()));
      }
      if (unavailable.isPresent()) {
        conditions.add(unavailable.get());
        return new Taken(conditions, List.of(), Optional.empty(), true);
      }
      template = Optional.of(read);
    }
    List<Machine> planned = MachineFactory.plan(scope, template.get(), create.count(), names);
    // The first Machine made after a remediation is its replacement: its failure would be a retry.
    inProgress.ifPresent(
        data ->
            planned.get(0).getMetadata().getAnnotations().put(RemediationData.FOR, data.toJson()));
    MachineCreation.Created created =
        creation.create(scope, template.get(), planned, Set.copyOf(names));
    created
        .failures()
        .forEach(
            failure ->
                conditions.add(
                    ConditionUpdate.isTrue(SCALING_UP, MACHINE_CREATION_FAILED, failure)));
    if (!created.failures().isEmpty()) {
      return new Taken(conditions, List.of(), Optional.empty(), true);
    }
    if (inProgress.isPresent()) {
      writes.annotate(scope.cp(), RemediationData.IN_PROGRESS, null);
    }
    return new Taken(conditions, created.machines(), Optional.empty(), false);
  }

  private static ConditionUpdate unavailable(String message) {
    return ConditionUpdate.isTrue(SCALING_UP, INFRASTRUCTURE_TEMPLATE_UNAVAILABLE, message);
  }
}
