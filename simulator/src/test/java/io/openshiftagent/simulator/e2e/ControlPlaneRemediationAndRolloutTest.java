package io.openshiftagent.simulator.e2e;

import static io.openshiftagent.simulator.Fields.conditionTrue;
import static io.openshiftagent.simulator.Fields.string;
import static io.openshiftagent.simulator.e2e.ClusterScenario.name;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.openshiftagent.simulator.ApiVersions;
import io.openshiftagent.simulator.Fields;
import io.openshiftagent.simulator.WorkloadStatus;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.parallel.ResourceAccessMode;
import org.junit.jupiter.api.parallel.ResourceLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The control-plane lifecycle of one installed HA cluster (3 control-plane hosts) with the real
 * Cluster API manager (its MachineHealthCheck and Machine controllers), CAPM3 and BMO, and the
 * installed cluster's real etcd (one member per control-plane host, its membership kept by the
 * simulated etcd operator, members removed by the control-plane provider's {@code etcdctl member
 * remove} exec'd through the cluster's kube-apiserver): a MachineHealthCheck's unhealthy Machine
 * replaced while a second failure waits; a RollingUpdate of every Machine one by one; an unsafe
 * scale-down refused while an etcd member is down, done once it runs again, and meanwhile an API
 * server that crash-loops, named on its Machine and the control plane until it runs again. Each
 * step starts where the previous one left the cluster, which stays Available throughout, and etcd
 * commits a write every second throughout ({@link EtcdQuorumWatch}). Each step prints {@code
 * etcdctl member list} before and after.
 */
@ResourceLock(value = E2eWorld.WORLD, mode = ResourceAccessMode.READ)
// Among the longest classes on the shared world: started first, so that the phase does not end on
// it.
@Order(1)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ControlPlaneRemediationAndRolloutTest {
  private static final Logger LOG =
      LoggerFactory.getLogger(ControlPlaneRemediationAndRolloutTest.class);

  @RegisterExtension static final E2eWorld world = new E2eWorld();

  private static final String CONTROL_PLANE = "test-multinode";

  private static ClusterScenario cluster;
  private static long started;

  @BeforeAll
  static void installCluster() {
    started = System.nanoTime();
    cluster = world.scenario("e2e-lifecycle", CONTROL_PLANE);
    // 3 control-plane hosts and 2 spares for the replacements (a released host is reused).
    cluster.enrolHosts(5);
    cluster.apply("/e2e/ha.yaml", Map.of("BOOT_MODE", "DiskImage", "WORKERS", "0"));
    cluster.awaitInstalled(3);
    cluster.await("etcd to have the 3 control-plane hosts as members", () -> membersMatchNodes(3));
    cluster.await(
        "the health of etcd's member and of each static pod True on the 3 Machines",
        () -> machinesHealthy(3));
    printMemberList("installed");
  }

  @AfterAll
  static void printDuration() {
    LOG.info(
        "ControlPlaneRemediationAndRolloutTest: {} s from the cluster's creation",
        (System.nanoTime() - started) / 1_000_000_000);
  }

  @Test
  @Order(1)
  void aMachineHealthCheckReplacesAnUnhealthyHostWhileASecondFailureWaits() throws Exception {
    cluster.apply("/e2e/control-plane-health-check.yaml", Map.of());
    List<GenericKubernetesResource> before = cluster.controlPlaneMachines();
    Set<String> original = before.stream().map(ClusterScenario::name).collect(Collectors.toSet());
    GenericKubernetesResource first = before.get(0);
    GenericKubernetesResource second = before.get(1);
    String firstNode = node(first);
    String secondNode = node(second);
    AtomicBoolean secondDeletedEarly = new AtomicBoolean();
    // Holds the replacement without a Node while the second failure comes: its host hangs before
    // its operating system starts. Only this namespace's hosts: the world is shared.
    world.world().hangBoots(cluster.namespace(), true);
    Map<String, String> ids = memberIds();
    printMemberList("before the remediation");

    try (AvailableThroughout available = new AvailableThroughout(m -> {});
        EtcdQuorumWatch quorum = quorumWatch()) {
      setNodeReady(firstNode, false);
      cluster.await(
          "the MachineHealthCheck to mark "
              + name(first)
              + ", the control plane to delete it, remove its etcd member and make its replacement",
          // The member of a departed host goes after its Machine, once etcd can do without it.
          () ->
              gone(first) && replacements(original).size() == 1 && !members().contains(firstNode));
      String replacement = name(replacements(original).get(0));
      assertThat(members()).doesNotContain(firstNode);
      assertThat(removed()).containsExactly(firstNode);

      // A second host fails while the first one's replacement is being provisioned.
      setNodeReady(secondNode, false);
      cluster.await(
          "the second unhealthy Machine's remediation deferred, saying why",
          () -> {
            Map<String, Object> owner = condition(machine(name(second)), "OwnerRemediated");
            return owner != null
                && "RemediationDeferred".equals(owner.get("reason"))
                && "WaitingForMachineProvisioning"
                    .equals(reason(cluster.controlPlane(), "Remediating"));
          });
      assertThat((String) condition(cluster.controlPlane(), "Remediating").get("message"))
          .contains(replacement)
          .contains(name(second));
      assertThat(isDeleting(second)).isFalse();
      world.world().hangBoots(cluster.namespace(), false);

      // The second goes only once the first's replacement has a Node.
      cluster.await(
          "both unhealthy Machines replaced, their members removed from etcd",
          () -> {
            if (isDeleting(second)
                && replacements(original).stream().allMatch(m -> node(m) == null)) {
              secondDeletedEarly.set(true);
            }
            return gone(second) && cluster.isInstalled(3) && membersMatchNodes(3);
          });
      assertThat(secondDeletedEarly).as("second deleted before the first was replaced").isFalse();
      assertThat(available.lapses()).as("the control plane not Available at times").isEmpty();
      assertQuorumKept(quorum);
    } finally {
      world.world().hangBoots(cluster.namespace(), false);
    }
    // The departed members were removed, in turn (a released host may join again later, as a new
    // member under its old name); etcd's members are the control-plane Nodes, each with its
    // Secrets and no others'.
    assertThat(removed()).containsExactly(firstNode, secondNode);
    assertRemovedByTheProvider(ids.get(firstNode), ids.get(secondNode));
    printMemberList("after the remediation");
    List<String> members = members();
    assertThat(cluster.nodesWithRole("control-plane")).containsExactlyInAnyOrderElementsOf(members);
    assertThat(
            cluster.workload().secrets().inNamespace("openshift-etcd").list().getItems().stream()
                .map(s -> s.getMetadata().getName()))
        .as("the etcd Secrets: only the members'")
        .hasSize(3 * members.size())
        .allMatch(s -> members.stream().anyMatch(m -> s.endsWith("-" + m)));
    assertThat(string(cluster.controlPlane(), "status", "lastRemediation", "machine"))
        .isEqualTo(name(second));
    cluster.await(
        "etcd and the components reported healthy, on the control plane and its 3 Machines, and"
            + " the quorum guard back on",
        () ->
            conditionTrue(cluster.controlPlane(), "EtcdClusterHealthy")
                && conditionTrue(cluster.controlPlane(), "ControlPlaneComponentsHealthy")
                && machinesHealthy(3)
                && !quorumGuardOff());
  }

  @Test
  @Order(2)
  void aRollingUpdateReplacesEveryHostOneByOneWhileAvailable() {
    List<String> old = cluster.controlPlaneMachines().stream().map(ClusterScenario::name).toList();
    Set<String> oldNodes =
        cluster.controlPlaneMachines().stream()
            .map(ControlPlaneRemediationAndRolloutTest::node)
            .collect(Collectors.toSet());
    int removedBefore = removed().size();
    AtomicInteger most = new AtomicInteger();

    try (AvailableThroughout available =
            new AvailableThroughout(machines -> most.accumulateAndGet(machines, Math::max));
        EtcdQuorumWatch quorum = quorumWatch()) {
      String after = Instant.now().truncatedTo(ChronoUnit.SECONDS).toString();
      cluster.patch(
          ApiVersions.CONTROL_PLANE,
          "OpenshiftAssistedControlPlane",
          CONTROL_PLANE,
          Map.of(
              "spec",
              Map.of(
                  "rollout", Map.of("after", after, "strategy", Map.of("type", "RollingUpdate")))));
      cluster.await(
          "every control-plane Machine replaced and up to date",
          () ->
              cluster.controlPlaneMachines().stream()
                      .map(ClusterScenario::name)
                      .noneMatch(old::contains)
                  && cluster.isInstalled(3)
                  && conditionTrue(cluster.controlPlane(), "MachinesUpToDate")
                  && membersMatchNodes(3));
      assertThat(available.lapses()).as("the control plane not Available at times").isEmpty();
      assertQuorumKept(quorum);
    }
    printMemberList("after the rolling update");
    // maxSurge 1: never more than one Machine beside the 3 replicas.
    assertThat(most.get()).isEqualTo(4);
    assertThat(reason(cluster.controlPlane(), "RollingOut")).isEqualTo("NotRollingOut");
    // Each old host's etcd member was removed once its Machine was gone.
    List<String> removed = removed();
    assertThat(removed.subList(removedBefore, removed.size()))
        .containsExactlyInAnyOrderElementsOf(oldNodes);
  }

  @Test
  @Order(3)
  void anUnsafeScaleDownWaitsForEtcdWhileEachUnhealthyMemberOrPodIsNamedOnItsMachine() {
    setReplicas(4);
    cluster.awaitInstalled(4);
    cluster.await("etcd to have the 4 control-plane hosts as members", () -> membersMatchNodes(4));
    cluster.await(
        "the health of etcd's member and of each static pod True on the 4 Machines",
        () -> machinesHealthy(4));
    Map<String, String> ids = memberIds();
    printMemberList("before the scale-down");
    EtcdQuorumWatch quorum = quorumWatch();
    List<GenericKubernetesResource> machines = cluster.controlPlaneMachines();
    GenericKubernetesResource victim = machines.get(0);
    String degraded = node(machines.get(1));
    cluster.markForDeletion(victim);
    world.world().setEtcdMemberDegraded(cluster.namespace(), CONTROL_PLANE, degraded, true);
    cluster.await(
        "the control plane to report etcd unhealthy",
        () -> "NotHealthy".equals(reason(cluster.controlPlane(), "EtcdClusterHealthy")));
    // The degraded member's Machine says so; the others' members stay healthy.
    GenericKubernetesResource degradedMachine = machines.get(1);
    cluster.await(
        "EtcdMemberHealthy False on the Machine of the stopped member",
        () -> "NotHealthy".equals(reason(machine(name(degradedMachine)), "EtcdMemberHealthy")));
    assertThat(
            (String) condition(machine(name(degradedMachine)), "EtcdMemberHealthy").get("message"))
        .contains(degraded);
    assertThat(machines.stream().filter(m -> m != degradedMachine))
        .allMatch(m -> conditionTrue(machine(name(m)), "EtcdMemberHealthy"));

    setReplicas(3);
    cluster.await(
        "the scale-down refused for etcd's sake",
        () -> "WaitingForEtcd".equals(reason(cluster.controlPlane(), "ScalingDown")));
    Map<String, Object> refused = condition(cluster.controlPlane(), "ScalingDown");
    assertThat((String) refused.get("message"))
        .contains("would leave 2 healthy etcd members of 4")
        .contains(degraded);
    assertThat(isDeleting(victim)).isFalse();
    assertThat(cluster.controlPlaneMachines()).hasSize(4);

    // While it waits, a third host's API server crash-loops: its Machine and the control plane name
    // it until it runs again, and no Machine is replaced for it (the MachineHealthCheck looks at
    // the Node alone).
    GenericKubernetesResource crashing = machines.get(2);
    setApiServerCrashLooping(node(crashing), true);
    cluster.await(
        "APIServerPodHealthy False on the Machine whose API server crash-loops, and"
            + " ControlPlaneComponentsHealthy False on the control plane, naming it",
        () ->
            "Failed".equals(reason(machine(name(crashing)), "APIServerPodHealthy"))
                && String.valueOf(message(cluster.controlPlane(), "ControlPlaneComponentsHealthy"))
                    .contains(name(crashing)));
    assertThat(message(machine(name(crashing)), "APIServerPodHealthy"))
        .contains("CrashLoopBackOff");
    assertThat(reason(cluster.controlPlane(), "ControlPlaneComponentsHealthy"))
        .isEqualTo("NotHealthy");
    assertThat(message(cluster.controlPlane(), "ControlPlaneComponentsHealthy"))
        .contains("CrashLoopBackOff");
    assertThat(conditionTrue(machine(name(crashing)), "ControllerManagerPodHealthy")).isTrue();
    assertThat(conditionTrue(machine(name(crashing)), "SchedulerPodHealthy")).isTrue();
    assertThat(machines.stream().filter(m -> m != crashing))
        .allMatch(m -> conditionTrue(machine(name(m)), "APIServerPodHealthy"));
    setApiServerCrashLooping(node(crashing), false);
    cluster.await(
        "APIServerPodHealthy and ControlPlaneComponentsHealthy True again once it runs",
        () ->
            conditionTrue(machine(name(crashing)), "APIServerPodHealthy")
                && conditionTrue(cluster.controlPlane(), "ControlPlaneComponentsHealthy"));
    assertThat(cluster.controlPlaneMachines().stream().map(ClusterScenario::name))
        .containsExactlyInAnyOrderElementsOf(machines.stream().map(ClusterScenario::name).toList());

    world.world().setEtcdMemberDegraded(cluster.namespace(), CONTROL_PLANE, degraded, false);
    cluster.await(
        "the scale-down done once etcd is healthy",
        () -> gone(victim) && cluster.isInstalled(3) && membersMatchNodes(3));
    quorum.close();
    assertQuorumKept(quorum);
    assertThat(members()).doesNotContain(node(victim)).contains(degraded);
    assertThat(removed()).last().isEqualTo(node(victim));
    assertRemovedByTheProvider(ids.get(node(victim)));
    cluster.await(
        "EtcdMemberHealthy True again on the Machine of the restarted member",
        () -> machinesHealthy(3));
    printMemberList("after the scale-down");
  }

  // ---- what happens in the installed cluster ----

  /** The kubelet stops (or starts again) posting Ready: the Node's Ready condition. */
  private static void setNodeReady(String node, boolean ready) {
    Map<String, Object> condition =
        Map.of(
            "type",
            "Ready",
            "status",
            ready ? "True" : "False",
            "reason",
            ready ? "KubeletReady" : "KubeletNotReady",
            "message",
            ready ? "kubelet is posting ready status" : "container runtime is down",
            "lastHeartbeatTime",
            Fields.now(),
            "lastTransitionTime",
            Fields.now());
    cluster
        .workload()
        .nodes()
        .withName(node)
        .subresource("status")
        .patch(
            PatchContext.of(PatchType.STRATEGIC_MERGE),
            Serialization.asJson(Map.of("status", Map.of("conditions", List.of(condition)))));
  }

  /**
   * The kubelet's word on the API server's static pod on {@code node}: its container exited with an
   * error and waits in back-off before its next start, or it runs again.
   */
  private static void setApiServerCrashLooping(String node, boolean crashLooping) {
    String now = Fields.now();
    Map<String, Object> container = new LinkedHashMap<>();
    container.put("name", "kube-apiserver");
    container.put("image", "quay.io/openshift-release-dev/ocp-v4.0-art-dev:hyperkube");
    container.put("imageID", "");
    container.put("ready", !crashLooping);
    container.put("restartCount", 3);
    container.put(
        "state",
        crashLooping
            ? Map.of(
                "waiting",
                Map.of(
                    "reason",
                    "CrashLoopBackOff",
                    "message",
                    "back-off 40s restarting failed container=kube-apiserver"))
            : Map.of("running", Map.of("startedAt", now)));
    container.put(
        "lastState",
        Map.of(
            "terminated",
            Map.of("exitCode", 1, "reason", "Error", "startedAt", now, "finishedAt", now)));
    Map<String, Boolean> conditions = new LinkedHashMap<>();
    for (String type : List.of("PodScheduled", "Initialized", "ContainersReady", "Ready")) {
      conditions.put(type, !(crashLooping && type.endsWith("Ready")));
    }
    Map<String, Object> status = new LinkedHashMap<>(WorkloadStatus.runningPod(conditions));
    status.put("containerStatuses", List.of(container));
    WorkloadStatus.merge(
        cluster
            .workload()
            .pods()
            .inNamespace("openshift-kube-apiserver")
            .withName("kube-apiserver-" + node),
        status);
  }

  private static void setReplicas(int replicas) {
    cluster.setSpec(
        ApiVersions.CONTROL_PLANE,
        "OpenshiftAssistedControlPlane",
        CONTROL_PLANE,
        "replicas",
        replicas);
  }

  // ---- etcd ----

  private static EtcdQuorumWatch quorumWatch() {
    return new EtcdQuorumWatch(world.world(), cluster.namespace(), CONTROL_PLANE);
  }

  private static void assertQuorumKept(EtcdQuorumWatch quorum) {
    LOG.info(
        "etcd committed {} writes, one a second, during the step; refused alone: {}",
        quorum.writes(),
        quorum.blips());
    assertThat(quorum.lapses()).as("etcd refused writes: quorum lost").isEmpty();
    assertThat(quorum.writes()).isPositive();
  }

  private static Map<String, String> memberIds() {
    return EtcdQuorumWatch.memberIds(world.world(), cluster.namespace(), CONTROL_PLANE);
  }

  /**
   * The last members etcd removed are these IDs (as read from its member list before), no longer
   * listed, each removed by the control-plane provider, whose Event names the ID it removed.
   */
  private static void assertRemovedByTheProvider(String... hexIds) {
    List<String> removedIds =
        world.world().etcdMemberIdsRemoved(cluster.namespace(), CONTROL_PLANE);
    assertThat(removedIds.subList(removedIds.size() - hexIds.length, removedIds.size()))
        .containsExactly(hexIds);
    assertThat(memberIds().values()).doesNotContain(hexIds);
    List<String> removals =
        cluster.hub().v1().events().inNamespace(cluster.namespace()).list().getItems().stream()
            .filter(e -> "EtcdMemberRemoved".equals(e.getReason()))
            .map(io.fabric8.kubernetes.api.model.Event::getMessage)
            .toList();
    for (String hex : hexIds) {
      assertThat(removals).anyMatch(m -> m.contains("(ID " + hex + ")"));
    }
  }

  private static void printMemberList(String when) {
    String list = world.world().etcdctl(cluster.namespace(), CONTROL_PLANE, "member", "list");
    LOG.info("etcdctl member list, {}:\n{}", when, list.strip());
  }

  // ---- reading ----

  private static List<String> members() {
    return world.world().etcdMembers(cluster.namespace(), CONTROL_PLANE);
  }

  private static List<String> removed() {
    return world.world().etcdMembersRemoved(cluster.namespace(), CONTROL_PLANE);
  }

  /** Etcd's members are exactly the Nodes of the control-plane Machines, {@code count} of them. */
  private static boolean membersMatchNodes(int count) {
    Set<String> nodes =
        cluster.controlPlaneMachines().stream()
            .map(ControlPlaneRemediationAndRolloutTest::node)
            .filter(n -> n != null)
            .collect(Collectors.toSet());
    return nodes.size() == count && Set.copyOf(members()).equals(nodes);
  }

  /**
   * {@code count} control-plane Machines, each reporting its etcd member and its API server,
   * controller manager and scheduler static pods healthy.
   */
  private static boolean machinesHealthy(int count) {
    List<GenericKubernetesResource> machines = cluster.controlPlaneMachines();
    return machines.size() == count
        && machines.stream()
            .allMatch(
                m ->
                    Stream.of(
                            "EtcdMemberHealthy",
                            "APIServerPodHealthy",
                            "ControllerManagerPodHealthy",
                            "SchedulerPodHealthy")
                        .allMatch(type -> conditionTrue(m, type)));
  }

  /** The control-plane Machines made since {@code original} existed. */
  private static List<GenericKubernetesResource> replacements(Set<String> original) {
    return cluster.controlPlaneMachines().stream()
        .filter(m -> !original.contains(name(m)))
        .toList();
  }

  private static boolean quorumGuardOff() {
    GenericKubernetesResource etcd =
        cluster
            .workload()
            .genericKubernetesResources("operator.openshift.io/v1", "Etcd")
            .withName("cluster")
            .get();
    return Fields.get(
            etcd,
            "spec",
            "unsupportedConfigOverrides",
            "useUnsupportedUnsafeNonHANonProductionUnstableEtcd")
        != null;
  }

  private static GenericKubernetesResource machine(String name) {
    return cluster.get(ApiVersions.CAPI, "Machine", name);
  }

  private static String node(GenericKubernetesResource machine) {
    return string(machine, "status", "nodeRef", "name");
  }

  private static boolean gone(GenericKubernetesResource machine) {
    return machine(name(machine)) == null;
  }

  private static boolean isDeleting(GenericKubernetesResource machine) {
    GenericKubernetesResource current = machine(name(machine));
    return current != null && current.getMetadata().getDeletionTimestamp() != null;
  }

  private static Map<String, Object> condition(GenericKubernetesResource object, String type) {
    return Fields.findCondition(object, type).orElse(null);
  }

  private static String message(GenericKubernetesResource object, String type) {
    Map<String, Object> condition = condition(object, type);
    return condition == null ? null : (String) condition.get("message");
  }

  private static String reason(GenericKubernetesResource object, String type) {
    Map<String, Object> condition = condition(object, type);
    return condition == null ? null : (String) condition.get("reason");
  }

  /**
   * Looks at the control plane every 250 ms in the background while a step runs: each time it is
   * not Available is a lapse; {@code machines} is told how many control-plane Machines exist.
   */
  private static final class AvailableThroughout implements AutoCloseable {
    private final List<String> lapses = new CopyOnWriteArrayList<>();
    private final AtomicBoolean running = new AtomicBoolean(true);
    private final Thread looker;

    AvailableThroughout(Consumer<Integer> machines) {
      looker =
          new Thread(
              () -> {
                while (running.get()) {
                  Map<String, Object> available = condition(cluster.controlPlane(), "Available");
                  if (available == null || !"True".equals(available.get("status"))) {
                    lapses.add(String.valueOf(available));
                  }
                  machines.accept(cluster.controlPlaneMachines().size());
                  try {
                    Thread.sleep(250);
                  } catch (InterruptedException e) {
                    return;
                  }
                }
              },
              "available-throughout");
      looker.start();
    }

    List<String> lapses() {
      return new ArrayList<>(lapses);
    }

    @Override
    public void close() {
      running.set(false);
      looker.interrupt();
      try {
        looker.join();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }
}
