package io.openshiftagent.controlplane.machines;

import static io.openshiftagent.controlplane.names.ControlPlaneConditions.API_SERVER_POD_HEALTHY;
import static io.openshiftagent.controlplane.names.ControlPlaneConditions.CONTROLLER_MANAGER_POD_HEALTHY;
import static io.openshiftagent.controlplane.names.ControlPlaneConditions.ETCD_MEMBER_HEALTHY;
import static io.openshiftagent.controlplane.names.ControlPlaneConditions.MACHINE_UP_TO_DATE;
import static io.openshiftagent.controlplane.names.ControlPlaneConditions.OWNER_REMEDIATED;
import static io.openshiftagent.controlplane.names.ControlPlaneConditions.SCHEDULER_POD_HEALTHY;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.openshiftagent.api.common.Conditions;
import io.openshiftagent.api.external.capi.Machine;
import io.openshiftagent.controlplane.names.ConditionUpdate;
import io.openshiftagent.provider.reconcile.Writes;
import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The conditions the control plane answers on its Machines: UpToDate and the health conditions
 * ({@link MachineHealth}), and OwnerRemediated for their MachineHealthCheck. They are set with a
 * server-side apply of their entries of {@code status.conditions} (a list keyed by type): UpToDate
 * and health together under one field manager, OwnerRemediated alone under its own, so Cluster
 * API's entries, and whoever else set the same one first (the MachineHealthCheck sets
 * OwnerRemediated), are never touched, and a list changed meanwhile does not fail the write.
 *
 * <p>Writes go through the Machine cache, read back from it until their event comes, on condition
 * that the Machine is still the version they were decided on ({@link Writes#throughCache}):
 * java-operator-sdk drops the events older than a write it caches, so a write over a change made
 * meanwhile would hide that change.
 */
final class MachineConditions {
  private static final String VERSION_PATH = "/metadata/resourceVersion";

  private final KubernetesClient client;
  private final String fieldManager;
  private final Clock clock;
  private final Writes.Cache<Machine> cache;

  MachineConditions(
      KubernetesClient client, String fieldManager, Clock clock, Writes.Cache<Machine> cache) {
    this.client = client;
    this.fieldManager = fieldManager;
    this.clock = clock;
    this.cache = cache;
  }

  /**
   * The conditions applied under the main field manager, always together: an apply leaves out what
   * its manager applied before only to remove it.
   */
  static final List<String> APPLIED_TOGETHER =
      List.of(
          MACHINE_UP_TO_DATE,
          ETCD_MEMBER_HEALTHY,
          API_SERVER_POD_HEALTHY,
          CONTROLLER_MANAGER_POD_HEALTHY,
          SCHEDULER_POD_HEALTHY);

  /** Sets the condition, unless it says so already (the cache holds our last write). */
  void set(Machine machine, ConditionUpdate update) {
    set(machine, List.of(update));
  }

  /**
   * Sets the conditions in one write, unless they say so already (the cache holds our last write).
   * OwnerRemediated goes alone, under its own field manager; the others of {@link
   * #APPLIED_TOGETHER} are applied with those the Machine has and this does not set, as they are.
   */
  void set(Machine machine, List<ConditionUpdate> updates) {
    List<Condition> conditions =
        machine.getStatus() == null ? null : machine.getStatus().conditions;
    if (updates.stream().allMatch(u -> says(conditions, u))) {
      return;
    }
    boolean remediation = updates.stream().anyMatch(u -> OWNER_REMEDIATED.equals(u.type()));
    List<String> types =
        remediation ? updates.stream().map(ConditionUpdate::type).toList() : APPLIED_TOGETHER;
    List<Condition> applied = new ArrayList<>();
    for (String type : types) {
      Optional<Condition> current = Conditions.find(conditions, type);
      Optional<ConditionUpdate> update =
          updates.stream().filter(u -> u.type().equals(type)).findFirst();
      if (update.isPresent()) {
        applied.add(condition(machine, current, update.get()));
      } else {
        current.ifPresent(applied::add);
      }
    }
    String manager = remediation ? fieldManager + "-remediation" : fieldManager;
    try {
      Writes.throughCache(
          cache,
          machine,
          version ->
              Writes.applyStatus(client, machine, Map.of("conditions", applied), manager, version));
    } catch (KubernetesClientException e) {
      // Gone: nothing to answer. An apply fails on nothing else a reconcile should pass over.
      if (e.getCode() != 404) {
        throw e;
      }
    }
  }

  private static boolean says(List<Condition> conditions, ConditionUpdate update) {
    Optional<Condition> current = Conditions.find(conditions, update.type());
    return current.isPresent()
        && update.status().equals(current.get().getStatus())
        && update.reason().equals(current.get().getReason())
        && update.message().equals(Objects.requireNonNullElse(current.get().getMessage(), ""));
  }

  private Condition condition(
      Machine machine, Optional<Condition> current, ConditionUpdate update) {
    return Conditions.set(
            current.map(List::of).orElse(List.of()),
            update.type(),
            update.status(),
            update.reason(),
            update.message(),
            machine.getMetadata().getGeneration(),
            clock.instant())
        .get(0);
  }

  /**
   * Removes the condition, if the Machine has it: a JSON patch that tests the entry it removes, as
   * KubeadmControlPlane does (an apply without it would leave the entry to its other managers).
   */
  void remove(Machine machine, String type) {
    List<Condition> conditions =
        machine.getStatus() == null ? null : machine.getStatus().conditions;
    Optional<Condition> current = Conditions.find(conditions, type);
    if (current.isPresent()) {
      String path = "/status/conditions/" + conditions.indexOf(current.get());
      patch(machine, List.of(testType(path, type), Map.of("op", "remove", "path", path)));
    }
  }

  /**
   * Sends the patch; a Machine gone (404), changed under the test (422) or in conflict (409) is
   * left to its next event.
   */
  private void patch(Machine machine, List<Map<String, Object>> patch) {
    String version = machine.getMetadata().getResourceVersion();
    try {
      if (version == null) {
        send(machine, patch);
        return;
      }
      // The entry's tests first: a list changed under them fails naming their path, and is left
      // to the change's event; only a Machine changed elsewhere fails on the version's test.
      List<Map<String, Object>> fenced = new ArrayList<>();
      patch.stream().filter(MachineConditions::isTest).forEach(fenced::add);
      fenced.add(op("test", VERSION_PATH, version));
      patch.stream().filter(operation -> !isTest(operation)).forEach(fenced::add);
      cache.write(machine, m -> send(m, fenced));
    } catch (KubernetesClientException e) {
      if (e.getCode() != 422 || !String.valueOf(e.getMessage()).contains(VERSION_PATH)) {
        ignoreStale(e);
        return;
      }
      try {
        send(machine, patch);
      } catch (KubernetesClientException again) {
        ignoreStale(again);
      }
    }
  }

  private static boolean isTest(Map<String, Object> operation) {
    return "test".equals(operation.get("op"));
  }

  private Machine send(Machine machine, List<Map<String, Object>> patch) {
    return client
        .resource(machine)
        .subresource("status")
        .patch(PatchContext.of(PatchType.JSON), Serialization.asJson(patch));
  }

  private static void ignoreStale(KubernetesClientException e) {
    if (e.getCode() != 404 && e.getCode() != 409 && e.getCode() != 422) {
      throw e;
    }
  }

  private static Map<String, Object> testType(String path, String type) {
    return op("test", path + "/type", type);
  }

  private static Map<String, Object> op(String op, String path, Object value) {
    Map<String, Object> operation = new LinkedHashMap<>();
    operation.put("op", op);
    operation.put("path", path);
    operation.put("value", value); // null: a test that the path holds nothing
    return operation;
  }
}
