package io.openshiftagent.controlplane.machines;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.openshiftagent.api.bootstrap.v1alpha2.OpenshiftAssistedConfig;
import io.openshiftagent.api.controlplane.v1alpha3.OpenshiftAssistedControlPlane;
import io.openshiftagent.api.external.capi.Machine;
import io.openshiftagent.controlplane.names.ConditionUpdate;
import io.openshiftagent.controlplane.scope.ControlPlaneScope;
import io.openshiftagent.controlplane.scope.InfrastructureTemplates;
import io.openshiftagent.provider.reconcile.EventRecorder;
import io.openshiftagent.provider.reconcile.Metadata;
import java.util.ArrayList;
import java.util.LinkedHashMap;
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
 * the members of departed hosts ({@link EtcdGuard}), and one remediation, replacement of a Machine
 * whose host never booted, rolling update or scaling step ({@link MachineStep}). Returns what it
 * decided and found ({@link MachinesReport}).
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
    this.creation =
        new MachineCreation(
            client, infrastructure, events, onCreated.andThen(writes::createdUpToDate), writers);
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
    Optional<PreparedMachines.Parts> prepared = PreparedMachines.matching(cp, memory.prepared());
    deleteLeftovers(scope, prepared);
    Map<String, String> notUpToDate = UpToDate.reasons(scope);
    MachineSteps.Plan plan =
        MachineSteps.plan(
            new MachineSteps.Inputs(
                cp,
                scope.machines(),
                DeletionsInFlight.deleting(scope.machines(), scope.deletionsUnseen()),
                memory.looked(),
                notUpToDate,
                NeverBooted.hosts(scope.machines(), scope.configs()),
                RemediationData.from(
                    cp.getMetadata().getAnnotations(), RemediationData.IN_PROGRESS),
                lifecycle,
                scope.installationStarted(),
                scope.now()));
    WarningsOnChange warnings = new WarningsOnChange(events, cp, memory.warnings());
    EtcdGuard etcd = new EtcdGuard(scope, events, warnings, plan.etcdGuarded());
    Optional<HealthLook> health =
        plan.readEtcdHealth() ? Optional.of(HealthLook.take(scope, etcd)) : Optional.empty();
    keepInStep(scope, notUpToDate, health);
    List<String> departed = beforeTheStep(scope, plan, etcd, warnings);
    MachineStep.Taken taken;
    if (plan.remediation() instanceof Remediation.Remediate remediate) {
      taken = step.remediate(scope, remediate, etcd);
    } else {
      taken =
          step.take(scope, plan.step().orElseThrow(), etcd, departed, plan.inProgress(), prepared);
    }
    // Parts prepared are used by a creation, or left over if a Machine cannot be made.
    boolean created = plan.step().filter(MachineScaling.Create.class::isInstance).isPresent();
    return report(
        scope,
        plan,
        notUpToDate,
        etcd,
        health,
        taken,
        new MachinesReport.Memory(
            created ? Optional.empty() : prepared,
            warnings.notes(),
            health.map(h -> Set.copyOf(h.byMachine().keySet())).orElse(memory.looked())));
  }

  /**
   * Marks the Machines that no longer match the spec ({@code notUpToDate}, why each does not, by
   * name), keeps the others' propagated fields in step, and sets the health conditions looked at.
   */
  private void keepInStep(
      ControlPlaneScope scope, Map<String, String> notUpToDate, Optional<HealthLook> health) {
    for (Machine machine : scope.machines()) {
      if (!MachineSelection.isDeleting(machine)) {
        writes.syncInPlace(
            scope.cp(),
            machine,
            scope.configs().get(configName(machine)),
            Optional.ofNullable(notUpToDate.get(Metadata.name(machine))),
            health.map(h -> h.of(machine)).orElse(List.of()));
      }
    }
  }

  /**
   * What the plan does before its step: etcd's health, the hook, the departed members, the
   * remediation bookkeeping; returns the departed members left (their removal failed).
   */
  private List<String> beforeTheStep(
      ControlPlaneScope scope, MachineSteps.Plan plan, EtcdGuard etcd, WarningsOnChange warnings) {
    if (plan.readEtcdHealth()) {
      etcd.report(); // keeps EtcdClusterHealthy current
    }
    plan.hookDue().ifPresent(machine -> decideHook(scope, machine, etcd, warnings));
    List<String> departed =
        plan.removeDepartedMembers()
            ? etcd.cleanUp(scope.machines(), scope.cp().getSpec().desiredReplicas())
            : List.of();
    if (plan.forgetRecorded()) {
      writes.annotate(scope.cp(), RemediationData.IN_PROGRESS, null);
    }
    plan.recovered().forEach(writes::forgetOwnerRemediated);
    if (plan.remediation() instanceof Remediation.Defer defer) {
      writes.ownerRemediated(
          defer.machine(),
          Remediation.ownerRemediated(defer.ownerReason(), defer.remediating().message()));
    }
    return departed;
  }

  /** What the phase decided and found: the Machines' conditions, counts and versions. */
  private static MachinesReport report(
      ControlPlaneScope scope,
      MachineSteps.Plan plan,
      Map<String, String> notUpToDate,
      EtcdGuard etcd,
      Optional<HealthLook> health,
      MachineStep.Taken taken,
      MachinesReport.Memory memory) {
    int desired = scope.cp().getSpec().desiredReplicas();
    List<Machine> machines = new ArrayList<>(scope.machines());
    Map<String, ConditionUpdate> conditions = new LinkedHashMap<>();
    put(conditions, plan.remediation().remediating());
    MachineScaling.steady(machines.size(), desired).forEach(c -> put(conditions, c));
    put(conditions, MachineStatus.machinesReady(machines));
    // RollingOut as OnDelete reports it; a replacement or rolling update step says more.
    MachineStatus.upToDate(notUpToDate, plan.replacing()).forEach(c -> put(conditions, c));
    taken.conditions().forEach(c -> put(conditions, c));
    if (!taken.created().isEmpty() && machines.size() + taken.created().size() == desired) {
      // The status tells of the Machines just made, not only of those the cache had: no second
      // write when their events come in.
      machines.addAll(taken.created());
      MachineScaling.steady(machines.size(), desired).forEach(c -> put(conditions, c));
      put(conditions, MachineStatus.machinesReady(machines));
    }
    List<ConditionUpdate> decided = new ArrayList<>();
    // EtcdClusterHealthy fed by the members too, when the Machines' health was looked at.
    health
        .map(HealthLook::controlPlane)
        .orElse(etcd.health().stream().toList())
        .forEach(decided::add);
    decided.addAll(conditions.values());
    return new MachinesReport(
        decided,
        MachineStatus.counts(machines, notUpToDate),
        MachineStatus.versions(machines),
        RemediationData.last(taken.remediated().or(plan::inProgress), machines),
        taken.creationBlocked(),
        taken.deleted().map(Set::of).orElse(Set.of()),
        memory);
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

  /** The name of the Machine's bootstrap config (its own name when it names none). */
  public static String configName(Machine machine) {
    return machine.getSpec() == null
            || machine.getSpec().bootstrap == null
            || machine.getSpec().bootstrap.configRef == null
        ? Metadata.name(machine)
        : machine.getSpec().bootstrap.configRef.name;
  }
}
