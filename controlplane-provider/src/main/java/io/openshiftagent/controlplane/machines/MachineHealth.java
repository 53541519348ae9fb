package io.openshiftagent.controlplane.machines;

import static io.openshiftagent.controlplane.names.ControlPlaneConditions.API_SERVER_POD_HEALTHY;
import static io.openshiftagent.controlplane.names.ControlPlaneConditions.CONTROLLER_MANAGER_POD_HEALTHY;
import static io.openshiftagent.controlplane.names.ControlPlaneConditions.ETCD_MEMBER_HEALTHY;
import static io.openshiftagent.controlplane.names.ControlPlaneConditions.HEALTHY;
import static io.openshiftagent.controlplane.names.ControlPlaneConditions.INSPECTION_FAILED;
import static io.openshiftagent.controlplane.names.ControlPlaneConditions.MACHINE_HEALTH_DELETING;
import static io.openshiftagent.controlplane.names.ControlPlaneConditions.NOT_HEALTHY;
import static io.openshiftagent.controlplane.names.ControlPlaneConditions.POD_DOES_NOT_EXIST;
import static io.openshiftagent.controlplane.names.ControlPlaneConditions.POD_FAILED;
import static io.openshiftagent.controlplane.names.ControlPlaneConditions.POD_PROVISIONING;
import static io.openshiftagent.controlplane.names.ControlPlaneConditions.POD_RUNNING;
import static io.openshiftagent.controlplane.names.ControlPlaneConditions.SCHEDULER_POD_HEALTHY;

import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.openshiftagent.api.common.Conditions;
import io.openshiftagent.api.external.capi.Machine;
import io.openshiftagent.controlplane.etcd.EtcdReport;
import io.openshiftagent.controlplane.names.ConditionUpdate;
import io.openshiftagent.provider.reconcile.Metadata;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A control-plane Machine's health as KubeadmControlPlane reports it (EtcdMemberHealthy,
 * APIServerPodHealthy, ControllerManagerPodHealthy, SchedulerPodHealthy, with its reasons and,
 * where they tell the user enough, its messages), read from what OpenShift runs: its static pods in
 * their own namespaces, the etcd member list ({@code etcdctl member list}) and what the etcd
 * operator reports of each member. Pure.
 */
public final class MachineHealth {
  private MachineHealth() {}

  /** An OpenShift control-plane component run as a static pod on each control-plane host. */
  public enum Component {
    API_SERVER("openshift-kube-apiserver", "kube-apiserver-", API_SERVER_POD_HEALTHY),
    CONTROLLER_MANAGER(
        "openshift-kube-controller-manager",
        "kube-controller-manager-",
        CONTROLLER_MANAGER_POD_HEALTHY),
    SCHEDULER("openshift-kube-scheduler", "openshift-kube-scheduler-", SCHEDULER_POD_HEALTHY);

    public final String namespace;
    private final String prefix;
    public final String condition;

    Component(String namespace, String prefix, String condition) {
      this.namespace = namespace;
      this.prefix = prefix;
      this.condition = condition;
    }

    /** The mirror pod's name: the static pod's name suffixed with its Node's, as kubelets do. */
    public String podName(String node) {
      return prefix + node;
    }
  }

  /** A read of the installed cluster, or why it failed. */
  public record Read<T>(Optional<T> value, String failure) {
    public static <T> Read<T> of(T value) {
      return new Read<>(Optional.of(value), "");
    }

    public static <T> Read<T> failed(String why) {
      return new Read<>(Optional.empty(), why);
    }
  }

  /**
   * What one look at the installed cluster found.
   *
   * @param nodes the control-plane Nodes by name
   * @param pods the components' pods by {@code namespace/name}
   * @param members the names of etcd's members, as {@code etcdctl member list} gives them
   * @param etcd what the etcd operator reports, if it could be read
   */
  public record Observed(
      Read<Map<String, Node>> nodes,
      Read<Map<String, Pod>> pods,
      Read<List<String>> members,
      Optional<EtcdReport> etcd) {}

  /** The four conditions of a Machine, EtcdMemberHealthy first. */
  public static List<ConditionUpdate> of(Machine machine, Observed observed) {
    List<ConditionUpdate> conditions = new ArrayList<>();
    Optional<ConditionUpdate> before = beforeTheNode(machine, ETCD_MEMBER_HEALTHY, observed);
    String node = MachineStatus.hasNode(machine) ? machine.getStatus().nodeRef.name : "";
    conditions.add(before.orElseGet(() -> member(node, observed)));
    for (Component component : Component.values()) {
      conditions.add(
          beforeTheNode(machine, component.condition, observed)
              .orElseGet(() -> pod(component, observed.nodes().value().get().get(node), observed)));
    }
    return conditions;
  }

  /**
   * The condition of a Machine being deleted, without a Node yet, or whose Node is gone or cannot
   * be read: whatever its component does.
   */
  private static Optional<ConditionUpdate> beforeTheNode(
      Machine machine, String type, Observed observed) {
    if (Metadata.isDeleting(machine)) {
      return Optional.of(
          ConditionUpdate.isFalse(type, MACHINE_HEALTH_DELETING, "Machine is deleting"));
    }
    if (!MachineStatus.hasNode(machine)) {
      String providerId = machine.getSpec() == null ? null : machine.getSpec().providerID;
      String kind =
          machine.getSpec() == null || machine.getSpec().infrastructureRef == null
              ? "the infrastructure machine"
              : machine.getSpec().infrastructureRef.kind;
      return Optional.of(
          unknown(
              type,
              providerId == null || providerId.isEmpty()
                  ? "Waiting for " + kind + " to report spec.providerID"
                  : "Waiting for a Node with spec.providerID " + providerId + " to exist"));
    }
    String node = machine.getStatus().nodeRef.name;
    if (observed.nodes().value().isEmpty()) {
      return Optional.of(
          unknown(
              type, "Failed to get the Node hosting the component: " + observed.nodes().failure()));
    }
    Node found = observed.nodes().value().get().get(node);
    if (found == null) {
      return Optional.of(unknown(type, "Node " + node + " does not exist"));
    }
    boolean unreachable =
        found.getSpec() != null
            && found.getSpec().getTaints() != null
            && found.getSpec().getTaints().stream()
                .anyMatch(
                    t ->
                        "node.kubernetes.io/unreachable".equals(t.getKey())
                            && "NoExecute".equals(t.getEffect()));
    if (unreachable) {
      return Optional.of(unknown(type, "Node " + node + " is unreachable"));
    }
    return Optional.empty();
  }

  /** EtcdMemberHealthy of a Machine whose Node is there. */
  static ConditionUpdate member(String node, Observed observed) {
    if (observed.members().value().isEmpty()) {
      return unknown(
          ETCD_MEMBER_HEALTHY, "Failed to get etcd members: " + observed.members().failure());
    }
    List<String> members = observed.members().value().get();
    if (!members.contains(node)) {
      return ConditionUpdate.isFalse(
          ETCD_MEMBER_HEALTHY,
          NOT_HEALTHY,
          "Etcd reports the cluster is composed by "
              + members
              + ", but the etcd member hosted on this Machine ("
              + node
              + ") is not included");
    }
    Optional<EtcdReport> report = observed.etcd();
    if (report.isPresent() && report.get().unhealthy().contains(node)) {
      return ConditionUpdate.isFalse(
          ETCD_MEMBER_HEALTHY,
          NOT_HEALTHY,
          "OpenShift's etcd operator reports etcd member " + node + " unhealthy");
    }
    if (report.isPresent() && report.get().notStarted().contains(node)) {
      return ConditionUpdate.isFalse(
          ETCD_MEMBER_HEALTHY,
          NOT_HEALTHY,
          "OpenShift's etcd operator reports etcd member " + node + " has not started");
    }
    return ConditionUpdate.isTrue(ETCD_MEMBER_HEALTHY, HEALTHY, "");
  }

  /** A component's condition from its static pod on a Node that is there. */
  static ConditionUpdate pod(Component component, Node node, Observed observed) {
    String type = component.condition;
    if (nodeReadyUnknown(node)) {
      return unknown(type, "Node Ready condition is Unknown, Pod data might be stale");
    }
    if (observed.pods().value().isEmpty()) {
      return unknown(type, "Failed to get the Pod: " + observed.pods().failure());
    }
    String name = component.podName(node.getMetadata().getName());
    Pod pod = observed.pods().value().get().get(component.namespace + "/" + name);
    if (pod == null) {
      return ConditionUpdate.isFalse(
          type, POD_DOES_NOT_EXIST, "Pod " + component.namespace + "/" + name + " does not exist");
    }
    return pod(type, pod);
  }

  /** The condition from a pod's phase, conditions and containers, as KCP reads a static pod. */
  static ConditionUpdate pod(String type, Pod pod) {
    String phase = pod.getStatus() == null ? "" : String.valueOf(pod.getStatus().getPhase());
    List<ContainerStatus> containers =
        pod.getStatus() == null || pod.getStatus().getContainerStatuses() == null
            ? List.of()
            : pod.getStatus().getContainerStatuses();
    switch (phase) {
      case "Pending":
        if (!podCondition(pod, "PodScheduled")) {
          return ConditionUpdate.isFalse(type, POD_PROVISIONING, "Waiting to be scheduled");
        }
        if (!podCondition(pod, "Initialized")) {
          return ConditionUpdate.isFalse(type, POD_PROVISIONING, "Running init containers");
        }
        return ConditionUpdate.isFalse(type, POD_PROVISIONING, "");
      case "Running":
        if (podCondition(pod, "Ready")) {
          return ConditionUpdate.isTrue(type, POD_RUNNING, "");
        }
        List<String> waiting = new ArrayList<>();
        boolean failedBefore = false;
        for (ContainerStatus c : containers) {
          if (c.getLastState() != null
              && c.getLastState().getTerminated() != null
              && !Integer.valueOf(0).equals(c.getLastState().getTerminated().getExitCode())) {
            failedBefore = true;
          }
          if (c.getState() != null && c.getState().getWaiting() != null) {
            waiting.add(c.getState().getWaiting().getReason());
          }
        }
        if (!waiting.isEmpty()) {
          return ConditionUpdate.isFalse(
              type, failedBefore ? POD_FAILED : POD_PROVISIONING, String.join(", ", waiting));
        }
        List<String> terminated =
            containers.stream()
                .filter(c -> c.getState() != null && c.getState().getTerminated() != null)
                .map(c -> c.getState().getTerminated().getReason())
                .toList();
        if (!terminated.isEmpty()) {
          return ConditionUpdate.isFalse(type, POD_FAILED, String.join(", ", terminated));
        }
        return ConditionUpdate.isFalse(
            type, POD_PROVISIONING, "Waiting for startup or readiness probes");
      case "Succeeded", "Failed":
        return ConditionUpdate.isFalse(type, POD_FAILED, "All the containers have been terminated");
      default:
        return unknown(type, "Pod is reporting Unknown status");
    }
  }

  private static boolean nodeReadyUnknown(Node node) {
    return node.getStatus() != null
        && node.getStatus().getConditions() != null
        && node.getStatus().getConditions().stream()
            .anyMatch(c -> "Ready".equals(c.getType()) && Conditions.UNKNOWN.equals(c.getStatus()));
  }

  private static boolean podCondition(Pod pod, String type) {
    return pod.getStatus() != null
        && pod.getStatus().getConditions() != null
        && pod.getStatus().getConditions().stream()
            .anyMatch(c -> type.equals(c.getType()) && "True".equals(c.getStatus()));
  }

  private static ConditionUpdate unknown(String type, String message) {
    return new ConditionUpdate(type, Conditions.UNKNOWN, INSPECTION_FAILED, message);
  }
}
