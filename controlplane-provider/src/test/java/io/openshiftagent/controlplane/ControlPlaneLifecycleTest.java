package io.openshiftagent.controlplane;

import static io.openshiftagent.controlplane.Fixtures.names;
import static io.openshiftagent.provider.testing.ClusterApi.condition;
import static io.openshiftagent.provider.testing.TestWorld.eventually;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.javaoperatorsdk.operator.Operator;
import io.openshiftagent.api.bootstrap.v1alpha2.OpenshiftAssistedConfig;
import io.openshiftagent.api.common.ObjectMetaTemplate;
import io.openshiftagent.api.common.StatusVersion;
import io.openshiftagent.api.controlplane.v1alpha3.OpenshiftAssistedControlPlane;
import io.openshiftagent.api.controlplane.v1alpha3.RemediationSpec;
import io.openshiftagent.api.external.capi.Machine;
import io.openshiftagent.controlplane.etcd.EtcdMembers;
import io.openshiftagent.controlplane.machines.RemediationData;
import io.openshiftagent.provider.reconcile.EventRecorder;
import io.openshiftagent.provider.testing.TestWorld;
import io.openshiftagent.testsupport.KubeApiServerEnvironment;
import io.openshiftagent.testsupport.TestPaths;
import io.openshiftagent.testsupport.WithKubeApiServer;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The control-plane lifecycle on real API servers: in-place propagation, remediation, etcd checks
 * before a host goes, the pre-terminate hook and the quorum guard. The test plays Cluster API's
 * Machine controller and MachineHealthCheck, assisted-service, and, in an installed cluster (a
 * second API server with OpenShift's Etcd and ClusterOperator CRDs), the etcd operator's reports.
 * The removal of a member with etcdctl needs an etcd pod and a kubelet to exec into, which this
 * tier has not: here it fails, and the test shows the failure reported (EtcdMemberRemovalFailed)
 * and the new host held. The world's ControlPlaneRemediationAndRolloutTest removes real etcd
 * members end to end, through a kubelet server (kwok) and the real etcdctl.
 */
@WithKubeApiServer
class ControlPlaneLifecycleTest {
  private static final String HOOK =
      "pre-terminate.delete.hook.machine.cluster.x-k8s.io/openshift-agent-etcd";
  private static Operator operator;
  private static KubernetesClient client;
  private static KubeApiServerEnvironment env;
  private static KubeApiServerEnvironment remediationWorkload;
  private static KubeApiServerEnvironment etcdWorkload;
  private static KubeApiServerEnvironment rollingWorkload;

  @BeforeAll
  static void start() {
    env = KubeApiServerEnvironment.shared();
    client = env.client();
    CompletableFuture<KubeApiServerEnvironment> first =
        CompletableFuture.supplyAsync(
            () -> KubeApiServerEnvironment.startIndependent(List.of(TestPaths.workloadCrds())));
    CompletableFuture<KubeApiServerEnvironment> second =
        CompletableFuture.supplyAsync(
            () -> KubeApiServerEnvironment.startIndependent(List.of(TestPaths.workloadCrds())));
    etcdWorkload = KubeApiServerEnvironment.startIndependent(List.of(TestPaths.workloadCrds()));
    remediationWorkload = first.join();
    rollingWorkload = second.join();
    operator = Fixtures.startProvider(env);
  }

  @AfterAll
  static void stop() {
    operator.stop();
  }

  @Test
  void templateMetadataAndMachineSpecFieldsChangeInPlaceWithoutARollout() {
    TestWorld c = Fixtures.provisioned(env, "inplace");
    OpenshiftAssistedControlPlane cp = Fixtures.controlPlane(c.ns, "cp", 3);
    cp.getSpec().machineTemplate.metadata = new ObjectMetaTemplate();
    cp.getSpec().machineTemplate.metadata.labels = Map.of("team", "infra", "old", "x");
    cp.getSpec().machineTemplate.metadata.annotations = Map.of("note", "a");
    cp.getMetadata().setLabels(Map.of("site", "edge"));
    c.providers.createControlPlane(cp);
    eventually(() -> assertThat(c.machines()).hasSize(3));
    Set<String> names = names(c.machines());
    Machine first = c.machines().get(0);
    assertThat(first.getMetadata().getAnnotations()).containsKey(HOOK);
    // Someone else's label and annotation on a Machine, a config and an infrastructure machine.
    String name = first.getMetadata().getName();
    String theirs =
        "{\"metadata\":{\"labels\":{\"theirs\":\"1\"},\"annotations\":{\"their-note\":\"1\"}}}";
    c.resource(Machine.class, name).patch(PatchContext.of(PatchType.JSON_MERGE), theirs);
    c.resource(OpenshiftAssistedConfig.class, name)
        .patch(PatchContext.of(PatchType.JSON_MERGE), theirs);
    metal3Machine(c, name).patch(PatchContext.of(PatchType.JSON_MERGE), theirs);

    c.resource(OpenshiftAssistedControlPlane.class, "cp")
        .patch(
            PatchContext.of(PatchType.JSON_MERGE),
            "{\"metadata\":{\"labels\":{\"site\":\"core\"},\"annotations\":{\"openshiftassistedconfig.cluster.x-k8s.io/discovery-ignition-override\":\"{}\"}},"
                + "\"spec\":{\"machineTemplate\":{"
                + "\"metadata\":{\"labels\":{\"team\":\"platform\",\"old\":null,\"new\":\"y\"},\"annotations\":{\"note\":null}},"
                + "\"spec\":{\"readinessGates\":[{\"conditionType\":\"ExampleReady\"}],"
                + "\"taints\":[{\"key\":\"example.com/dedicated\",\"effect\":\"NoSchedule\",\"propagation\":\"Always\"}],"
                + "\"minReadySeconds\":20,\"deletion\":{\"nodeDrainTimeoutSeconds\":300}}}}}");

    eventually(
        () -> {
          for (Machine m : c.machines()) {
            assertThat(m.getMetadata().getLabels())
                .containsEntry("team", "platform")
                .containsEntry("new", "y")
                .doesNotContainKey("old");
            assertThat(m.getMetadata().getAnnotations())
                .doesNotContainKey("note")
                .containsKey(HOOK);
            assertThat(m.getSpec().readinessGates)
                .extracting(g -> g.conditionType)
                .containsExactly("ExampleReady");
            assertThat(m.getSpec().taints)
                .extracting(t -> t.get("key"))
                .containsExactly("example.com/dedicated");
            assertThat(m.getSpec().minReadySeconds).isEqualTo(20);
            assertThat(m.getSpec().deletion.nodeDrainTimeoutSeconds).isEqualTo(300);
            OpenshiftAssistedConfig config =
                c.get(OpenshiftAssistedConfig.class, m.getMetadata().getName());
            assertThat(config.getMetadata().getLabels())
                .containsEntry("team", "platform")
                .containsEntry("site", "core")
                .doesNotContainKey("old");
            assertThat(config.getMetadata().getAnnotations())
                .containsKey("openshiftassistedconfig.cluster.x-k8s.io/discovery-ignition-override")
                .doesNotContainKey("note");
            GenericKubernetesResource infra = metal3Machine(c, m.getMetadata().getName()).get();
            assertThat(infra.getMetadata().getLabels())
                .containsEntry("team", "platform")
                .containsEntry("from-template", "yes")
                .doesNotContainKey("old");
          }
        });
    assertThat(c.machines().get(0).getMetadata().getLabels()).containsEntry("theirs", "1");
    assertThat(c.machines().get(0).getMetadata().getAnnotations()).containsEntry("their-note", "1");
    assertThat(c.get(OpenshiftAssistedConfig.class, name).getMetadata().getLabels())
        .containsEntry("theirs", "1");
    assertThat(metal3Machine(c, name).get().getMetadata().getLabels()).containsEntry("theirs", "1");
    assertThat(names(c.machines())).as("changed in place: the same Machines").isEqualTo(names);
    c.awaitCondition("cp", "MachinesUpToDate", "UpToDate");
  }

  @Test
  void anUnhealthyMachineIsReplacedOneAtATimeWithRetriesBounded() {
    KubernetesClient wc = remediationWorkload.client();
    TestWorld c = Fixtures.provisioned(env, "remediate");
    OpenshiftAssistedControlPlane cp = Fixtures.controlPlane(c.ns, "cp", 3);
    cp.getSpec().remediation = new RemediationSpec();
    cp.getSpec().remediation.maxRetry = 0;
    List<Machine> machines = installed(c, cp, remediationWorkload, 3);
    etcd(wc, "3 members are available");
    Machine sick = machines.get(1);
    String sickNode = "node-1";
    markUnhealthy(c, sick);
    etcd(wc, "2 of 3 members are available, " + sickNode + " is unhealthy");

    eventually(
        () ->
            assertThat(names(c.machines()))
                .as(() -> "conditions: " + c.controlPlane("cp").getStatus().conditions)
                .doesNotContain(name(sick))
                .hasSize(3));
    Machine replacement =
        c.machines().stream()
            .filter(m -> !names(machines).contains(name(m)))
            .findFirst()
            .orElseThrow();
    RemediationData data =
        RemediationData.from(replacement.getMetadata().getAnnotations(), RemediationData.FOR)
            .orElseThrow();
    assertThat(data.machine()).isEqualTo(name(sick));
    assertThat(data.retryCount()).isZero();
    eventually(
        () -> {
          OpenshiftAssistedControlPlane stored = c.controlPlane("cp");
          assertThat(stored.getMetadata().getAnnotations())
              .doesNotContainKey(RemediationData.IN_PROGRESS);
          assertThat(stored.getStatus().lastRemediation.machine).isEqualTo(name(sick));
          assertThat(stored.getStatus().lastRemediation.retryCount).isZero();
        });

    // A second failure while the replacement is still provisioning waits, saying why.
    Machine second = machines.get(2);
    markUnhealthy(c, second);
    var waiting = c.awaitCondition("cp", "Remediating", "WaitingForMachineProvisioning");
    assertThat(waiting.getMessage()).contains(name(replacement)).contains(name(second));
    eventually(
        () -> {
          var owner = ownerRemediated(c, name(second));
          assertThat(owner.get("reason")).isEqualTo("RemediationDeferred");
          assertThat((String) owner.get("message")).contains("to be provisioned");
        });
    assertThat(names(c.machines())).contains(name(second));

    // The replacement itself fails within minHealthyPeriodSeconds: with maxRetry 0, no retry.
    // (second healthy again before the replacement is Ready, or it would be remediated next)
    unmark(c, second);
    etcd(wc, "3 members are available");
    playMachine(c, replacement, "node-3", "v1.33.5", true);
    markUnhealthy(c, replacement);
    var maxed = c.awaitCondition("cp", "Remediating", "MaxRetriesReached");
    assertThat(maxed.getMessage()).contains("spec.remediation.maxRetry (0)");
    eventually(
        () ->
            assertThat(ownerRemediated(c, name(replacement)).get("reason"))
                .isEqualTo("CannotBeRemediated"));
    assertThat(names(c.machines())).contains(name(replacement));
  }

  @Test
  void etcdDecidesWhenAHostMayGoAndTheQuorumGuardFollowsTheMemberCount() {
    KubernetesClient wc = etcdWorkload.client();
    TestWorld c = Fixtures.provisioned(env, "etcd");
    List<Machine> machines = installed(c, Fixtures.controlPlane(c.ns, "cp", 4), etcdWorkload, 4);
    etcd(wc, "3 of 4 members are available, node-3 is unhealthy");
    c.awaitCondition("cp", "EtcdClusterHealthy", "NotHealthy");

    // An unsafe scale-down is refused: the healthy node-0 would leave 2 of 4 healthy.
    Machine victim = machines.get(0);
    c.resource(Machine.class, name(victim))
        .patch(
            PatchContext.of(PatchType.JSON_MERGE),
            "{\"metadata\":{\"finalizers\":[\"machine.cluster.x-k8s.io\"],\"annotations\":{\"cluster.x-k8s.io/delete-machine\":\"\"}}}");
    c.resource(OpenshiftAssistedControlPlane.class, "cp")
        .patch(PatchContext.of(PatchType.JSON_MERGE), "{\"spec\":{\"replicas\":3}}");
    var refused = c.awaitCondition("cp", "ScalingDown", "WaitingForEtcd");
    assertThat(refused.getMessage())
        .contains(
            "removing node-0 would leave 2 healthy etcd members of 4, fewer than the 3 quorum needs");
    assertThat(c.machines()).allMatch(m -> m.getMetadata().getDeletionTimestamp() == null);

    // Healthy again: it goes; its host waits at our hook until etcd allows, whoever deleted it.
    etcd(wc, "4 members are available");
    eventually(
        () ->
            assertThat(machine(c, name(victim)).getMetadata().getDeletionTimestamp()).isNotNull());
    etcd(wc, "3 of 4 members are available, node-2 is unhealthy");
    c.capi.applyMachineStatus(
        name(victim),
        "capi-machine-controller",
        Map.of(
            "conditions",
            List.of(condition("Deleting", true, "WaitingForPreTerminateHook")),
            "nodeRef",
            Map.of("name", "node-0")));
    eventually(() -> assertThat(EventRecorder.flush(Duration.ofSeconds(5))).isTrue());
    eventually(() -> assertThat(events(c, "MachineDeletionHeld")).isNotEmpty());
    assertThat(machine(c, name(victim)).getMetadata().getAnnotations()).containsKey(HOOK);
    etcd(wc, "4 members are available");
    eventually(
        () ->
            assertThat(machine(c, name(victim)).getMetadata().getAnnotations())
                .doesNotContainKey(HOOK));

    // The host and its Node are gone (Cluster API's part); its member outlives them.
    c.resource(Machine.class, name(victim))
        .patch(PatchContext.of(PatchType.JSON_MERGE), "{\"metadata\":{\"finalizers\":null}}");
    wc.nodes().withName("node-0").delete();
    wc.namespaces()
        .resource(
            new io.fabric8.kubernetes.api.model.NamespaceBuilder()
                .withNewMetadata()
                .withName(EtcdMembers.NAMESPACE)
                .endMetadata()
                .build())
        .create();
    for (String secret : EtcdMembers.secretsOf("node-0")) {
      wc.resource(
              new SecretBuilder()
                  .withNewMetadata()
                  .withName(secret)
                  .withNamespace(EtcdMembers.NAMESPACE)
                  .endMetadata()
                  .build())
          .create();
    }
    etcd(wc, "3 of 4 members are available, node-0 is unhealthy");
    c.resource(OpenshiftAssistedControlPlane.class, "cp")
        .patch(PatchContext.of(PatchType.JSON_MERGE), "{\"spec\":{\"replicas\":4}}");
    // No etcd pod to run etcdctl in here: the member stays and the new host waits for it to go.
    var waitsForRemoval = c.awaitCondition("cp", "ScalingUp", "WaitingForEtcdMemberRemoval");
    assertThat(waitsForRemoval.getMessage()).contains("node-0");
    eventually(
        () ->
            assertThat(wc.secrets().inNamespace(EtcdMembers.NAMESPACE).list().getItems())
                .as("its Secrets go first")
                .isEmpty());
    eventually(() -> assertThat(events(c, "EtcdMemberRemovalFailed")).isNotEmpty());

    // Below 3 members the quorum guard goes off, signed; at 3 healthy it comes back on.
    etcd(wc, "2 members are available");
    eventually(
        () -> {
          GenericKubernetesResource e = etcdObject(wc);
          assertThat(e.getMetadata().getAnnotations())
              .containsEntry("controlplane.cluster.x-k8s.io/quorum-guard-off-by", c.ns + "/cp");
          assertThat(overrides(e))
              .containsEntry("useUnsupportedUnsafeNonHANonProductionUnstableEtcd", true);
        });
    etcd(wc, "3 members are available");
    eventually(
        () -> {
          GenericKubernetesResource e = etcdObject(wc);
          assertThat(
                  e.getMetadata().getAnnotations() == null
                      ? Map.<String, String>of()
                      : e.getMetadata().getAnnotations())
              .doesNotContainKey("controlplane.cluster.x-k8s.io/quorum-guard-off-by");
          assertThat(overrides(e))
              .doesNotContainKey("useUnsupportedUnsafeNonHANonProductionUnstableEtcd");
        });
    assertThat(c.controlPlane("cp").getStatus().versions)
        .containsExactly(new StatusVersion("v1.33.5", 3));
  }

  @Test
  void aRollingUpdateReplacesEveryMachineOneByOneWhileTheClusterStaysAvailable() {
    KubernetesClient wc = rollingWorkload.client();
    TestWorld c = Fixtures.provisioned(env, "rolling");
    List<Machine> old = installed(c, Fixtures.controlPlane(c.ns, "cp", 3), rollingWorkload, 3);
    etcd(wc, "3 members are available");
    Map<String, String> nodes = new LinkedHashMap<>();
    for (int i = 0; i < old.size(); i++) {
      nodes.put(name(old.get(i)), "node-" + i);
    }
    String after =
        Instant.now().plusSeconds(2).truncatedTo(java.time.temporal.ChronoUnit.SECONDS).toString();
    c.resource(OpenshiftAssistedControlPlane.class, "cp")
        .patch(
            PatchContext.of(PatchType.JSON_MERGE),
            "{\"spec\":{\"rollout\":{\"after\":\""
                + after
                + "\",\"strategy\":{\"type\":\"RollingUpdate\"}}}}");

    for (int step = 0; step < old.size(); step++) {
      // maxSurge 1: a Machine made from the current spec first...
      eventually(() -> assertThat(c.machines()).hasSize(4));
      Machine added =
          c.machines().stream().filter(m -> !nodes.containsKey(name(m))).findFirst().orElseThrow();
      eventually(
          () ->
              assertThat(c.condition("cp", "RollingOut").orElseThrow().getStatus())
                  .isEqualTo("True"));
      String node = "node-" + (old.size() + step);
      nodes.put(name(added), node);
      wc.nodes()
          .resource(
              new NodeBuilder()
                  .withMetadata(new ObjectMetaBuilder().withName(node).build())
                  .build())
          .create();
      playMachine(c, added, node, "v1.33.5", true);
      etcd(wc, "4 members are available");
      // ...then one out-of-date Machine goes, while 4 of 4 members are healthy. Three Machines
      // last only until the provider adds the next step's (a moment a poll can miss), so the
      // departure is what is awaited.
      eventually(() -> assertThat(departed(c, nodes, added)).hasSize(1));
      assertThat(c.machines()).hasSizeBetween(3, 4);
      String gone = departed(c, nodes, added).get(0);
      assertThat(names(old)).contains(gone);
      // The etcd operator's report once the departed host's member is removed.
      wc.nodes().withName(nodes.remove(gone)).delete();
      etcd(wc, "3 members are available");
      assertThat(c.condition("cp", "Available").orElseThrow().getStatus())
          .as("Available throughout")
          .isEqualTo("True");
    }
    assertThat(names(c.machines())).doesNotContainAnyElementsOf(names(old));
    c.awaitCondition("cp", "RollingOut", "NotRollingOut");
    c.awaitCondition("cp", "MachinesUpToDate", "UpToDate");
    assertThat(c.controlPlane("cp").getStatus().versions)
        .containsExactly(new StatusVersion("v1.33.5", 3));
  }

  // ---- playing the installed cluster and Cluster API ----

  /** An installed control plane of {@code replicas} Ready Machines on Nodes node-0, node-1... */
  private List<Machine> installed(
      TestWorld c,
      OpenshiftAssistedControlPlane cp,
      KubeApiServerEnvironment workload,
      int replicas) {
    c.providers.createControlPlane(cp);
    eventually(() -> assertThat(c.clusterInstall("cp")).isNotNull());
    eventually(() -> assertThat(c.machines()).hasSize(replicas));
    List<Machine> machines = new ArrayList<>(c.machines());
    machines.sort(Comparator.comparing(m -> m.getMetadata().getName()));
    for (int i = 0; i < machines.size(); i++) {
      workload
          .client()
          .nodes()
          .resource(
              new NodeBuilder()
                  .withMetadata(new ObjectMetaBuilder().withName("node-" + i).build())
                  .build())
          .create();
      playMachine(c, machines.get(i), "node-" + i, "v1.33.5", true);
    }
    clusterOperator(workload.client());
    c.assisted.setInstallerState("cp", "installed", "Cluster is installed");
    c.assisted.publishAdminKubeconfig("cp", workload);
    eventually(
        () ->
            assertThat(c.controlPlane("cp").getStatus().initialization.controlPlaneInitialized)
                .isTrue());
    return machines;
  }

  /** Plays the Machine controller: Ready, Available, the Node and its kubelet version. */
  private static void playMachine(
      TestWorld c, Machine m, String node, String kubelet, boolean ready) {
    c.capi.applyMachineStatus(
        name(m),
        "capi-machine-controller",
        Map.of(
            "conditions",
                List.of(
                    condition("Ready", ready, "Ready"), condition("Available", ready, "Available")),
            "nodeRef", Map.of("name", node),
            "nodeInfo",
                Map.of(
                    "kubeletVersion",
                    kubelet,
                    "architecture",
                    "amd64",
                    "bootID",
                    "b",
                    "containerRuntimeVersion",
                    "cri-o",
                    "kernelVersion",
                    "5",
                    "kubeProxyVersion",
                    "",
                    "machineID",
                    "m",
                    "operatingSystem",
                    "linux",
                    "osImage",
                    "rhcos",
                    "systemUUID",
                    "u")));
  }

  /** Plays a MachineHealthCheck that leaves remediation to the owner. */
  private static void markUnhealthy(TestWorld c, Machine m) {
    c.capi.applyMachineStatus(
        name(m),
        "capi-machinehealthcheck",
        Map.of(
            "conditions",
            List.of(
                condition("HealthCheckSucceeded", false, "UnhealthyNode"),
                condition("OwnerRemediated", false, "WaitingForRemediation"))));
  }

  private static void unmark(TestWorld c, Machine m) {
    c.capi.applyMachineStatus(
        name(m),
        "capi-machinehealthcheck",
        Map.of("conditions", List.of(condition("HealthCheckSucceeded", true, "Succeeded"))));
  }

  /** Plays the etcd operator: its member conditions on etcds/cluster. */
  private static void etcd(KubernetesClient wc, String members) {
    GenericKubernetesResource etcd = etcdObject(wc);
    if (etcd == null) {
      etcd = new GenericKubernetesResource();
      etcd.setApiVersion("operator.openshift.io/v1");
      etcd.setKind("Etcd");
      etcd.setMetadata(new ObjectMetaBuilder().withName("cluster").build());
      etcd.setAdditionalProperty("spec", Map.of("managementState", "Managed"));
      etcd = wc.resource(etcd).create();
    }
    boolean unhealthy = members.contains("unhealthy");
    List<Map<String, Object>> conditions =
        List.of(
            operatorCondition("EtcdMembersAvailable", true, "EtcdQuorate", members),
            operatorCondition(
                "EtcdMembersDegraded",
                unhealthy,
                unhealthy ? "UnhealthyMembers" : "AsExpected",
                unhealthy ? members : "No unhealthy members found"),
            operatorCondition(
                "EtcdMembersProgressing", false, "AsExpected", "No unstarted etcd members found"),
            operatorCondition(
                "NodeInstallerProgressing",
                false,
                "AllNodesAtLatestRevision",
                "all nodes are at revision 7"));
    wc.genericKubernetesResources("operator.openshift.io/v1", "Etcd")
        .withName("cluster")
        .subresource("status")
        .patch(
            PatchContext.of(PatchType.JSON_MERGE),
            Serialization.asJson(Map.of("status", Map.of("conditions", conditions))));
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> overrides(GenericKubernetesResource etcd) {
    Object spec = etcd.getAdditionalProperties().get("spec");
    Object overrides =
        spec == null ? null : ((Map<String, Object>) spec).get("unsupportedConfigOverrides");
    return overrides == null ? Map.of() : (Map<String, Object>) overrides;
  }

  private static GenericKubernetesResource etcdObject(KubernetesClient wc) {
    return wc.genericKubernetesResources("operator.openshift.io/v1", "Etcd")
        .withName("cluster")
        .get();
  }

  private static void clusterOperator(KubernetesClient wc) {
    GenericKubernetesResource co = new GenericKubernetesResource();
    co.setApiVersion("config.openshift.io/v1");
    co.setKind("ClusterOperator");
    co.setMetadata(new ObjectMetaBuilder().withName("etcd").build());
    co.setAdditionalProperty("spec", Map.of());
    wc.resource(co).create();
    wc.genericKubernetesResources("config.openshift.io/v1", "ClusterOperator")
        .withName("etcd")
        .subresource("status")
        .patch(
            PatchContext.of(PatchType.JSON_MERGE),
            Serialization.asJson(
                Map.of(
                    "status",
                    Map.of(
                        "conditions",
                        List.of(
                            operatorCondition(
                                "Available",
                                true,
                                "AsExpected",
                                "StaticPodsAvailable: 3 nodes are active"),
                            operatorCondition("Degraded", false, "AsExpected", ""))))));
  }

  private static Map<String, Object> operatorCondition(
      String type, boolean status, String reason, String message) {
    Map<String, Object> c = new LinkedHashMap<>(condition(type, status, reason));
    c.put("message", message);
    return c;
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> ownerRemediated(TestWorld c, String machine) {
    Map<String, Object> m = Serialization.jsonMapper().convertValue(machine(c, machine), Map.class);
    return ((List<Map<String, Object>>) ((Map<String, Object>) m.get("status")).get("conditions"))
        .stream()
            .filter(cond -> "OwnerRemediated".equals(cond.get("type")))
            .findFirst()
            .orElseThrow();
  }

  private static List<io.fabric8.kubernetes.api.model.events.v1.Event> events(
      TestWorld c, String reason) {
    return client.events().v1().events().inNamespace(c.ns).list().getItems().stream()
        .filter(e -> reason.equals(e.getReason()))
        .toList();
  }

  private static io.fabric8.kubernetes.client.dsl.Resource<GenericKubernetesResource> metal3Machine(
      TestWorld c, String name) {
    return client
        .genericKubernetesResources("infrastructure.cluster.x-k8s.io/v1beta2", "Metal3Machine")
        .inNamespace(c.ns)
        .withName(name);
  }

  private static Machine machine(TestWorld c, String name) {
    return c.get(Machine.class, name);
  }

  /** The Machines of {@code nodes} but {@code added} that no longer exist. */
  private static List<String> departed(TestWorld c, Map<String, String> nodes, Machine added) {
    Set<String> present = names(c.machines());
    return nodes.keySet().stream()
        .filter(n -> !present.contains(n) && !n.equals(name(added)))
        .toList();
  }

  private static String name(Machine m) {
    return m.getMetadata().getName();
  }
}
