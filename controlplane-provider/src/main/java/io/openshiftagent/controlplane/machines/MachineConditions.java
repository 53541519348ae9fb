package io.openshiftagent.controlplane.machines;

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
 * The conditions the control plane answers on its Machines (UpToDate, and OwnerRemediated for their
 * MachineHealthCheck), written one way: a JSON patch of that one entry of {@code
 * status.conditions}, which first tests that the entry is where it was read. A list changed
 * meanwhile fails the test and the write is made again at the next reconcile; the other entries,
 * and whoever else owns them (the MachineHealthCheck set OwnerRemediated first), are never touched.
 *
 * <p>The patch goes through the Machine cache, read back from it until its event comes, and also
 * tests the resourceVersion it was decided on: java-operator-sdk drops the events older than a
 * write it caches, so a write over a change made meanwhile would hide that change. When the version
 * moved, the patch is sent again without that test and outside the cache, so the change's event
 * still starts a reconcile.
 */
final class MachineConditions {
  private final KubernetesClient client;
  private final Clock clock;
  private final Writes.Cache<Machine> cache;

  MachineConditions(KubernetesClient client, Clock clock, Writes.Cache<Machine> cache) {
    this.client = client;
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
    List<Map<String, Object>> patch;
    if (current.isPresent()) {
      String path = "/status/conditions/" + conditions.indexOf(current.get());
      patch = List.of(testType(path, update.type()), op("replace", path, condition));
    } else if (conditions != null) {
      patch = List.of(op("add", "/status/conditions/-", condition));
    } else if (machine.getStatus() == null) {
      // No status yet: made only while there is none, or the one written meanwhile would go.
      patch =
          List.of(
              op("test", "/status", null),
              op("add", "/status", Map.of("conditions", List.of(condition))));
    } else {
      patch =
          List.of(
              op("test", "/status/conditions", null),
              op("add", "/status/conditions", List.of(condition)));
    }
    patch(machine, patch);
  }

  /** Removes the condition, if the Machine has it. */
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
      List<Map<String, Object>> fenced = new ArrayList<>();
      fenced.add(op("test", "/metadata/resourceVersion", version));
      fenced.addAll(patch);
      cache.write(machine, m -> send(m, fenced));
    } catch (KubernetesClientException e) {
      if (e.getCode() != 422 || version == null) {
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
