package io.openshiftagent.controlplane.machines;

import static io.openshiftagent.controlplane.status.ControlPlaneConditions.CANNOT_BE_REMEDIATED;
import static io.openshiftagent.controlplane.status.ControlPlaneConditions.INFRASTRUCTURE_TEMPLATE_UNAVAILABLE;
import static io.openshiftagent.controlplane.status.ControlPlaneConditions.MACHINE_CREATION_FAILED;
import static io.openshiftagent.controlplane.status.ControlPlaneConditions.REMEDIATING;
import static io.openshiftagent.controlplane.status.ControlPlaneConditions.SCALING_UP;
import static io.openshiftagent.controlplane.status.ControlPlaneConditions.WAITING_FOR_ETCD;
import static io.openshiftagent.controlplane.status.ControlPlaneConditions.WAITING_FOR_ETCD_MEMBER_REMOVAL;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.openshiftagent.api.bootstrap.v1alpha2.OpenshiftAssistedConfig;
import io.openshiftagent.api.common.ContractVersionedObjectReference;
import io.openshiftagent.api.common.StatusVersion;
import io.openshiftagent.api.controlplane.v1alpha3.OpenshiftAssistedControlPlane;
import io.openshiftagent.api.external.capi.Machine;
import io.openshiftagent.controlplane.ControlPlaneScope;
import io.openshiftagent.controlplane.status.ConditionUpdate;
import io.openshiftagent.controlplane.status.ControlPlaneStatus;
import io.openshiftagent.controlplane.status.MachineStatus;
import io.openshiftagent.provider.reconcile.EventRecorder;
import io.openshiftagent.provider.reconcile.Metadata;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The control-plane Machines phase, as KubeadmControlPlane runs it: each Machine has an
 * OpenshiftAssistedConfig and a clone of the infrastructure template. Keeps existing Machines in
 * step in place ({@link PropagatedFields}) and marks those that no longer match the spec ({@link
 * UpToDate}); lets deleted hosts go once etcd can do without them ({@link PreTerminateHook}) and
 * removes their members ({@link EtcdGuard}); then takes one step: a remediation ({@link
 * Remediation}), else a rolling update step ({@link Rollout}), else a scaling step ({@link
 * MachineScaling}), each deletion checked against etcd first; and reports the Machines ({@link
 * MachineStatus}).
 *
 * <p>Over 350 lines: it holds the order of the steps above, which is the safety argument (etcd
 * first, one step per reconcile); every step's decision lives in its own class.
 */
public final class ControlPlaneMachines {
  private static final Logger LOG = LoggerFactory.getLogger(ControlPlaneMachines.class);
  static final String MACHINE_DELETION_HELD = "MachineDeletionHeld";

  private final MachineWrites writes;
  private final EventRecorder events;
  private final WarningsOnChange warnings;
  private final Clock clock;
  private final PreparedMachines prepared = new PreparedMachines();

  public ControlPlaneMachines(MachineWrites writes, EventRecorder events, Clock clock) {
    this.writes = writes;
    this.events = events;
    this.warnings = new WarningsOnChange(events);
    this.clock = clock;
  }

  /**
   * While the Cluster's infrastructure is awaited: starts making the configs and infrastructure
   * clones of a new control plane's Machines ({@link PreparedMachines}), so that only the Machines
   * are left to make once it is provisioned (the reconcile then waits for those creations, if they
   * have not ended). Once per control plane; a template that cannot be read, or a part that cannot
   * be made, is left to the scale-up, which reports it.
   */
  public void prepare(ControlPlaneScope scope) {
    OpenshiftAssistedControlPlane cp = scope.cp();
    int desired = cp.getSpec().desiredReplicas();
    if (desired == 0
        || prepared.has(cp)
        || !scope.machines().isEmpty()
        || !scope.configs().isEmpty()
        || cp.getSpec().machineTemplate == null) {
      return;
    }
    GenericKubernetesResource template;
    try {
      template = scope.infrastructureTemplate();
    } catch (RuntimeException e) {
      return;
    }
    if (template == null) {
      return;
    }
    List<String> names = MachineFactory.newNames(cp, desired);
    prepared.made(
        cp,
        new PreparedMachines.Parts(
            names,
            writes.prepare(scope, template, names),
            UpToDate.configHash(cp.getSpec().openshiftAssistedConfigSpec),
            cp.getSpec().machineTemplate.effectiveInfrastructureRef(),
            template.getApiVersion()));
  }

  /** Forgets a deleted control plane. */
  public void forget(OpenshiftAssistedControlPlane cp) {
    prepared.forget(cp);
  }

  /**
   * @param lifecycle what the reconcile knows of the cluster's state
   */
  public void reconcile(ControlPlaneScope scope, ControlPlaneStatus status, Lifecycle lifecycle) {
    OpenshiftAssistedControlPlane cp = scope.cp();
    List<Machine> machines = new ArrayList<>(scope.machines());
    List<String> deleting = scope.deletingMachines();
    Instant now = clock.instant();
    deleteLeftovers(scope);

    Map<String, String> notUpToDate = notUpToDate(scope, now);
    for (Machine machine : machines) {
      if (!MachineSelection.isDeleting(machine)) {
        writes.syncInPlace(
            cp,
            machine,
            scope.configs().get(configName(machine)),
            Optional.ofNullable(notUpToDate.get(Metadata.name(machine))));
      }
    }

    int desired = cp.getSpec().desiredReplicas();
    EtcdGuard etcd =
        new EtcdGuard(
            scope,
            status,
            events,
            warnings,
            lifecycle.installed() && desired >= MachineScaling.MIN_HIGHLY_AVAILABLE);
    if (etcd.active()
        && (lifecycle.lookDue() || !deleting.isEmpty() || machines.size() != desired)) {
      etcd.report(); // keeps EtcdClusterHealthy current
    }
    decideHooks(scope, lifecycle, etcd);
    List<String> departed =
        etcd.active() && (lifecycle.lookDue() || machines.size() < desired)
            ? etcd.cleanUp(machines, desired)
            : List.of();

    Optional<RemediationData> inProgress = remediationInProgress(scope);
    Remediation.recovered(machines, deleting).forEach(writes::forgetOwnerRemediated);
    Remediation.Decision remediation =
        Remediation.decide(
            new Remediation.Inputs(
                machines,
                deleting,
                inProgress,
                cp.getSpec().remediation,
                lifecycle.installed(),
                lifecycle.upgrading(),
                now));
    status.set(remediation.remediating());
    MachineScaling.steady(machines.size(), desired).forEach(status::set);
    status.set(MachineStatus.machinesReady(machines));
    // RollingOut as OnDelete reports it; a rolling update step below says more.
    MachineStatus.upToDate(notUpToDate).forEach(status::set);
    if (remediation instanceof Remediation.Defer defer) {
      writes.ownerRemediated(
          defer.machine(),
          Remediation.ownerRemediated(defer.ownerReason(), defer.remediating().message()));
    }
    if (remediation instanceof Remediation.Remediate remediate) {
      if (remediate(scope, status, etcd, remediate)) {
        inProgress = Optional.of(remediate.data());
      }
    } else {
      List<Machine> created =
          step(scope, status, etcd, lifecycle, notUpToDate, deleting, departed, inProgress);
      if (!created.isEmpty() && machines.size() + created.size() == desired) {
        // The status tells of the Machines just made, not only of those the cache had: no second
        // write when their events come in.
        machines.addAll(created);
        MachineScaling.steady(machines.size(), desired).forEach(status::set);
        status.set(MachineStatus.machinesReady(machines));
      }
    }

    MachineStatus.Counts counts = MachineStatus.counts(machines, notUpToDate);
    var s = status.status();
    s.selector = scope.selector();
    s.replicas = counts.replicas();
    s.readyReplicas = counts.ready();
    s.availableReplicas = counts.available();
    s.upToDateReplicas = counts.upToDate();
    List<StatusVersion> versions = MachineStatus.versions(machines);
    if (!versions.isEmpty()) {
      s.versions = versions;
    }
    Remediation.last(inProgress, machines).ifPresent(last -> s.lastRemediation = last.toStatus());
  }

  /**
   * A rolling update step, else a scaling step; returns the Machines it made when all it planned
   * were made.
   */
  private List<Machine> step(
      ControlPlaneScope scope,
      ControlPlaneStatus status,
      EtcdGuard etcd,
      Lifecycle lifecycle,
      Map<String, String> notUpToDate,
      List<String> deleting,
      List<String> departed,
      Optional<RemediationData> inProgress) {
    OpenshiftAssistedControlPlane cp = scope.cp();
    int desired = cp.getSpec().desiredReplicas();
    MachineScaling.Decision decision =
        Rollout.decide(
                new Rollout.Inputs(
                    desired,
                    cp.getSpec().rollout,
                    scope.machines(),
                    deleting,
                    notUpToDate,
                    lifecycle.installed(),
                    lifecycle.upgrading()))
            .orElseGet(
                () ->
                    MachineScaling.decide(
                        desired,
                        scope.machines(),
                        deleting,
                        scope.installationStarted(),
                        m -> !notUpToDate.containsKey(Metadata.name(m))));
    decision.condition().ifPresent(status::set);
    if (decision instanceof MachineScaling.Create create) {
      if (!departed.isEmpty()) {
        status.set(
            ConditionUpdate.isTrue(
                create.condition().get().type(),
                WAITING_FOR_ETCD_MEMBER_REMOVAL,
                "waiting for the etcd members of departed hosts "
                    + departed
                    + " to be removed, so that the new host can join"));
        return List.of();
      }
      Optional<PreparedMachines.Parts> parts = prepared.matching(cp);
      prepared.forget(cp); // used now, or left over if a Machine cannot be made
      List<String> names = parts.map(PreparedMachines.Parts::madeNames).orElse(List.of());
      Optional<GenericKubernetesResource> template =
          parts.isPresent() && create.count() <= names.size()
              ? Optional.of(parts.get().template())
              : infrastructureTemplate(scope, status);
      if (template.isEmpty()) {
        return List.of();
      }
      List<Machine> planned = MachineFactory.plan(scope, template.get(), create.count(), names);
      // The first Machine made after a remediation is its replacement: its failure would be a
      // retry.
      inProgress.ifPresent(
          data ->
              planned
                  .get(0)
                  .getMetadata()
                  .getAnnotations()
                  .put(RemediationData.FOR, data.toJson()));
      MachineWrites.Created created =
          writes.create(scope, template.get(), planned, Set.copyOf(names));
      created
          .failures()
          .forEach(failure -> status.setTrue(SCALING_UP, MACHINE_CREATION_FAILED, failure));
      if (!created.failures().isEmpty()) {
        return List.of();
      }
      if (inProgress.isPresent()) {
        writes.annotate(cp, RemediationData.IN_PROGRESS, null);
      }
      return created.machines();
    } else if (decision instanceof MachineScaling.Delete delete) {
      Optional<String> unsafe = etcd.whyNotRemovable(delete.machine());
      if (unsafe.isPresent()) {
        status.set(
            ConditionUpdate.isTrue(
                decision.condition().get().type(), WAITING_FOR_ETCD, unsafe.get()));
        return List.of();
      }
      writes.scaleDown(cp, delete.machine());
    }
    return List.of();
  }

  /** Deletes the unhealthy Machine when etcd allows; returns whether it did. */
  private boolean remediate(
      ControlPlaneScope scope,
      ControlPlaneStatus status,
      EtcdGuard etcd,
      Remediation.Remediate remediate) {
    Optional<String> unsafe = etcd.whyNotRemovable(remediate.machine());
    if (unsafe.isPresent()) {
      status.set(ConditionUpdate.isTrue(REMEDIATING, WAITING_FOR_ETCD, unsafe.get()));
      writes.ownerRemediated(
          remediate.machine(), Remediation.ownerRemediated(CANNOT_BE_REMEDIATED, unsafe.get()));
      return false;
    }
    // Recorded first: once the Machine is deleted, nothing else says a replacement is due.
    writes.annotate(scope.cp(), RemediationData.IN_PROGRESS, remediate.data().toJson());
    writes.remediate(scope.cp(), remediate.machine());
    return true;
  }

  /**
   * Lets the host of a deleted Machine go when etcd can do without its member; holds it otherwise
   * (the Machine controller waits at our pre-terminate hook).
   */
  private void decideHooks(ControlPlaneScope scope, Lifecycle lifecycle, EtcdGuard etcd) {
    Optional<Machine> due = PreTerminateHook.due(scope.machines());
    if (due.isEmpty()) {
      return;
    }
    Machine machine = due.get();
    Optional<String> hold =
        scope.machines().size() <= 1 ? Optional.empty() : etcd.whyNotRemovable(machine);
    if (hold.isPresent()) {
      LOG.info("holding the host of deleted Machine {}: {}", Metadata.name(machine), hold.get());
      warnings.warn(
          scope.cp(),
          MACHINE_DELETION_HELD,
          "EtcdMemberReplacement",
          "Holding the host of deleted Machine " + Metadata.name(machine) + ": " + hold.get());
      return;
    }
    warnings.clear(scope.cp(), MACHINE_DELETION_HELD);
    writes.releaseHook(machine);
  }

  /** Why each Machine does not match the spec (including spec.rollout.after), by name. */
  private Map<String, String> notUpToDate(ControlPlaneScope scope, Instant now) {
    OpenshiftAssistedControlPlane cp = scope.cp();
    String desiredHash = UpToDate.configHash(cp.getSpec().openshiftAssistedConfigSpec);
    ContractVersionedObjectReference template =
        cp.getSpec().machineTemplate.effectiveInfrastructureRef();
    Map<String, String> notUpToDate = new LinkedHashMap<>();
    for (Machine machine : scope.machines()) {
      UpToDate.reasonNotUpToDate(
              scope.configs().get(configName(machine)),
              infrastructureMachine(scope, machine),
              desiredHash,
              template)
          .or(() -> Rollout.rolloutAfter(cp.getSpec().rollout, machine, now))
          .ifPresent(r -> notUpToDate.put(Metadata.name(machine), r));
    }
    return notUpToDate;
  }

  /** The remediation whose replacement is not made yet; a stale record is dropped. */
  private Optional<RemediationData> remediationInProgress(ControlPlaneScope scope) {
    Optional<RemediationData> data =
        RemediationData.from(
            scope.cp().getMetadata().getAnnotations(), RemediationData.IN_PROGRESS);
    if (data.isPresent() && Remediation.isOver(data.get(), scope.machines())) {
      writes.annotate(scope.cp(), RemediationData.IN_PROGRESS, null);
      return Optional.empty();
    }
    return data;
  }

  /**
   * The infrastructure template to clone, or empty when it cannot be read (the status says why).
   */
  private static Optional<GenericKubernetesResource> infrastructureTemplate(
      ControlPlaneScope scope, ControlPlaneStatus status) {
    GenericKubernetesResource template;
    try {
      template = scope.infrastructureTemplate();
    } catch (RuntimeException e) {
      status.setTrue(SCALING_UP, INFRASTRUCTURE_TEMPLATE_UNAVAILABLE, e.getMessage());
      return Optional.empty();
    }
    if (template == null) {
      status.setTrue(
          SCALING_UP,
          INFRASTRUCTURE_TEMPLATE_UNAVAILABLE,
          "infrastructure template "
              + scope.cp().getSpec().machineTemplate.effectiveInfrastructureRef()
              + " (spec.machineTemplate.spec.infrastructureRef) not found; create it");
    }
    return Optional.ofNullable(template);
  }

  /**
   * Deletes configs and infrastructure clones left without their Machine by a crash between the
   * creations (the Machine is created last, under the same name), or prepared for Machines that
   * will not be made from them (a restart, a change of the spec meanwhile).
   */
  private void deleteLeftovers(ControlPlaneScope scope) {
    List<String> preparedNames =
        prepared.matching(scope.cp()).map(PreparedMachines.Parts::names).orElse(List.of());
    for (OpenshiftAssistedConfig config : scope.configs().values()) {
      String name = Metadata.name(config);
      boolean hasMachine = scope.machines().stream().anyMatch(m -> Metadata.name(m).equals(name));
      if (hasMachine
          || preparedNames.contains(name)
          || Metadata.isDeleting(config)
          || scope.machineExists(name)) {
        continue;
      }
      LOG.info(
          "deleting {}/{} left over from an interrupted Machine creation", scope.namespace(), name);
      writes.deleteParts(scope.cp(), config);
    }
  }

  /** What UpToDate reads of the Machine's infrastructure machine: its name and annotations. */
  private static HasMetadata infrastructureMachine(ControlPlaneScope scope, Machine machine) {
    ContractVersionedObjectReference ref =
        machine.getSpec() == null ? null : machine.getSpec().infrastructureRef;
    if (ref == null) {
      return null;
    }
    Map<String, String> annotations = scope.infrastructureMachineAnnotations(ref);
    if (annotations == null) {
      return null;
    }
    GenericKubernetesResource metadataOnly = new GenericKubernetesResource();
    metadataOnly.setMetadata(
        new ObjectMetaBuilder().withName(ref.name).withAnnotations(annotations).build());
    return metadataOnly;
  }

  static String configName(Machine machine) {
    return machine.getSpec() == null
            || machine.getSpec().bootstrap == null
            || machine.getSpec().bootstrap.configRef == null
        ? Metadata.name(machine)
        : machine.getSpec().bootstrap.configRef.name;
  }
}
