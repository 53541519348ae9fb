package io.openshiftagent.controlplane.machines;

import static io.openshiftagent.controlplane.names.ControlPlaneConditions.MACHINE_BEING_DELETED;
import static io.openshiftagent.controlplane.names.ControlPlaneConditions.MACHINE_UP_TO_DATE;
import static io.openshiftagent.controlplane.names.ControlPlaneConditions.NOT_UP_TO_DATE;
import static io.openshiftagent.controlplane.names.ControlPlaneConditions.OWNER_REMEDIATED;
import static io.openshiftagent.controlplane.names.ControlPlaneConditions.UP_TO_DATE;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.openshiftagent.api.bootstrap.v1alpha2.OpenshiftAssistedConfig;
import io.openshiftagent.api.common.MachineDeletionSpec;
import io.openshiftagent.api.controlplane.v1alpha3.OpenshiftAssistedControlPlane;
import io.openshiftagent.api.external.OwnedFieldsPatch;
import io.openshiftagent.api.external.capi.Machine;
import io.openshiftagent.controlplane.names.ConditionUpdate;
import io.openshiftagent.controlplane.scope.InfrastructureTemplates;
import io.openshiftagent.provider.reconcile.EventRecorder;
import io.openshiftagent.provider.reconcile.Metadata;
import io.openshiftagent.provider.reconcile.Writes;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The writes to existing control-plane Machines: deleting one (to scale down, to remediate, to
 * replace one whose host never booted, or with the control plane) and the parts left without one,
 * keeping them in step in place (propagated fields, deletion timeouts, the UpToDate condition), the
 * answers to their MachineHealthCheck (OwnerRemediated, through {@link MachineConditions}) and our
 * pre-terminate hook. Each deletion returns the Machine's UID: it counts as deleting until the
 * cache shows it so.
 */
public final class MachineWrites {
  private static final Logger LOG = LoggerFactory.getLogger(MachineWrites.class);

  /**
   * The control plane's Machine cache, written through: a Machine we create is in it at once, and a
   * condition we write is read back from it until its event comes, so the next reconcile neither
   * makes nor writes it again.
   */
  public interface MachineCache extends Writes.Cache<Machine> {
    void created(Machine machine);
  }

  private final KubernetesClient client;
  private final InfrastructureTemplates infrastructure;
  private final EventRecorder events;
  private final MachineConditions conditions;

  /**
   * @param fieldManager the field manager of the UpToDate condition we apply on Machines
   *     (OwnerRemediated has its own, this name with {@code -remediation})
   */
  public MachineWrites(
      KubernetesClient client,
      InfrastructureTemplates infrastructure,
      EventRecorder events,
      Clock clock,
      MachineCache cache,
      String fieldManager) {
    this.client = client;
    this.infrastructure = infrastructure;
    this.events = events;
    this.conditions = new MachineConditions(client, fieldManager, clock, cache);
  }

  /** Deletes a Machine to scale down; returns its UID. */
  String scaleDown(OpenshiftAssistedControlPlane cp, Machine machine) {
    LOG.info("scaling down {}: deleting Machine {}", Metadata.name(cp), Metadata.name(machine));
    String deleted = delete(machine);
    events.normal(cp, "MachineDeleted", "ScaleDown", "Deleted Machine " + Metadata.name(machine));
    return deleted;
  }

  /**
   * Deletes a Machine whose host never booted, for the scaling to replace it from the current spec;
   * returns its UID.
   */
  String replace(OpenshiftAssistedControlPlane cp, Machine machine, String why) {
    LOG.info("replacing Machine {} of {}: {}", Metadata.name(machine), Metadata.name(cp), why);
    String deleted = delete(machine);
    events.normal(
        cp,
        "MachineDeleted",
        "ReplaceNeverBooted",
        "Deleted Machine " + Metadata.name(machine) + " to replace it: " + why);
    return deleted;
  }

  /** Deletes a Machine; returns its UID. */
  public String delete(Machine machine) {
    client.resource(machine).delete();
    return machine.getMetadata().getUid();
  }

  /**
   * Deletes a config and its infrastructure clone (same name) that have no Machine: left by an
   * interrupted creation, or by Cluster API deleting only the Machine.
   */
  public void deleteParts(OpenshiftAssistedControlPlane cp, OpenshiftAssistedConfig config) {
    String name = Metadata.name(config);
    try {
      infrastructure.delete(
          MachineFactory.infrastructureMachineRef(cp, name), cp.getMetadata().getNamespace());
    } catch (RuntimeException e) {
      // The infrastructure kind may be gone already; the config is deleted regardless.
      LOG.warn("could not delete infrastructure machine {}: {}", name, e.getMessage());
    }
    client.resource(config).delete();
  }

  /**
   * Keeps an existing Machine, its config and its infrastructure machine in step with the control
   * plane, in place ({@link PropagatedFields}, deletion timeouts, the UpToDate condition and, when
   * they were looked at, the health conditions, in one write); a Machine deleted since the cache
   * saw it is left to its event. A Machine changed meanwhile (a list we rewrite is bound to its
   * resourceVersion) is done again at the next reconcile.
   */
  void syncInPlace(
      OpenshiftAssistedControlPlane cp,
      Machine machine,
      OpenshiftAssistedConfig config,
      Optional<String> notUpToDate,
      List<ConditionUpdate> health) {
    try {
      if (config != null) {
        OwnedFieldsPatch configPatch =
            PropagatedFields.metadataPatch(config, PropagatedFields.forConfigs(cp));
        if (!configPatch.isEmpty()) {
          configPatch.applyTo(client, config);
        }
      }
      OwnedFieldsPatch machinePatch = PropagatedFields.machinePatch(machine, cp);
      MachineDeletionSpec deletion = cp.getSpec().machineTemplate.effectiveDeletion();
      MachineDeletionSpec current = machine.getSpec() == null ? null : machine.getSpec().deletion;
      if (deletion != null && !deletion.equals(current)) {
        machinePatch.set(
            Serialization.jsonMapper().convertValue(deletion, Map.class), "spec", "deletion");
      }
      if (!machinePatch.isEmpty()) {
        if (!PropagatedFields.metadataPatch(machine, PropagatedFields.forMachines(cp)).isEmpty()
            && machine.getSpec() != null
            && machine.getSpec().infrastructureRef != null) {
          // The infrastructure machine first: the Machine's record says what is done.
          infrastructure.patch(
              machine.getSpec().infrastructureRef,
              machine.getMetadata().getNamespace(),
              PropagatedFields.infrastructurePatch(machine, cp).toJson());
        }
        machinePatch.applyTo(client, machine);
      }
      List<ConditionUpdate> updates = new ArrayList<>(health);
      updates.add(0, upToDate(notUpToDate));
      conditions.set(machine, updates);
    } catch (KubernetesClientException e) {
      if (e.getCode() != 404 && e.getCode() != 409) {
        throw e;
      }
      LOG.debug(
          "{} changed meanwhile: in-place sync again at the next reconcile",
          Metadata.name(machine));
    }
  }

  /**
   * Releases our pre-terminate hook on each of the Machines, deleted or about to be: the whole
   * control plane goes, etcd with it.
   */
  public void releaseHooks(List<Machine> machines) {
    machines.stream()
        .filter(m -> Metadata.hasAnnotation(m, PropagatedFields.PRE_TERMINATE_HOOK))
        .forEach(this::releaseHook);
  }

  /** Lets Cluster API remove the Machine's host: our pre-terminate hook goes. */
  void releaseHook(Machine machine) {
    try {
      new OwnedFieldsPatch()
          .set(null, "metadata", "annotations", PropagatedFields.PRE_TERMINATE_HOOK)
          .applyTo(client, machine);
    } catch (KubernetesClientException e) {
      if (e.getCode() != 404) {
        throw e;
      }
    }
  }

  /**
   * Marks a Machine just made from the spec up to date, as it is created: before Cluster API's
   * Machine controller first writes its status, so that the write seldom meets another. A failure
   * is left to the next reconcile, which sets the condition as for every Machine.
   */
  void createdUpToDate(Machine machine) {
    try {
      conditions.set(machine, upToDate(Optional.empty()));
    } catch (KubernetesClientException e) {
      LOG.debug(
          "{}: UpToDate left to the next reconcile: {}", Metadata.name(machine), e.getMessage());
    }
  }

  /** Sets the Machine's OwnerRemediated condition, our answer to its MachineHealthCheck. */
  void ownerRemediated(Machine machine, ConditionUpdate update) {
    conditions.set(machine, update);
  }

  /**
   * Removes the OwnerRemediated condition of a Machine that is healthy again, as
   * KubeadmControlPlane does.
   */
  void forgetOwnerRemediated(Machine machine) {
    conditions.remove(machine, OWNER_REMEDIATED);
  }

  /** Deletes an unhealthy Machine to replace it, answering its MachineHealthCheck; its UID. */
  String remediate(OpenshiftAssistedControlPlane cp, Machine machine) {
    LOG.info(
        "remediating {}: deleting unhealthy Machine {}", Metadata.name(cp), Metadata.name(machine));
    // The condition first: without Cluster API's finalizer the Machine is gone once deleted.
    ownerRemediated(
        machine,
        ConditionUpdate.isFalse(OWNER_REMEDIATED, MACHINE_BEING_DELETED, "Machine is deleting"));
    String deleted = delete(machine);
    events.normal(
        cp,
        "MachineRemediated",
        "Remediate",
        "Deleted unhealthy Machine " + Metadata.name(machine));
    return deleted;
  }

  /** Sets ({@code value}) or removes (null) an annotation of the control plane. */
  void annotate(OpenshiftAssistedControlPlane cp, String key, String value) {
    new OwnedFieldsPatch().set(value, "metadata", "annotations", key).applyTo(client, cp);
  }

  /** The Machine's UpToDate condition. */
  private static ConditionUpdate upToDate(Optional<String> notUpToDateReason) {
    return notUpToDateReason
        .map(
            r ->
                ConditionUpdate.isFalse(
                    MACHINE_UP_TO_DATE, NOT_UP_TO_DATE, "the Machine is not up to date: " + r))
        .orElse(ConditionUpdate.isTrue(MACHINE_UP_TO_DATE, UP_TO_DATE, ""));
  }
}
