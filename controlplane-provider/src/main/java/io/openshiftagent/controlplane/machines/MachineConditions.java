package io.openshiftagent.controlplane.machines;

import static io.openshiftagent.controlplane.names.ControlPlaneConditions.OWNER_REMEDIATED;

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
 * The conditions the control plane answers on its Machines: UpToDate, and OwnerRemediated for their
 * MachineHealthCheck. Each is set with a server-side apply of that one entry of {@code
 * status.conditions} (a list keyed by type) under a field manager of its own, so Cluster API's
 * entries, and whoever else set the same one first (the MachineHealthCheck sets OwnerRemediated),
 * are never touched, and a list changed meanwhile does not fail the write.
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

  /** Sets the condition, unless it says so already (the cache holds our last write). */
  void set(Machine machine, ConditionUpdate update) {
    List<Condition> conditions =
        machine.getStatus() == null ? null : machine.getStatus().conditions;
    Optional<Condition> current = Conditions.find(conditions, update.type());
    if (current.isPresent()
        && update.status().equals(current.get().getStatus())
        && update.reason().equals(current.get().getReason())
        && update.message().equals(Objects.requireNonNullElse(current.get().getMessage(), ""))) {
      return;
    }
    Condition condition =
        Conditions.set(
                current.map(List::of).orElse(List.of()),
                update.type(),
                update.status(),
                update.reason(),
                update.message(),
                machine.getMetadata().getGeneration(),
                clock.instant())
            .get(0);
    String manager =
        OWNER_REMEDIATED.equals(update.type()) ? fieldManager + "-remediation" : fieldManager;
    try {
      Writes.throughCache(
          cache,
          machine,
          version ->
              Writes.applyStatus(
                  client, machine, Map.of("conditions", List.of(condition)), manager, version));
    } catch (KubernetesClientException e) {
      // Gone: nothing to answer. An apply fails on nothing else a reconcile should pass over.
      if (e.getCode() != 404) {
        throw e;
      }
    }
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
