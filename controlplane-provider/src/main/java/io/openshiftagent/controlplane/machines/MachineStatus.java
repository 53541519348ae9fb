package io.openshiftagent.controlplane.machines;

import static io.openshiftagent.controlplane.names.ControlPlaneConditions.MACHINES_READY;
import static io.openshiftagent.controlplane.names.ControlPlaneConditions.MACHINES_UP_TO_DATE;
import static io.openshiftagent.controlplane.names.ControlPlaneConditions.NOT_READY;
import static io.openshiftagent.controlplane.names.ControlPlaneConditions.NOT_ROLLING_OUT;
import static io.openshiftagent.controlplane.names.ControlPlaneConditions.NOT_UP_TO_DATE;
import static io.openshiftagent.controlplane.names.ControlPlaneConditions.NO_MACHINES;
import static io.openshiftagent.controlplane.names.ControlPlaneConditions.READY;
import static io.openshiftagent.controlplane.names.ControlPlaneConditions.REPLACING_NEVER_BOOTED_MACHINES;
import static io.openshiftagent.controlplane.names.ControlPlaneConditions.ROLLING_OUT;
import static io.openshiftagent.controlplane.names.ControlPlaneConditions.UP_TO_DATE;

import io.fabric8.kubernetes.api.model.Condition;
import io.openshiftagent.api.common.Conditions;
import io.openshiftagent.api.common.StatusVersion;
import io.openshiftagent.api.external.capi.Machine;
import io.openshiftagent.controlplane.names.ConditionUpdate;
import io.openshiftagent.controlplane.release.KubernetesVersions;
import io.openshiftagent.provider.contract.SharedNames;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * What the control plane reports about its Machines: the replica counts Cluster API reads, and the
 * MachinesReady, MachinesUpToDate and RollingOut conditions.
 */
public final class MachineStatus {
  private static final String BOOTSTRAP_CONFIG_READY = "BootstrapConfigReady";
  private static final Set<String> HOST_TROUBLE =
      Set.of(SharedNames.NO_DISK_MATCHES_ROOT_DEVICE_HINTS, SharedNames.HOST_VALIDATIONS_FAILING);

  private MachineStatus() {}

  /** status.replicas, readyReplicas, availableReplicas and upToDateReplicas. */
  public record Counts(int replicas, int ready, int available, int upToDate) {}

  /**
   * @param notUpToDate why each Machine that does not match the spec does not, by name
   */
  public static Counts counts(List<Machine> machines, Map<String, String> notUpToDate) {
    return new Counts(
        machines.size(),
        (int) machines.stream().filter(MachineStatus::isReady).count(),
        (int) machines.stream().filter(m -> hasTrueCondition(m, "Available")).count(),
        machines.size() - notUpToDate.size());
  }

  public static ConditionUpdate machinesReady(List<Machine> machines) {
    if (machines.isEmpty()) {
      return ConditionUpdate.isFalse(
          MACHINES_READY, NO_MACHINES, "no control-plane Machines exist yet");
    }
    List<String> notReady = notReady(machines);
    return notReady.isEmpty()
        ? ConditionUpdate.isTrue(
            MACHINES_READY, READY, "all " + machines.size() + " Machines are Ready")
        : ConditionUpdate.isFalse(MACHINES_READY, NOT_READY, "Machines not Ready: " + notReady);
  }

  /**
   * MachinesUpToDate and RollingOut: a rollout is the user deleting each outdated Machine, but for
   * those replaced because their hosts never booted.
   *
   * @param replacing the out-of-date Machines whose hosts never booted, being replaced
   */
  public static List<ConditionUpdate> upToDate(
      Map<String, String> notUpToDate, Set<String> replacing) {
    if (notUpToDate.isEmpty()) {
      return List.of(
          ConditionUpdate.isTrue(MACHINES_UP_TO_DATE, UP_TO_DATE, "all Machines match the spec"),
          ConditionUpdate.isFalse(ROLLING_OUT, NOT_ROLLING_OUT, "all Machines match the spec"));
    }
    String list =
        notUpToDate.entrySet().stream()
            .map(e -> e.getKey() + " (" + e.getValue() + ")")
            .collect(Collectors.joining("; "));
    List<String> byHand =
        notUpToDate.keySet().stream().filter(n -> !replacing.contains(n)).toList();
    String deleteThem =
        "delete them one at a time (OnDelete rollout) and each is replaced by a Machine made from"
            + " the current spec: "
            + String.join(", ", byHand);
    ConditionUpdate rollingOut =
        replacing.isEmpty()
            ? ConditionUpdate.isTrue(
                ROLLING_OUT,
                ROLLING_OUT,
                byHand.size() + " Machines do not match the spec: " + deleteThem)
            : ConditionUpdate.isTrue(
                ROLLING_OUT,
                REPLACING_NEVER_BOOTED_MACHINES,
                "replacing, one at a time, the Machines whose hosts never booted and that do not"
                    + " match the spec (the installation has not started): "
                    + String.join(", ", replacing)
                    + (byHand.isEmpty()
                        ? ""
                        : "; the others' hosts may have booted, " + deleteThem));
    return List.of(
        ConditionUpdate.isFalse(
            MACHINES_UP_TO_DATE, NOT_UP_TO_DATE, "Machines not up to date: " + list),
        rollingOut);
  }

  /**
   * status.versions (Cluster API v1.14): how many Machines' kubelets run each Kubernetes version,
   * oldest version first, as Cluster API aggregates them from the Machines' {@code
   * status.nodeInfo}; Machines without a Node are not counted.
   */
  public static List<StatusVersion> versions(List<Machine> machines) {
    Map<String, Integer> counts = new java.util.TreeMap<>(KubernetesVersions.ORDER);
    for (Machine machine : machines) {
      String version =
          machine.getStatus() == null || machine.getStatus().nodeInfo == null
              ? null
              : machine.getStatus().nodeInfo.kubeletVersion;
      if (version != null && !version.isBlank()) {
        counts.merge(version, 1, Integer::sum);
      }
    }
    return counts.entrySet().stream()
        .map(e -> new StatusVersion(e.getKey(), e.getValue()))
        .toList();
  }

  /** The names of the Machines that are not Ready. */
  /**
   * The Machines whose host's installation is held back, each as {@code Machine <name>: <why>}: its
   * BootstrapConfigReady (Cluster API's mirror of its config's Ready) False for want of a disk or
   * for failing validations, with the config's message.
   */
  public static List<String> hostsHeldBack(List<Machine> machines) {
    return machines.stream()
        .flatMap(
            m ->
                Optional.ofNullable(m.getStatus())
                    .flatMap(s -> Conditions.find(s.conditions, BOOTSTRAP_CONFIG_READY))
                    .filter(c -> Conditions.FALSE.equals(c.getStatus()))
                    .filter(c -> HOST_TROUBLE.contains(c.getReason()))
                    .map(c -> "Machine " + m.getMetadata().getName() + ": " + c.getMessage())
                    .stream())
        .toList();
  }

  /** The names of the Machines not Ready, sorted: the same Machines make the same message. */
  public static List<String> notReady(List<Machine> machines) {
    return machines.stream()
        .filter(m -> !isReady(m))
        .map(m -> m.getMetadata().getName())
        .sorted()
        .toList();
  }

  public static boolean isReady(Machine machine) {
    return hasTrueCondition(machine, "Ready");
  }

  private static boolean hasTrueCondition(Machine machine, String type) {
    return machine.getStatus() != null && Conditions.isTrue(machine.getStatus().conditions, type);
  }

  /** Whether the Machine has a Node (its host was provisioned and joined). */
  public static boolean hasNode(Machine machine) {
    return machine.getStatus() != null
        && machine.getStatus().nodeRef != null
        && machine.getStatus().nodeRef.name != null
        && !machine.getStatus().nodeRef.name.isEmpty();
  }

  /** Whether the Machine has a condition of {@code type} and it is False (not merely unset). */
  public static boolean isFalse(Machine machine, String type) {
    return condition(machine, type).map(c -> Conditions.FALSE.equals(c.getStatus())).orElse(false);
  }

  public static boolean isTrue(Machine machine, String type) {
    return condition(machine, type).map(c -> Conditions.TRUE.equals(c.getStatus())).orElse(false);
  }

  private static Optional<Condition> condition(Machine machine, String type) {
    return machine.getStatus() == null
        ? Optional.empty()
        : Conditions.find(machine.getStatus().conditions, type);
  }
}
