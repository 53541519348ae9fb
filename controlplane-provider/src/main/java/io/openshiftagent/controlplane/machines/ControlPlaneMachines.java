package io.openshiftagent.controlplane.machines;

import static io.openshiftagent.controlplane.status.ControlPlaneConditions.INFRASTRUCTURE_TEMPLATE_UNAVAILABLE;
import static io.openshiftagent.controlplane.status.ControlPlaneConditions.MACHINE_CREATION_FAILED;
import static io.openshiftagent.controlplane.status.ControlPlaneConditions.SCALING_UP;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.openshiftagent.api.bootstrap.v1alpha2.OpenshiftAssistedConfig;
import io.openshiftagent.api.common.ContractVersionedObjectReference;
import io.openshiftagent.api.controlplane.v1alpha3.OpenshiftAssistedControlPlane;
import io.openshiftagent.api.external.capi.Machine;
import io.openshiftagent.controlplane.ControlPlaneScope;
import io.openshiftagent.controlplane.status.ControlPlaneStatus;
import io.openshiftagent.controlplane.status.MachineStatus;
import io.openshiftagent.provider.reconcile.Metadata;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The control-plane Machines phase: each Machine has an OpenshiftAssistedConfig and a clone of the
 * infrastructure template. Marks Machines that no longer match the spec ({@link UpToDate}), scales
 * ({@link MachineScaling}) and replaces Machines the user deletes (OnDelete), then reports the
 * Machines in status ({@link MachineStatus}).
 */
public final class ControlPlaneMachines {
  private static final Logger LOG = LoggerFactory.getLogger(ControlPlaneMachines.class);

  private final MachineWrites writes;

  public ControlPlaneMachines(MachineWrites writes) {
    this.writes = writes;
  }

  public void reconcile(ControlPlaneScope scope, ControlPlaneStatus status) {
    OpenshiftAssistedControlPlane cp = scope.cp();
    List<Machine> machines = scope.machines();
    deleteLeftovers(scope);

    String desiredHash = UpToDate.configHash(cp.getSpec().openshiftAssistedConfigSpec);
    ContractVersionedObjectReference template =
        cp.getSpec().machineTemplate.effectiveInfrastructureRef();
    Map<String, String> notUpToDate = new LinkedHashMap<>();
    for (Machine machine : machines) {
      Optional<String> reason =
          UpToDate.reasonNotUpToDate(
              scope.configs().get(configName(machine)),
              infrastructureMachine(scope, machine),
              desiredHash,
              template);
      reason.ifPresent(r -> notUpToDate.put(Metadata.name(machine), r));
      if (!MachineSelection.isDeleting(machine)) {
        writes.syncInPlace(machine, cp.getSpec().machineTemplate.effectiveDeletion(), reason);
      }
    }

    scale(scope, status, notUpToDate);

    MachineStatus.Counts counts = MachineStatus.counts(machines, notUpToDate);
    var s = status.status();
    s.selector = scope.selector();
    s.replicas = counts.replicas();
    s.readyReplicas = counts.ready();
    s.availableReplicas = counts.available();
    s.upToDateReplicas = counts.upToDate();
    status.set(MachineStatus.machinesReady(machines));
    MachineStatus.upToDate(notUpToDate).forEach(status::set);
  }

  private void scale(
      ControlPlaneScope scope, ControlPlaneStatus status, Map<String, String> notUpToDate) {
    int desired = scope.cp().getSpec().desiredReplicas();
    MachineScaling.steady(scope.machines().size(), desired).forEach(status::set);
    MachineScaling.Decision decision =
        MachineScaling.decide(
            desired,
            scope.machines(),
            scope.deletingMachines(),
            scope.installationStarted(),
            m -> !notUpToDate.containsKey(Metadata.name(m)));
    decision.condition().ifPresent(status::set);
    if (decision instanceof MachineScaling.Create create) {
      infrastructureTemplate(scope, status)
          .ifPresent(
              template ->
                  writes
                      .create(scope, template, MachineFactory.plan(scope, template, create.count()))
                      .forEach(
                          failure -> status.setTrue(SCALING_UP, MACHINE_CREATION_FAILED, failure)));
    } else if (decision instanceof MachineScaling.Delete delete) {
      writes.scaleDown(scope.cp(), delete.machine());
    }
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
   * creations (the Machine is created last, under the same name).
   */
  private void deleteLeftovers(ControlPlaneScope scope) {
    for (OpenshiftAssistedConfig config : scope.configs().values()) {
      String name = Metadata.name(config);
      boolean hasMachine = scope.machines().stream().anyMatch(m -> Metadata.name(m).equals(name));
      if (hasMachine || Metadata.isDeleting(config) || scope.machineExists(name)) {
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
