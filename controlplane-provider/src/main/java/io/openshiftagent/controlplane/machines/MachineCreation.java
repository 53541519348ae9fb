package io.openshiftagent.controlplane.machines;

import static io.openshiftagent.controlplane.names.ControlPlaneConditions.MACHINE_CREATION_FAILED;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.openshiftagent.api.bootstrap.v1alpha2.OpenshiftAssistedConfig;
import io.openshiftagent.api.external.capi.Machine;
import io.openshiftagent.controlplane.scope.ControlPlaneScope;
import io.openshiftagent.controlplane.scope.InfrastructureTemplates;
import io.openshiftagent.provider.reconcile.EventRecorder;
import io.openshiftagent.provider.reconcile.Futures;
import io.openshiftagent.provider.reconcile.Metadata;
import io.openshiftagent.provider.reconcile.OwnerReferences;
import io.openshiftagent.provider.reconcile.Writes;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Creating control-plane Machines, each of three objects under one name: its config, then its
 * infrastructure clone, then the Machine (Cluster API reads both parts as soon as it sees it). A
 * crash before the Machine leaves a config without its Machine, with or without its clone, which
 * marks the leftovers ({@link ControlPlaneMachines}) that go.
 */
final class MachineCreation {
  private static final Logger LOG = LoggerFactory.getLogger(MachineCreation.class);

  private final KubernetesClient client;
  private final InfrastructureTemplates infrastructure;
  private final EventRecorder events;
  private final Consumer<Machine> onCreated;
  private final Executor creators;

  /**
   * @param onCreated told of each Machine this creates
   * @param creators where the parts and Machines of one scale-up are created in parallel
   */
  MachineCreation(
      KubernetesClient client,
      InfrastructureTemplates infrastructure,
      EventRecorder events,
      Consumer<Machine> onCreated,
      Executor creators) {
    this.client = client;
    this.infrastructure = infrastructure;
    this.events = events;
    this.onCreated = onCreated;
    this.creators = creators;
  }

  /** What a scale-up made: the Machines, and why each one that could not be made failed. */
  record Created(List<Machine> machines, List<String> failures) {}

  /** One Machine made, or why not. */
  private record Creation(Machine machine, String failure) {}

  /** One of a Machine's parts: made, or why not. */
  private record Part(HasMetadata made, Throwable failure) {
    static Part of(Supplier<HasMetadata> create) {
      try {
        return new Part(create.get(), null);
      } catch (RuntimeException e) {
        return new Part(null, e);
      }
    }
  }

  /**
   * Creates the planned Machines, in parallel (installing hosts wait for all).
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

  /**
   * Creates a Machine's config, then its infrastructure clone: a clone never exists without its
   * config, so the configs alone mark what an interrupted creation left ({@link
   * ControlPlaneMachines}). The clone is not made when the config could not be.
   */
  private CompletableFuture<List<Part>> parts(
      ControlPlaneScope scope, GenericKubernetesResource template, String name) {
    OpenshiftAssistedConfig desiredConfig = MachineFactory.config(scope, name);
    GenericKubernetesResource desiredClone =
        MachineFactory.infrastructureMachine(scope, template, name);
    return CompletableFuture.supplyAsync(
        () -> {
          Part config = Part.of(() -> client.resource(desiredConfig).create());
          if (config.failure() != null) {
            return List.of(config);
          }
          return List.of(
              config,
              Part.of(
                  () -> {
                    GenericKubernetesResource made = client.resource(desiredClone).create();
                    infrastructure.remember(made);
                    return made;
                  }));
        },
        creators);
  }

  /**
   * The Machine of that name found by a create: ours when our earlier attempt of the same request
   * was stored (a retried POST), kept then with its parts; else the conflict, whose parts go.
   */
  private Machine ownExisting(ControlPlaneScope scope, String name) {
    Machine existing =
        client.resources(Machine.class).inNamespace(scope.namespace()).withName(name).get();
    if (existing == null
        || Metadata.isDeleting(existing)
        || !OwnerReferences.isOwnedBy(existing, scope.cp())) {
      throw new KubernetesClientException(
          "a Machine of the planned name exists already and is not this control plane's",
          409,
          null);
    }
    LOG.info("control-plane Machine {}/{} was created already: kept", scope.namespace(), name);
    return existing;
  }

  /** Creates the Machine once its parts exist (none listed when they were made before). */
  private Creation createMachine(ControlPlaneScope scope, Machine planned, List<Part> parts) {
    String name = planned.getMetadata().getName();
    try {
      for (Part part : parts) {
        if (part.failure() != null) {
          throw Futures.unwrap(part.failure());
        }
      }
      Machine machine = Writes.create(client, planned).orElseGet(() -> ownExisting(scope, name));
      onCreated.accept(machine);
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
      events.warning(scope.cp(), MACHINE_CREATION_FAILED, "ScaleUp", message);
      return new Creation(null, message);
    }
  }
}
