package io.openshiftagent.controlplane.machines;

import static io.openshiftagent.controlplane.status.ControlPlaneConditions.MACHINE_BEING_DELETED;
import static io.openshiftagent.controlplane.status.ControlPlaneConditions.MACHINE_CREATION_FAILED;
import static io.openshiftagent.controlplane.status.ControlPlaneConditions.MACHINE_UP_TO_DATE;
import static io.openshiftagent.controlplane.status.ControlPlaneConditions.NOT_UP_TO_DATE;
import static io.openshiftagent.controlplane.status.ControlPlaneConditions.OWNER_REMEDIATED;
import static io.openshiftagent.controlplane.status.ControlPlaneConditions.UP_TO_DATE;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.openshiftagent.api.bootstrap.v1alpha2.OpenshiftAssistedConfig;
import io.openshiftagent.api.common.Conditions;
import io.openshiftagent.api.common.MachineDeletionSpec;
import io.openshiftagent.api.controlplane.v1alpha3.OpenshiftAssistedControlPlane;
import io.openshiftagent.api.external.OwnedFieldsPatch;
import io.openshiftagent.api.external.capi.Machine;
import io.openshiftagent.controlplane.ControlPlaneScope;
import io.openshiftagent.controlplane.status.ConditionUpdate;
import io.openshiftagent.provider.reconcile.EventRecorder;
import io.openshiftagent.provider.reconcile.Futures;
import io.openshiftagent.provider.reconcile.Metadata;
import io.openshiftagent.provider.reconcile.Writes;
import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The writes of the control-plane Machines: creating a Machine's three objects (config first, so a
 * crash in between leaves something {@link ControlPlaneMachines} recognises as left over), deleting
 * a Machine or leftovers (also when the control plane goes), and the two things kept in step on
 * existing Machines (deletion timeouts, the UpToDate condition).
 */
public final class MachineWrites {
  private static final Logger LOG = LoggerFactory.getLogger(MachineWrites.class);

  /**
   * The control plane's Machine cache, written through: a Machine we create is in it at once, and a
   * status we write is read back from it until its event comes (java-operator-sdk's
   * ResourceOperations), so the next reconcile neither makes nor writes it again.
   */
  public interface MachineCache extends Writes.Cache<Machine> {
    void created(Machine machine);
  }

  private final KubernetesClient client;
  private final InfrastructureTemplates infrastructure;
  private final String fieldManager;
  private final EventRecorder events;
  private final Clock clock;
  private final MachineCache cache;
  private final DeletionsInFlight deletions;
  private final Executor creators;

  /**
   * @param cache told of each Machine this creates, and written through
   * @param creators where the Machines of one scale-up are created in parallel
   */
  public MachineWrites(
      KubernetesClient client,
      InfrastructureTemplates infrastructure,
      String fieldManager,
      EventRecorder events,
      Clock clock,
      MachineCache cache,
      DeletionsInFlight deletions,
      Executor creators) {
    this.client = client;
    this.infrastructure = infrastructure;
    this.fieldManager = fieldManager;
    this.events = events;
    this.clock = clock;
    this.cache = cache;
    this.deletions = deletions;
    this.creators = creators;
  }

  /**
   * Creates the planned Machines, in parallel (installing hosts wait for all): the Machines made,
   * and why each that could not be made failed.
   *
   * @param prepared the names whose config and infrastructure clone exist already ({@link
   *     PreparedMachines}): only their Machine is made
   */
  Created create(
      ControlPlaneScope scope,
      GenericKubernetesResource template,
      List<Machine> planned,
      Set<String> prepared) {
    List<CompletableFuture<Creation>> creations =
        planned.stream()
            .map(
                m ->
                    prepared.contains(m.getMetadata().getName())
                        ? CompletableFuture.supplyAsync(
                            () -> createMachine(scope, m, List.of()), creators)
                        : parts(scope, template, m.getMetadata().getName())
                            .thenApplyAsync(parts -> createMachine(scope, m, parts), creators))
            .toList();
    List<Machine> machines = new ArrayList<>();
    List<String> failures = new ArrayList<>();
    for (CompletableFuture<Creation> creation : creations) {
      Creation done = creation.join();
      if (done.machine() != null) {
        machines.add(done.machine());
      } else {
        failures.add(done.failure());
      }
    }
    return new Created(machines, failures);
  }

  /**
   * Starts creating the configs and infrastructure clones of Machines to be made later, in
   * parallel, without waiting for them: the names whose two parts were both made, once all are done
   * (a part made alone is deleted again).
   */
  CompletableFuture<List<String>> prepare(
      ControlPlaneScope scope, GenericKubernetesResource template, List<String> names) {
    Map<String, CompletableFuture<List<Part>>> all = new LinkedHashMap<>();
    names.forEach(name -> all.put(name, parts(scope, template, name)));
    String namespace = scope.namespace();
    return CompletableFuture.allOf(all.values().toArray(CompletableFuture[]::new))
        .thenApplyAsync(
            done -> {
              List<String> made = new ArrayList<>();
              all.forEach((name, parts) -> keepWhole(namespace, name, parts.join(), made));
              return made;
            },
            creators);
  }

  /** Adds {@code name} to {@code made} if both its parts were made; else deletes the one made. */
  private void keepWhole(String namespace, String name, List<Part> parts, List<String> made) {
    Optional<Throwable> failure =
        parts.stream().map(Part::failure).filter(Objects::nonNull).findFirst();
    if (failure.isEmpty()) {
      made.add(name);
      return;
    }
    LOG.info(
        "could not prepare the parts of Machine {}/{}: {}",
        namespace,
        name,
        failure.get().getMessage());
    parts.stream()
        .filter(part -> part.made() != null)
        .forEach(part -> client.resource(part.made()).delete());
  }

  /** What a scale-up made: the Machines, and why each one that could not be made failed. */
  record Created(List<Machine> machines, List<String> failures) {}

  /** One Machine made, or why not. */
  private record Creation(Machine machine, String failure) {}

  /** One of a Machine's parts: made, or why not. */
  private record Part(HasMetadata made, Throwable failure) {}

  /**
   * Creates a Machine's config and infrastructure clone at once (the Machine is made after both:
   * Cluster API reads both as soon as it sees it). A crash before the Machine leaves a config
   * without its Machine, which marks the leftovers ({@link ControlPlaneMachines}), or a clone
   * alone: no Machine owns it, so CAPM3 gives it no host, and it goes with the control plane.
   */
  private CompletableFuture<List<Part>> parts(
      ControlPlaneScope scope, GenericKubernetesResource template, String name) {
    OpenshiftAssistedConfig desiredConfig = MachineFactory.config(scope, name);
    GenericKubernetesResource desiredClone =
        MachineFactory.infrastructureMachine(scope, template, name);
    CompletableFuture<Part> config =
        CompletableFuture.supplyAsync(
                () -> (HasMetadata) client.resource(desiredConfig).create(), creators)
            .handle(Part::new);
    CompletableFuture<Part> clone =
        CompletableFuture.supplyAsync(
                () -> {
                  GenericKubernetesResource made = client.resource(desiredClone).create();
                  infrastructure.remember(made);
                  return (HasMetadata) made;
                },
                creators)
            .handle(Part::new);
    return config.thenCombine(clone, List::of);
  }

  /** Creates the Machine once its parts exist (none listed when they were made before). */
  private Creation createMachine(ControlPlaneScope scope, Machine planned, List<Part> parts) {
    OpenshiftAssistedControlPlane cp = scope.cp();
    String name = planned.getMetadata().getName();
    try {
      for (Part part : parts) {
        if (part.failure() != null) {
          throw Futures.unwrap(part.failure());
        }
      }
      Machine machine = client.resource(planned).create();
      cache.created(machine);
      // As Cluster API's KubeadmControlPlane: the status counts it, only a failure is an Event.
      LOG.info(
          "created control-plane Machine {}/{} in failure domain {}",
          scope.namespace(),
          name,
          Optional.ofNullable(planned.getSpec().failureDomain).orElse("(none)"));
      return new Creation(machine, null);
    } catch (KubernetesClientException e) {
      for (Part part : parts) {
        if (part.made() != null) {
          client.resource(part.made()).delete();
        }
      }
      // No random name in the message: an unchanged status does not wake the operator again.
      String message =
          "could not create a control-plane Machine: "
              + (e.getStatus() == null ? e.getMessage() : e.getStatus().getMessage());
      events.warning(cp, MACHINE_CREATION_FAILED, "ScaleUp", message);
      return new Creation(null, message);
    }
  }

  /** Deletes a Machine to scale down. */
  void scaleDown(OpenshiftAssistedControlPlane cp, Machine machine) {
    LOG.info("scaling down {}: deleting Machine {}", Metadata.name(cp), Metadata.name(machine));
    delete(cp, machine);
    events.normal(cp, "MachineDeleted", "ScaleDown", "Deleted Machine " + Metadata.name(machine));
  }

  /** Deletes a Machine; it counts as deleting until the cache shows it so. */
  public void delete(OpenshiftAssistedControlPlane cp, Machine machine) {
    client.resource(machine).delete();
    deletions.deleted(cp, machine);
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
   * plane, in place ({@link PropagatedFields}, deletion timeouts, the UpToDate condition); a
   * Machine deleted since the cache saw it is left to its event. A Machine changed meanwhile (a
   * list we rewrite is bound to its resourceVersion) is done again at the next reconcile.
   */
  void syncInPlace(
      OpenshiftAssistedControlPlane cp,
      Machine machine,
      OpenshiftAssistedConfig config,
      Optional<String> notUpToDate) {
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
      markUpToDate(machine, notUpToDate);
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
   * Releases our pre-terminate hook on every deleted Machine: the whole control plane goes, etcd
   * with it.
   */
  public void releaseHooks(List<Machine> machines) {
    machines.stream()
        .filter(Metadata::isDeleting)
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
   * Sets the Machine's OwnerRemediated condition, our answer to its MachineHealthCheck, under a
   * field manager of its own (the UpToDate condition is applied under another).
   */
  void ownerRemediated(Machine machine, ConditionUpdate update) {
    Optional<Condition> current =
        Conditions.find(
            machine.getStatus() == null ? null : machine.getStatus().conditions, update.type());
    if (current.isPresent()
        && update.status().equals(current.get().getStatus())
        && update.reason().equals(current.get().getReason())
        && update.message().equals(Objects.requireNonNullElse(current.get().getMessage(), ""))) {
      return;
    }
    List<Condition> conditions =
        Conditions.set(
            current.map(List::of).orElse(List.of()),
            update.type(),
            update.status(),
            update.reason(),
            update.message(),
            machine.getMetadata().getGeneration(),
            clock.instant());
    Writes.applyStatus(
        client, machine, Map.of("conditions", conditions), fieldManager + "-remediation");
  }

  /**
   * Removes the OwnerRemediated condition of a Machine that is healthy again, as
   * KubeadmControlPlane does (a JSON patch that fails if the list changed meanwhile).
   */
  void forgetOwnerRemediated(Machine machine) {
    List<Condition> conditions = machine.getStatus().conditions;
    int index = conditions.indexOf(Conditions.find(conditions, OWNER_REMEDIATED).orElseThrow());
    String path = "/status/conditions/" + index;
    String patch =
        Serialization.asJson(
            List.of(
                Map.of("op", "test", "path", path + "/type", "value", OWNER_REMEDIATED),
                Map.of("op", "remove", "path", path)));
    try {
      client.resource(machine).subresource("status").patch(PatchContext.of(PatchType.JSON), patch);
    } catch (KubernetesClientException e) {
      if (e.getCode() != 404 && e.getCode() != 409 && e.getCode() != 422) {
        throw e;
      }
    }
  }

  /** Deletes an unhealthy Machine to replace it, answering its MachineHealthCheck. */
  void remediate(OpenshiftAssistedControlPlane cp, Machine machine) {
    LOG.info(
        "remediating {}: deleting unhealthy Machine {}", Metadata.name(cp), Metadata.name(machine));
    // The condition first: without Cluster API's finalizer the Machine is gone once deleted.
    ownerRemediated(
        machine,
        ConditionUpdate.isFalse(OWNER_REMEDIATED, MACHINE_BEING_DELETED, "Machine is deleting"));
    delete(cp, machine);
    events.normal(
        cp,
        "MachineRemediated",
        "Remediate",
        "Deleted unhealthy Machine " + Metadata.name(machine));
  }

  /** Sets ({@code value}) or removes (null) an annotation of the control plane. */
  void annotate(OpenshiftAssistedControlPlane cp, String key, String value) {
    new OwnedFieldsPatch().set(value, "metadata", "annotations", key).applyTo(client, cp);
  }

  /**
   * Sets the Machine's UpToDate condition, and only it, with a server-side apply of the status,
   * unless it says so already (the cache holds our last write until its event comes).
   */
  private void markUpToDate(Machine machine, Optional<String> notUpToDateReason) {
    String status = notUpToDateReason.isEmpty() ? Conditions.TRUE : Conditions.FALSE;
    String reason = notUpToDateReason.isEmpty() ? UP_TO_DATE : NOT_UP_TO_DATE;
    String message = notUpToDateReason.map(r -> "the Machine is not up to date: " + r).orElse("");
    Optional<Condition> current =
        Conditions.find(
            machine.getStatus() == null ? null : machine.getStatus().conditions,
            MACHINE_UP_TO_DATE);
    if (current.isPresent()
        && status.equals(current.get().getStatus())
        && reason.equals(current.get().getReason())
        && message.equals(Objects.requireNonNullElse(current.get().getMessage(), ""))) {
      return;
    }
    List<Condition> conditions =
        Conditions.set(
            current.map(List::of).orElse(List.of()),
            MACHINE_UP_TO_DATE,
            status,
            reason,
            message,
            machine.getMetadata().getGeneration(),
            clock.instant());
    Writes.throughCache(
        cache,
        machine,
        version ->
            Writes.applyStatus(
                client, machine, Map.of("conditions", conditions), fieldManager, version));
  }
}
