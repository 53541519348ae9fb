package io.openshiftagent.controlplane.machines;

import static io.openshiftagent.controlplane.names.ControlPlaneConditions.ETCD_MEMBER_HEALTHY;

import io.fabric8.kubernetes.api.model.Node;
import io.openshiftagent.api.common.Conditions;
import io.openshiftagent.api.external.capi.Machine;
import io.openshiftagent.controlplane.etcd.EtcdMembers;
import io.openshiftagent.controlplane.names.ConditionUpdate;
import io.openshiftagent.controlplane.scope.ControlPlaneScope;
import io.openshiftagent.provider.reconcile.Metadata;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;
import java.util.stream.Collectors;

/**
 * One look at the health of an installed control plane's Machines ({@link MachineHealth}), taken
 * when etcd's state is read: its control-plane Nodes, the components' static pods (one list per
 * namespace), etcd's member list ({@code etcdctl member list} exec'd in a Ready etcd pod) and the
 * etcd operator's report. A read that fails makes the conditions that need it Unknown.
 *
 * @param byMachine each Machine's four conditions, by name
 * @param controlPlane ControlPlaneComponentsHealthy, and EtcdClusterHealthy fed by the members
 */
record HealthLook(
    Map<String, List<ConditionUpdate>> byMachine, List<ConditionUpdate> controlPlane) {

  static HealthLook take(ControlPlaneScope scope, EtcdGuard etcd) {
    MachineHealth.Observed observed =
        new MachineHealth.Observed(
            read(
                () ->
                    scope.installed().controlPlaneNodes().stream()
                        .collect(
                            Collectors.toMap(n -> n.getMetadata().getName(), n -> n, (a, b) -> a))),
            read(
                () ->
                    scope
                        .installed()
                        .pods(
                            Arrays.stream(MachineHealth.Component.values())
                                .map(c -> c.namespace)
                                .toList())),
            read(() -> new EtcdMembers(scope.installed().client()).names()),
            etcd.report());
    Map<String, List<ConditionUpdate>> byMachine = new LinkedHashMap<>();
    for (Machine machine : scope.machines()) {
      byMachine.put(Metadata.name(machine), MachineHealth.of(machine, observed));
    }
    Set<String> provisioning =
        scope.machines().stream()
            .filter(m -> !MachineStatus.hasNode(m))
            .map(Metadata::name)
            .collect(Collectors.toSet());
    List<ConditionUpdate> controlPlane = new ArrayList<>();
    controlPlane.add(
        HealthSummary.components(byMachine, provisioning, errors(scope.machines(), observed)));
    etcd.health()
        .map(h -> HealthSummary.etcd(h, byMachine, provisioning))
        .ifPresent(controlPlane::add);
    return new HealthLook(byMachine, controlPlane);
  }

  /**
   * The conditions to write on a Machine: none when it was not looked at, nor while it has never
   * had a Node (Cluster API's own conditions say it is provisioning, and each Machine of an
   * installation would be written twice). A Machine that had them says why it has none now.
   */
  List<ConditionUpdate> of(Machine machine) {
    boolean reported =
        machine.getStatus() != null
            && Conditions.find(machine.getStatus().conditions, ETCD_MEMBER_HEALTHY).isPresent();
    if (!MachineStatus.hasNode(machine) && !reported) {
      return List.of();
    }
    return byMachine.getOrDefault(Metadata.name(machine), List.of());
  }

  /**
   * The control plane's own problems: a control-plane Node that no Machine holds, once every
   * Machine has its Node (one being provisioned may be about to hold it).
   */
  private static List<String> errors(List<Machine> machines, MachineHealth.Observed observed) {
    if (observed.nodes().value().isEmpty()
        || machines.stream().anyMatch(m -> !MachineStatus.hasNode(m))) {
      return List.of();
    }
    Set<String> held =
        machines.stream().map(m -> m.getStatus().nodeRef.name).collect(Collectors.toSet());
    Map<String, Node> nodes = observed.nodes().value().get();
    return nodes.keySet().stream()
        .filter(node -> !held.contains(node))
        .sorted()
        .map(node -> "Control plane Node " + node + " does not have a corresponding Machine")
        .toList();
  }

  private static <T> MachineHealth.Read<T> read(Supplier<T> read) {
    try {
      return MachineHealth.Read.of(read.get());
    } catch (RuntimeException e) {
      return MachineHealth.Read.failed(String.valueOf(e.getMessage()));
    }
  }
}
