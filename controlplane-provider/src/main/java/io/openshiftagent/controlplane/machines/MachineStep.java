package io.openshiftagent.controlplane.machines;

import static io.openshiftagent.controlplane.names.ControlPlaneConditions.CANNOT_BE_REMEDIATED;
import static io.openshiftagent.controlplane.names.ControlPlaneConditions.INFRASTRUCTURE_TEMPLATE_UNAVAILABLE;
import static io.openshiftagent.controlplane.names.ControlPlaneConditions.MACHINE_CREATION_FAILED;
import static io.openshiftagent.controlplane.names.ControlPlaneConditions.REMEDIATING;
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
import java.util.function.Supplier;

/**
 * The one step of a reconcile, applied: an unhealthy Machine deleted once etcd can do without its
 * host; or Machines created (from the parts prepared for them, if any) once no departed etcd member
 * is in the way; or one deleted (to scale down, roll out, or replace a Machine whose host never
 * booted) once etcd can do without its host.
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
   * @param remediated the remediation started, whose replacement is due
   */
  record Taken(
      List<ConditionUpdate> conditions,
      List<Machine> created,
      Optional<String> deleted,
      boolean creationBlocked,
      Optional<RemediationData> remediated) {
    Taken(List<ConditionUpdate> conditions, List<Machine> created, boolean creationBlocked) {
      this(conditions, created, Optional.empty(), creationBlocked, Optional.empty());
    }
  }

  /** Deletes the unhealthy Machine when etcd allows; else says why not, on it too. */
  Taken remediate(ControlPlaneScope scope, Remediation.Remediate remediate, EtcdGuard etcd) {
    Optional<String> unsafe = etcd.whyNotRemovable(remediate.machine());
    if (unsafe.isPresent()) {
      writes.ownerRemediated(
          remediate.machine(), Remediation.ownerRemediated(CANNOT_BE_REMEDIATED, unsafe.get()));
      return new Taken(
          List.of(ConditionUpdate.isTrue(REMEDIATING, WAITING_FOR_ETCD, unsafe.get())),
          List.of(),
          false);
    }
    // Recorded first: once the Machine is deleted, nothing else says a replacement is due.
    writes.annotate(scope.cp(), RemediationData.IN_PROGRESS, remediate.data().toJson());
    String deleted = writes.remediate(scope.cp(), remediate.machine());
    return new Taken(
        List.of(), List.of(), Optional.of(deleted), false, Optional.of(remediate.data()));
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
        return new Taken(conditions, List.of(), false);
      }
      return create(scope, create, inProgress, prepared, conditions);
    }
    if (decision instanceof MachineScaling.Delete delete) {
      return delete(
          delete,
          delete.machine(),
          etcd,
          conditions,
          () -> writes.scaleDown(scope.cp(), delete.machine()));
    }
    if (decision instanceof MachineScaling.Replace replace) {
      return delete(
          replace,
          replace.machine(),
          etcd,
          conditions,
          () -> writes.replace(scope.cp(), replace.machine(), replace.why()));
    }
    return new Taken(conditions, List.of(), false);
  }

  /** Deletes the Machine ({@code delete}) when etcd can do without its host; else says why not. */
  private static Taken delete(
      MachineScaling.Decision decision,
      Machine machine,
      EtcdGuard etcd,
      List<ConditionUpdate> conditions,
      Supplier<String> delete) {
    Optional<String> unsafe = etcd.whyNotRemovable(machine);
    if (unsafe.isPresent()) {
      conditions.add(
          ConditionUpdate.isTrue(
              decision.condition().get().type(), WAITING_FOR_ETCD, unsafe.get()));
      return new Taken(conditions, List.of(), false);
    }
    return new Taken(conditions, List.of(), Optional.of(delete.get()), false, Optional.empty());
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
        return new Taken(conditions, List.of(), true);
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
      return new Taken(conditions, List.of(), true);
    }
    if (inProgress.isPresent()) {
      writes.annotate(scope.cp(), RemediationData.IN_PROGRESS, null);
    }
    return new Taken(conditions, created.machines(), false);
  }

  private static ConditionUpdate unavailable(String message) {
    return ConditionUpdate.isTrue(SCALING_UP, INFRASTRUCTURE_TEMPLATE_UNAVAILABLE, message);
  }
}
