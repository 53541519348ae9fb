package io.openshiftagent.controlplane.machines;

import static io.openshiftagent.controlplane.names.ControlPlaneConditions.CANNOT_BE_REMEDIATED;
import static io.openshiftagent.controlplane.names.ControlPlaneConditions.REMEDIATING;
import static io.openshiftagent.controlplane.names.ControlPlaneConditions.WAITING_FOR_ETCD;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.openshiftagent.api.bootstrap.v1alpha2.OpenshiftAssistedConfig;
import io.openshiftagent.api.common.ContractVersionedObjectReference;
import io.openshiftagent.api.controlplane.v1alpha3.OpenshiftAssistedControlPlane;
import io.openshiftagent.api.external.capi.Machine;
import io.openshiftagent.controlplane.names.ConditionUpdate;
import io.openshiftagent.controlplane.scope.ControlPlaneScope;
import io.openshiftagent.controlplane.scope.InfrastructureTemplates;
import io.openshiftagent.provider.reconcile.EventRecorder;
import io.openshiftagent.provider.reconcile.Metadata;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Executor;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The control-plane Machines phase, as KubeadmControlPlane runs it: each Machine has an
 * OpenshiftAssistedConfig and a clone of the infrastructure template. Keeps existing Machines in
 * step in place ({@link PropagatedFields}) and marks those that no longer match the spec ({@link
 * UpToDate}), then applies the plan of {@link MachineSteps}: etcd's health, the pre-terminate hook,
 * the members of departed hosts ({@link EtcdGuard}), and one remediation, rolling update or scaling
 * step ({@link MachineStep}). Returns what it decided and found ({@link MachinesReport}).
 */
public final class ControlPlaneMachines {
  private static final Logger LOG = LoggerFactory.getLogger(ControlPlaneMachines.class);
  static final String MACHINE_DELETION_HELD = "MachineDeletionHeld";

  private final MachineWrites writes;
  private final MachineStep step;
  private final MachineCreation creation;
  private final EventRecorder events;

  /**
   * @param onCreated told of each Machine this creates
   * @param writers where the parts and Machines of one scale-up are created in parallel
   */
  public ControlPlaneMachines(
      KubernetesClient client,
      InfrastructureTemplates infrastructure,
      MachineWrites writes,
      EventRecorder events,
      Consumer<Machine> onCreated,
      Executor writers) {
    this.writes = writes;
    this.events = events;
    this.creation = new MachineCreation(client, infrastructure, events, onCreated, writers);
    this.step = new MachineStep(writes, creation);
  }

  /**
   * While the Cluster's infrastructure is awaited: starts making the configs and infrastructure
   * clones of a new control plane's Machines ({@link PreparedMachines}), so that only the Machines
   * are left to make once it is provisioned (the reconcile then waits for those creations, if they
   * have not ended). Once per control plane; a template that cannot be read, or a part that cannot
   * be made, is left to the scale-up, which reports it.
   *
   * @return the parts being made, or {@code prepared} as it was
   */
  public Optional<PreparedMachines.Parts> prepare(
      ControlPlaneScope scope, Optional<PreparedMachines.Parts> prepared) {
    OpenshiftAssistedControlPlane cp = scope.cp();
    int desired = cp.getSpec().desiredReplicas();
    if (desired == 0
        || prepared.isPresent()
        || !scope.machines().isEmpty()
        || !scope.configs().isEmpty()
        || cp.getSpec().machineTemplate == null) {
      return prepared;
    }
    GenericKubernetesResource template;
    try {
      template = scope.infrastructureTemplate();
    } catch (RuntimeException e) {
      return prepared;
    }
    if (template == null) {
      return prepared;
    }
    List<String> names = MachineFactory.newNames(cp, desired);
    return Optional.of(
        new PreparedMachines.Parts(
            names,
            creation.prepare(scope, template, names),
            UpToDate.configHash(cp.getSpec().openshiftAssistedConfigSpec),
            scope.infrastructureTemplateRef(),
            template.getApiVersion()));
  }

  /**
   * @param lifecycle what the reconcile knows of the cluster's state
   * @param memory what the last reconcile left
   */
  public MachinesReport reconcile(
      ControlPlaneScope scope, Lifecycle lifecycle, MachinesReport.Memory memory) {
    OpenshiftAssistedControlPlane cp = scope.cp();
    int desired = cp.getSpec().desiredReplicas();
    List<Machine> machines = scope.machines();
    List<String> deleting = DeletionsInFlight.deleting(machines, scope.deletionsUnseen());
    Optional<PreparedMachines.Parts> prepared = PreparedMachines.matching(cp, memory.prepared());
    deleteLeftovers(scope, prepared);

    Map<String, String> notUpToDate = notUpToDate(scope);
    for (Machine machine : machines) {
      if (!MachineSelection.isDeleting(machine)) {
        writes.syncInPlace(
            cp,
            machine,
            scope.configs().get(configName(machine)),
            Optional.ofNullable(notUpToDate.get(Metadata.name(machine))));
      }
    }

    MachineSteps.Plan plan =
        MachineSteps.plan(
            new MachineSteps.Inputs(
                cp,
                machines,
                deleting,
                notUpToDate,
                RemediationData.from(
                    cp.getMetadata().getAnnotations(), RemediationData.IN_PROGRESS),
                lifecycle,
                scope.installationStarted(),
                scope.now()));
    WarningsOnChange warnings = new WarningsOnChange(events, cp, memory.warnings());
    EtcdGuard etcd = new EtcdGuard(scope, events, warnings, plan.etcdGuarded());
    if (plan.readEtcdHealth()) {
      etcd.report(); // keeps EtcdClusterHealthy current
    }
    plan.hookDue().ifPresent(machine -> decideHook(scope, machine, etcd, warnings));
    List<String> departed =
        plan.removeDepartedMembers() ? etcd.cleanUp(machines, desired) : List.of();
    if (plan.forgetRecorded()) {
      writes.annotate(cp, RemediationData.IN_PROGRESS, null);
    }
    plan.recovered().forEach(writes::forgetOwnerRemediated);

    Map<String, ConditionUpdate> conditions = new LinkedHashMap<>();
    Set<String> deleted = new LinkedHashSet<>();
    Optional<RemediationData> inProgress = plan.inProgress();
    Remediation.Decision remediation = plan.remediation();
    put(conditions, remediation.remediating());
    MachineScaling.steady(machines.size(), desired).forEach(c -> put(conditions, c));
    put(conditions, MachineStatus.machinesReady(machines));
    // RollingOut as OnDelete reports it; a rolling update step below says more.
    MachineStatus.upToDate(notUpToDate).forEach(c -> put(conditions, c));
    if (remediation instanceof Remediation.Defer defer) {
      writes.ownerRemediated(
          defer.machine(),
          Remediation.ownerRemediated(defer.ownerReason(), defer.remediating().message()));
    }
    MachineStep.Taken taken = MachineStep.Taken.NOTHING;
    Optional<PreparedMachines.Parts> preparedLeft = prepared;
    if (remediation instanceof Remediation.Remediate remediate) {
      Optional<String> unsafe = etcd.whyNotRemovable(remediate.machine());
      if (unsafe.isPresent()) {
        put(conditions, ConditionUpdate.isTrue(REMEDIATING, WAITING_FOR_ETCD, unsafe.get()));
        writes.ownerRemediated(
            remediate.machine(), Remediation.ownerRemediated(CANNOT_BE_REMEDIATED, unsafe.get()));
      } else {
        // Recorded first: once the Machine is deleted, nothing else says a replacement is due.
        writes.annotate(cp, RemediationData.IN_PROGRESS, remediate.data().toJson());
        deleted.add(writes.remediate(cp, remediate.machine()));
        inProgress = Optional.of(remediate.data());
      }
    } else {
      MachineScaling.Decision decision = plan.step().orElseThrow();
      if (decision instanceof MachineScaling.Create) {
        preparedLeft = Optional.empty(); // used now, or left over if a Machine cannot be made
      }
      taken = step.take(scope, decision, etcd, departed, inProgress, prepared);
      taken.conditions().forEach(c -> put(conditions, c));
      taken.deleted().ifPresent(deleted::add);
    }

    List<Machine> counted = machines;
    if (!taken.created().isEmpty() && machines.size() + taken.created().size() == desired) {
      // The status tells of the Machines just made, not only of those the cache had: no second
      // write when their events come in.
      counted = new java.util.ArrayList<>(machines);
      counted.addAll(taken.created());
      MachineScaling.steady(counted.size(), desired).forEach(c -> put(conditions, c));
      put(conditions, MachineStatus.machinesReady(counted));
    }
    List<ConditionUpdate> decided = new java.util.ArrayList<>();
    etcd.health().ifPresent(decided::add);
    decided.addAll(conditions.values());
    return new MachinesReport(
        decided,
        MachineStatus.counts(counted, notUpToDate),
        MachineStatus.versions(counted),
        Remediation.last(inProgress, counted),
        taken.creationBlocked(),
        deleted,
        new MachinesReport.Memory(preparedLeft, warnings.notes()));
  }

  private static void put(Map<String, ConditionUpdate> conditions, ConditionUpdate condition) {
    conditions.put(condition.type(), condition);
  }

  /**
   * Lets the host of a deleted Machine go when etcd can do without its member; holds it otherwise
   * (the Machine controller waits at our pre-terminate hook).
   */
  private void decideHook(
      ControlPlaneScope scope, Machine machine, EtcdGuard etcd, WarningsOnChange warnings) {
    Optional<String> hold =
        scope.machines().size() <= 1 ? Optional.empty() : etcd.whyNotRemovable(machine);
    if (hold.isPresent()) {
      LOG.info("holding the host of deleted Machine {}: {}", Metadata.name(machine), hold.get());
      warnings.warn(
          MACHINE_DELETION_HELD,
          "EtcdMemberReplacement",
          "Holding the host of deleted Machine " + Metadata.name(machine) + ": " + hold.get());
      return;
    }
    warnings.clear(MACHINE_DELETION_HELD);
    writes.releaseHook(machine);
  }

  /** Why each Machine does not match the spec (including spec.rollout.after), by name. */
  private static Map<String, String> notUpToDate(ControlPlaneScope scope) {
    OpenshiftAssistedControlPlane cp = scope.cp();
    String desiredHash = UpToDate.configHash(cp.getSpec().openshiftAssistedConfigSpec);
    ContractVersionedObjectReference template = scope.infrastructureTemplateRef();
    Map<String, String> notUpToDate = new LinkedHashMap<>();
    for (Machine machine : scope.machines()) {
      UpToDate.reasonNotUpToDate(
              scope.configs().get(configName(machine)),
              infrastructureMachine(scope, machine),
              desiredHash,
              template)
          .or(() -> Rollout.rolloutAfter(cp.getSpec().rollout, machine, scope.now()))
          .ifPresent(r -> notUpToDate.put(Metadata.name(machine), r));
    }
    return notUpToDate;
  }

  /**
   * Deletes configs and infrastructure clones left without their Machine by a crash between the
   * creations (the Machine is created last, under the same name), or prepared for Machines that
   * will not be made from them (a restart, a change of the spec meanwhile).
   */
  private void deleteLeftovers(ControlPlaneScope scope, Optional<PreparedMachines.Parts> prepared) {
    List<String> preparedNames = prepared.map(PreparedMachines.Parts::names).orElse(List.of());
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
