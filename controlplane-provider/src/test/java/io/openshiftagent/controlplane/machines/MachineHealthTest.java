package io.openshiftagent.controlplane.machines;

import static io.openshiftagent.controlplane.Fixtures.machine;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ContainerStatusBuilder;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodConditionBuilder;
import io.fabric8.kubernetes.api.model.TaintBuilder;
import io.openshiftagent.api.common.ContractVersionedObjectReference;
import io.openshiftagent.api.external.capi.Machine;
import io.openshiftagent.api.external.capi.MachineStatus;
import io.openshiftagent.controlplane.etcd.EtcdReport;
import io.openshiftagent.controlplane.names.ConditionUpdate;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The mapping of static pods and etcd members to a control-plane Machine's health conditions, as
 * KubeadmControlPlane's: status, reason and message for each state, and the control plane's
 * summary.
 */
class MachineHealthTest {
  private static final String NODE = "master-0";

  static Stream<Arguments> pods() {
    return Stream.of(
        Arguments.of("running and Ready", pod("Running", "Ready"), "True", "Running", ""),
        Arguments.of(
            "not scheduled", pod("Pending"), "False", "Provisioning", "Waiting to be scheduled"),
        Arguments.of(
            "init containers",
            pod("Pending", "PodScheduled"),
            "False",
            "Provisioning",
            "Running init containers"),
        Arguments.of(
            "pending, started",
            pod("Pending", "PodScheduled", "Initialized"),
            "False",
            "Provisioning",
            ""),
        Arguments.of(
            "crash loop",
            withContainer(pod("Running"), "CrashLoopBackOff", 1),
            "False",
            "Failed",
            "CrashLoopBackOff"),
        Arguments.of(
            "image pulled",
            withContainer(pod("Running"), "ContainerCreating", null),
            "False",
            "Provisioning",
            "ContainerCreating"),
        Arguments.of(
            "probes",
            pod("Running"),
            "False",
            "Provisioning",
            "Waiting for startup or readiness probes"),
        Arguments.of(
            "succeeded",
            pod("Succeeded"),
            "False",
            "Failed",
            "All the containers have been terminated"),
        Arguments.of(
            "failed", pod("Failed"), "False", "Failed", "All the containers have been terminated"),
        Arguments.of(
            "unknown",
            pod("Unknown"),
            "Unknown",
            "InspectionFailed",
            "Pod is reporting Unknown status"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("pods")
  void aStaticPodsStateIsItsComponentsCondition(
      String what, Pod pod, String status, String reason, String message) {
    assertThat(MachineHealth.pod("APIServerPodHealthy", pod))
        .isEqualTo(new ConditionUpdate("APIServerPodHealthy", status, reason, message));
  }

  @Test
  void aHealthyMachineHasFourTrueConditions() {
    assertThat(MachineHealth.of(withNode("m0", NODE), observed(healthyPods(NODE), NODE)))
        .containsExactly(
            new ConditionUpdate("EtcdMemberHealthy", "True", "Healthy", ""),
            new ConditionUpdate("APIServerPodHealthy", "True", "Running", ""),
            new ConditionUpdate("ControllerManagerPodHealthy", "True", "Running", ""),
            new ConditionUpdate("SchedulerPodHealthy", "True", "Running", ""));
  }

  @Test
  void theStaticPodsAreFoundUnderOpenShiftsNames() {
    Map<String, Pod> pods = healthyPods(NODE);
    assertThat(pods)
        .containsOnlyKeys(
            "openshift-kube-apiserver/kube-apiserver-master-0",
            "openshift-kube-controller-manager/kube-controller-manager-master-0",
            "openshift-kube-scheduler/openshift-kube-scheduler-master-0");
    pods.remove("openshift-kube-scheduler/openshift-kube-scheduler-master-0");
    assertThat(MachineHealth.of(withNode("m0", NODE), observed(pods, NODE)).get(3))
        .isEqualTo(
            ConditionUpdate.isFalse(
                "SchedulerPodHealthy",
                "DoesNotExist",
                "Pod openshift-kube-scheduler/openshift-kube-scheduler-master-0 does not exist"));
  }

  @Test
  void aMemberMissingFromEtcdOrReportedUnhealthyIsNotHealthy() {
    MachineHealth.Observed missing = observed(healthyPods(NODE), "master-1", "master-2");
    assertThat(MachineHealth.of(withNode("m0", NODE), missing).get(0))
        .isEqualTo(
            ConditionUpdate.isFalse(
                "EtcdMemberHealthy",
                "NotHealthy",
                "Etcd reports the cluster is composed by [master-1, master-2], but the etcd member"
                    + " hosted on this Machine (master-0) is not included"));

    EtcdReport report =
        new EtcdReport(Optional.of(3), true, Set.of(NODE), Set.of(), List.of(), false, "");
    MachineHealth.Observed unhealthy =
        new MachineHealth.Observed(
            MachineHealth.Read.of(Map.of(NODE, node(NODE, "True"))),
            MachineHealth.Read.of(healthyPods(NODE)),
            MachineHealth.Read.of(List.of(NODE, "master-1", "master-2")),
            Optional.of(report));
    assertThat(MachineHealth.of(withNode("m0", NODE), unhealthy).get(0))
        .isEqualTo(
            ConditionUpdate.isFalse(
                "EtcdMemberHealthy",
                "NotHealthy",
                "OpenShift's etcd operator reports etcd member master-0 unhealthy"));

    MachineHealth.Observed unreadable =
        new MachineHealth.Observed(
            MachineHealth.Read.of(Map.of(NODE, node(NODE, "True"))),
            MachineHealth.Read.of(healthyPods(NODE)),
            MachineHealth.Read.failed("no running, Ready etcd pod in openshift-etcd"),
            Optional.empty());
    assertThat(MachineHealth.of(withNode("m0", NODE), unreadable).get(0))
        .isEqualTo(
            new ConditionUpdate(
                "EtcdMemberHealthy",
                "Unknown",
                "InspectionFailed",
                "Failed to get etcd members: no running, Ready etcd pod in openshift-etcd"));
  }

  @Test
  void aMachineWithoutANodeOrBeingDeletedOrOnAnUnreachableNodeSaysSo() {
    Machine provisioning = machine("m1", "2026-01-01T00:00:00Z", null);
    provisioning.getSpec().infrastructureRef = new ContractVersionedObjectReference();
    provisioning.getSpec().infrastructureRef.kind = "Metal3Machine";
    MachineHealth.Observed observed = observed(healthyPods(NODE), NODE);
    assertThat(MachineHealth.of(provisioning, observed))
        .allMatch(c -> c.status().equals("Unknown") && c.reason().equals("InspectionFailed"))
        .allMatch(c -> c.message().equals("Waiting for Metal3Machine to report spec.providerID"));
    provisioning.getSpec().providerID = "metal3://ns/host/m1";
    assertThat(MachineHealth.of(provisioning, observed).get(0).message())
        .isEqualTo("Waiting for a Node with spec.providerID metal3://ns/host/m1 to exist");

    Machine deleting = withNode("m0", NODE);
    deleting.getMetadata().setDeletionTimestamp("2026-01-02T00:00:00Z");
    assertThat(MachineHealth.of(deleting, observed))
        .allMatch(
            c -> c.equals(ConditionUpdate.isFalse(c.type(), "Deleting", "Machine is deleting")));

    Machine gone = withNode("m2", "master-9");
    assertThat(MachineHealth.of(gone, observed))
        .allMatch(
            c ->
                c.status().equals("Unknown") && c.message().equals("Node master-9 does not exist"));

    Node unreachable = node(NODE, "Unknown");
    unreachable
        .getSpec()
        .setTaints(
            List.of(
                new TaintBuilder()
                    .withKey("node.kubernetes.io/unreachable")
                    .withEffect("NoExecute")
                    .build()));
    MachineHealth.Observed lost =
        new MachineHealth.Observed(
            MachineHealth.Read.of(Map.of(NODE, unreachable)),
            MachineHealth.Read.of(healthyPods(NODE)),
            MachineHealth.Read.of(List.of(NODE)),
            Optional.empty());
    assertThat(MachineHealth.of(withNode("m0", NODE), lost))
        .allMatch(
            c ->
                c.status().equals("Unknown") && c.message().equals("Node master-0 is unreachable"));

    unreachable.getSpec().setTaints(List.of());
    assertThat(MachineHealth.of(withNode("m0", NODE), lost).get(1))
        .isEqualTo(
            new ConditionUpdate(
                "APIServerPodHealthy",
                "Unknown",
                "InspectionFailed",
                "Node Ready condition is Unknown, Pod data might be stale"));
  }

  @Test
  void theControlPlaneSummarisesItsMachinesAsKubeadmControlPlaneDoes() {
    List<ConditionUpdate> healthy =
        MachineHealth.of(withNode("m0", NODE), observed(healthyPods(NODE), NODE));
    Map<String, List<ConditionUpdate>> byMachine = new LinkedHashMap<>();
    byMachine.put("m0", healthy);
    byMachine.put("m1", healthy);
    assertThat(HealthSummary.components(byMachine, Set.of(), List.of()))
        .isEqualTo(ConditionUpdate.isTrue("ControlPlaneComponentsHealthy", "Healthy", ""));

    List<ConditionUpdate> sick =
        List.of(
            ConditionUpdate.isFalse("EtcdMemberHealthy", "NotHealthy", "etcd down"),
            ConditionUpdate.isFalse("APIServerPodHealthy", "Failed", "CrashLoopBackOff"),
            ConditionUpdate.isTrue("ControllerManagerPodHealthy", "Running", ""),
            ConditionUpdate.isTrue("SchedulerPodHealthy", "Running", ""));
    byMachine.put("m2", sick);
    assertThat(
            HealthSummary.components(
                byMachine,
                Set.of(),
                List.of("Control plane Node x does not have a corresponding Machine")))
        .isEqualTo(
            ConditionUpdate.isFalse(
                "ControlPlaneComponentsHealthy",
                "NotHealthy",
                "* Machine m2:\n  * APIServerPodHealthy: CrashLoopBackOff\n"
                    + "* Control plane Node x does not have a corresponding Machine"));

    ConditionUpdate operator =
        ConditionUpdate.isTrue("EtcdClusterHealthy", "Healthy", "all 3 etcd members are healthy");
    assertThat(HealthSummary.etcd(operator, byMachine, Set.of()))
        .isEqualTo(
            ConditionUpdate.isFalse(
                "EtcdClusterHealthy",
                "NotHealthy",
                "* Machine m2:\n  * EtcdMemberHealthy: etcd down"));
    byMachine.put(
        "m2",
        List.of(
            new ConditionUpdate(
                "EtcdMemberHealthy", "Unknown", "InspectionFailed", "Failed to get etcd members")));
    assertThat(HealthSummary.etcd(operator, byMachine, Set.of())).isEqualTo(operator);
    byMachine.remove("m2");
    assertThat(HealthSummary.etcd(operator, byMachine, Set.of())).isEqualTo(operator);
  }

  // ---- fixtures ----

  private static MachineHealth.Observed observed(Map<String, Pod> pods, String... members) {
    return new MachineHealth.Observed(
        MachineHealth.Read.of(Map.of(NODE, node(NODE, "True"))),
        MachineHealth.Read.of(pods),
        MachineHealth.Read.of(List.of(members)),
        Optional.empty());
  }

  private static Map<String, Pod> healthyPods(String node) {
    Map<String, Pod> pods = new LinkedHashMap<>();
    for (MachineHealth.Component c : MachineHealth.Component.values()) {
      pods.put(
          c.namespace + "/" + c.podName(node),
          pod("Running", "PodScheduled", "Initialized", "Ready"));
    }
    return pods;
  }

  private static Machine withNode(String name, String node) {
    Machine m = machine(name, "2026-01-01T00:00:00Z", null);
    m.getSpec().providerID = "metal3://ns/host/" + name;
    m.setStatus(new MachineStatus());
    m.getStatus().nodeRef = new MachineStatus.NodeReference();
    m.getStatus().nodeRef.name = node;
    return m;
  }

  private static Node node(String name, String ready) {
    return new NodeBuilder()
        .withNewMetadata()
        .withName(name)
        .endMetadata()
        .withNewSpec()
        .endSpec()
        .withNewStatus()
        .addNewCondition()
        .withType("Ready")
        .withStatus(ready)
        .endCondition()
        .endStatus()
        .build();
  }

  /** A pod in {@code phase} whose listed conditions are True. */
  private static Pod pod(String phase, String... trueConditions) {
    return new PodBuilder()
        .withNewStatus()
        .withPhase(phase)
        .withConditions(
            Stream.of(trueConditions)
                .map(t -> new PodConditionBuilder().withType(t).withStatus("True").build())
                .toList())
        .endStatus()
        .build();
  }

  private static Pod withContainer(Pod pod, String waitingReason, Integer lastExitCode) {
    ContainerStatusBuilder status =
        new ContainerStatusBuilder()
            .withName("main")
            .withNewState()
            .withNewWaiting()
            .withReason(waitingReason)
            .endWaiting()
            .endState();
    if (lastExitCode != null) {
      status
          .withNewLastState()
          .withNewTerminated()
          .withExitCode(lastExitCode)
          .endTerminated()
          .endLastState();
    }
    pod.getStatus().setContainerStatuses(List.of(status.build()));
    return pod;
  }
}
