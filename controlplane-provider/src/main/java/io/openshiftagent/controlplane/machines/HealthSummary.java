package io.openshiftagent.controlplane.machines;

import static io.openshiftagent.controlplane.names.ControlPlaneConditions.CONTROL_PLANE_COMPONENTS_HEALTHY;
import static io.openshiftagent.controlplane.names.ControlPlaneConditions.ETCD_CLUSTER_HEALTHY;
import static io.openshiftagent.controlplane.names.ControlPlaneConditions.ETCD_MEMBER_HEALTHY;
import static io.openshiftagent.controlplane.names.ControlPlaneConditions.HEALTHY;
import static io.openshiftagent.controlplane.names.ControlPlaneConditions.HEALTH_UNKNOWN;
import static io.openshiftagent.controlplane.names.ControlPlaneConditions.NOT_HEALTHY;

import io.openshiftagent.api.common.Conditions;
import io.openshiftagent.controlplane.names.ConditionUpdate;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The control plane's summary of its Machines' health, as KubeadmControlPlane aggregates it: each
 * Machine with a False or Unknown condition is listed with what it says (Machines saying the same
 * grouped, the most first), and the problems of the control plane as a whole (a control-plane Node
 * no Machine holds) follow. False wins over Unknown; an Unknown of a Machine without a Node yet is
 * no news (KubeadmControlPlane: without a providerID yet). Pure.
 */
public final class HealthSummary {
  private HealthSummary() {}

  /**
   * ControlPlaneComponentsHealthy from the Machines' pod conditions.
   *
   * @param byMachine each Machine's four conditions, by name
   * @param provisioning the Machines without a Node yet
   * @param errors the control plane's own problems
   */
  public static ConditionUpdate components(
      Map<String, List<ConditionUpdate>> byMachine, Set<String> provisioning, List<String> errors) {
    Map<String, List<ConditionUpdate>> pods = new TreeMap<>();
    byMachine.forEach(
        (machine, conditions) ->
            pods.put(
                machine,
                conditions.stream().filter(c -> !ETCD_MEMBER_HEALTHY.equals(c.type())).toList()));
    return aggregate(CONTROL_PLANE_COMPONENTS_HEALTHY, pods, provisioning, errors, "control plane");
  }

  /**
   * EtcdClusterHealthy: what the etcd operator's report says ({@code fromOperator}), unless it is
   * True and a Machine's member is not healthy. A member list that could not be read (Unknown)
   * leaves the operator's word: it watches every member, the list is our second look.
   */
  public static ConditionUpdate etcd(
      ConditionUpdate fromOperator,
      Map<String, List<ConditionUpdate>> byMachine,
      Set<String> provisioning) {
    if (!Conditions.TRUE.equals(fromOperator.status())) {
      return fromOperator;
    }
    Map<String, List<ConditionUpdate>> members = new TreeMap<>();
    byMachine.forEach(
        (machine, conditions) ->
            members.put(
                machine,
                conditions.stream().filter(c -> ETCD_MEMBER_HEALTHY.equals(c.type())).toList()));
    ConditionUpdate fromMembers =
        aggregate(ETCD_CLUSTER_HEALTHY, members, provisioning, List.of(), "etcd member");
    return Conditions.FALSE.equals(fromMembers.status()) ? fromMembers : fromOperator;
  }

  private static ConditionUpdate aggregate(
      String type,
      Map<String, List<ConditionUpdate>> byMachine,
      Set<String> provisioning,
      List<String> errors,
      String note) {
    boolean anyFalse = false;
    boolean anyUnknown = false;
    boolean anyReporting = false;
    Map<String, Set<String>> machinesByMessage = new LinkedHashMap<>();
    for (Map.Entry<String, List<ConditionUpdate>> entry : byMachine.entrySet()) {
      List<String> lines = new ArrayList<>();
      Set<String> messages = new LinkedHashSet<>();
      for (ConditionUpdate c : entry.getValue()) {
        messages.add(c.message());
        boolean unknown = Conditions.UNKNOWN.equals(c.status());
        if (Conditions.TRUE.equals(c.status())
            || (unknown && provisioning.contains(entry.getKey()))) {
          anyReporting = true;
          continue;
        }
        anyFalse |= !unknown;
        anyUnknown |= unknown;
        String message = c.message().isEmpty() ? "condition is " + c.status() : c.message();
        lines.add("  * " + c.type() + ": " + message);
      }
      if (!lines.isEmpty()) {
        String text =
            entry.getValue().size() > 1 && messages.size() == 1
                ? "  * Control plane components: " + messages.iterator().next()
                : String.join("\n", lines);
        machinesByMessage.computeIfAbsent(text, k -> new java.util.TreeSet<>()).add(entry.getKey());
      }
    }
    List<String> parts = new ArrayList<>();
    machinesByMessage.entrySet().stream()
        .sorted(
            Comparator.comparing((Map.Entry<String, Set<String>> e) -> -e.getValue().size())
                .thenComparing(e -> String.join(",", e.getValue())))
        .forEach(
            e ->
                parts.add(
                    "* Machine"
                        + (e.getValue().size() > 1 ? "s " : " ")
                        + names(List.copyOf(e.getValue()))
                        + ":\n"
                        + e.getKey()));
    errors.forEach(error -> parts.add("* " + error));
    String message = String.join("\n", parts);
    if (anyFalse || !errors.isEmpty()) {
      return ConditionUpdate.isFalse(type, NOT_HEALTHY, message);
    }
    if (anyUnknown) {
      return new ConditionUpdate(type, Conditions.UNKNOWN, HEALTH_UNKNOWN, message);
    }
    if (anyReporting) {
      return ConditionUpdate.isTrue(type, HEALTHY, "");
    }
    return new ConditionUpdate(
        type, Conditions.UNKNOWN, HEALTH_UNKNOWN, "No Machines reporting " + note + " status");
  }

  /** At most three names, then how many more, as Cluster API lists objects in a message. */
  private static String names(List<String> names) {
    if (names.size() <= 3) {
      return String.join(", ", names);
    }
    return String.join(", ", names.subList(0, 3)) + ", ... (" + (names.size() - 3) + " more)";
  }
}
