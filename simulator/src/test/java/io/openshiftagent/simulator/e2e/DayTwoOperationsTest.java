package io.openshiftagent.simulator.e2e;

import static io.openshiftagent.simulator.Fields.annotation;
import static io.openshiftagent.simulator.Fields.conditionTrue;
import static io.openshiftagent.simulator.Fields.get;
import static io.openshiftagent.simulator.Fields.label;
import static io.openshiftagent.simulator.Fields.string;
import static io.openshiftagent.simulator.e2e.ClusterScenario.isFree;
import static io.openshiftagent.simulator.e2e.ClusterScenario.name;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.openshiftagent.simulator.ApiVersions;
import io.openshiftagent.simulator.Fields;
import io.openshiftagent.testsupport.ReleaseRegistry;
import io.openshiftagent.testsupport.TcpRelay;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
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
 * The life of one installed HA cluster after day 1, step by step (each step starts from where the
 * previous one left the cluster): worker scale-up and scale-down through the MachineDeployment,
 * control-plane scale-up, an OpenShift upgrade through {@code distributionVersion} with the
 * installed cluster cut off from the hub for a while and a worker added while it is in progress,
 * pause and resume, and deletion leaving nothing behind. One cluster for all steps: an installation
 * costs about 35 s.
 */
@ResourceLock(value = E2eWorld.WORLD, mode = ResourceAccessMode.READ)
// Among the longest classes on the shared world: started first, so that the phase does not end on
// it.
@Order(1)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class DayTwoOperationsTest {
  private static final Logger LOG = LoggerFactory.getLogger(DayTwoOperationsTest.class);

  @RegisterExtension static final E2eWorld world = new E2eWorld();

  private static final String WORKERS = "test-multinode-worker";
  private static final String CONTROL_PLANE = "test-multinode";

  private static ClusterScenario cluster;

  /**
   * The cluster-scoped objects before the cluster was applied (but those of the namespaces of other
   * classes running beside this one).
   */
  private static Set<String> clusterScopedBefore;

  @BeforeAll
  static void installCluster() {
    cluster = world.scenario("e2e-day2", "test-multinode");
    // 3 control-plane hosts and 1 worker, one spare host for the first scale-ups and one for the
    // worker added during the upgrade.
    cluster.enrolHosts(6);
    // After the namespace's baremetal-operator registered its webhooks: what the user set up.
    clusterScopedBefore = cluster.clusterScopedObjectsButOtherNamespaces();
    cluster.apply("/e2e/ha.yaml", Map.of("BOOT_MODE", "LiveISO", "WORKERS", "1"));
    cluster.awaitInstalled(4);
  }

  @Test
  @Order(1)
  void scalesWorkersUpThroughTheMachineDeployment() {
    scaleWorkers(2);

    cluster.awaitInstalled(5);
    assertThat(cluster.workerMachines()).hasSize(2);
    // The new worker joined the installed cluster as a day-2 host.
    assertThat(cluster.installerState()).isEqualTo("adding-hosts");
    assertThat(cluster.nodesWithRole("worker")).hasSize(2);
    cluster.assertMachinesMatchTheirNodes();
  }

  @Test
  @Order(2)
  void scalesWorkersDownReleasingTheHostAndRemovingTheNodeAndAgent() {
    GenericKubernetesResource victim = cluster.workerMachines().get(0);
    MachineParts parts = partsOf(victim);
    // Cluster API's MachineSet deletes the Machine marked for deletion first.
    cluster.markForDeletion(victim);
    scaleWorkers(1);

    cluster.await(
        "Machine " + name(victim) + " and its Node, host, Agent and InfraEnv released",
        () ->
            cluster.get(ApiVersions.CAPI, "Machine", name(victim)) == null
                && cluster.workload().nodes().withName(parts.node).get() == null
                && cluster.get(ApiVersions.AGENT_INSTALL, "Agent", parts.agent) == null
                && isFree(cluster.get(ApiVersions.METAL3, "BareMetalHost", parts.host)));
    cluster.awaitInstalled(4);
    // Everything made for that Machine is gone.
    assertThat(cluster.get(ApiVersions.BOOTSTRAP, "OpenshiftAssistedConfig", parts.config))
        .isNull();
    assertThat(cluster.get(ApiVersions.AGENT_INSTALL, "InfraEnv", parts.config)).isNull();
    assertThat(
            cluster.hub().secrets().inNamespace(cluster.namespace()).withName(parts.config).get())
        .isNull();
    assertThat(cluster.get(ApiVersions.METAL3_INFRASTRUCTURE, "Metal3Machine", parts.metal3Machine))
        .isNull();
    // The host is deprovisioned and free for another Machine.
    GenericKubernetesResource host = cluster.get(ApiVersions.METAL3, "BareMetalHost", parts.host);
    assertThat(get(host, "spec", "image")).isNull();
    assertThat(get(host, "spec", "userData")).isNull();
    assertThat(get(host, "spec", "online")).isEqualTo(false);
    assertThat(annotation(host, "baremetalhost.metal3.io/detached")).isNull();
  }

  @Test
  @Order(3)
  void scalesTheControlPlaneUpWithADayTwoControlPlaneHost() {
    cluster.setSpec(
        ApiVersions.CONTROL_PLANE, "OpenshiftAssistedControlPlane", CONTROL_PLANE, "replicas", 4);

    cluster.awaitInstalled(5);
    assertThat(cluster.controlPlaneMachines()).hasSize(4);
    cluster.await(
        "the control plane to count 4 ready replicas",
        () ->
            "4".equals(string(cluster.controlPlane(), "status", "readyReplicas"))
                && conditionTrue(cluster.controlPlane(), "MachinesReady"));
    assertThat(cluster.nodesWithRole("control-plane")).hasSize(4);
    cluster.assertMachinesMatchTheirNodes();
  }

  /**
   * An OpenShift upgrade that also raises the control plane's Kubernetes version ({@code
   * spec.version}), during which the workers are scaled up. With a {@code spec.version}, Cluster
   * API's MachineSet preflight check {@code ControlPlaneIsStable} holds every scale-up until the
   * control-plane kubelets report that version ({@code status.versions}), which on OpenShift lasts
   * until the Machine Config Operator has rebooted every control-plane host: here the {@code
   * master} MachineConfigPool is paused, so the upgrade stays in progress until the test resumes
   * it. The documented opt-out on the MachineDeployment lets the worker join meanwhile.
   */
  @Test
  @Order(4)
  void upgradesOpenShiftAndAddsAWorkerDuringTheUpgrade() throws InterruptedException {
    long started = System.nanoTime();
    setMasterPoolPaused(true);
    cluster.patch(
        ApiVersions.CONTROL_PLANE,
        "OpenshiftAssistedControlPlane",
        CONTROL_PLANE,
        Map.of("spec", Map.of("distributionVersion", "4.21.0", "version", "v1.34.0")));
    cluster.await(
        "the upgrade to 4.21.0 in progress, the control-plane kubelets still at v1.33.0",
        () ->
            "Partial".equals(history(clusterVersion()).get(0).get("state"))
                && "v1.33.0".equals(oldestControlPlaneKubelet()));
    cutOffFromTheHubMidUpgrade();

    // Without the opt-out, Cluster API holds the scale-up while the control plane upgrades.
    scaleWorkers(2);
    cluster.await(
        "the MachineSet's scale-up held by the ControlPlaneIsStable preflight check",
        () -> workerMachineSetScalingUpMessage().contains("\"ControlPlaneIsStable\" preflight"));
    assertThat(cluster.workerMachines()).hasSize(1);

    cluster.patch(
        ApiVersions.CAPI,
        "MachineDeployment",
        WORKERS,
        Map.of(
            "metadata",
            Map.of(
                "annotations",
                Map.of(
                    "machineset.cluster.x-k8s.io/skip-preflight-checks", "ControlPlaneIsStable"))));
    Duration joined =
        cluster.await(
            "the new worker Running with a Node while the upgrade is in progress",
            () -> ClusterScenario.runningWithNode(cluster.workerMachines()) == 2);
    assertThat(history(clusterVersion()).get(0))
        .as("the upgrade still in progress when the worker joined")
        .containsEntry("state", "Partial")
        .containsEntry("version", "4.21.0");
    assertThat(oldestControlPlaneKubelet()).isEqualTo("v1.33.0");
    assertThat(conditionTrue(cluster.controlPlane(), "UpgradeCompleted")).isFalse();
    assertThat(cluster.nodesWithRole("worker")).hasSize(2);

    setMasterPoolPaused(false);
    cluster.await(
        "the installed cluster to run 4.21.0 and the control plane to report it",
        () -> {
          GenericKubernetesResource cp = cluster.controlPlane();
          return "4.21.0".equals(string(cp, "status", "distributionVersion"))
              && "v1.34.0".equals(string(cp, "status", "version"))
              && "v1.34.0".equals(oldestControlPlaneKubelet())
              && conditionTrue(cp, "UpgradeCompleted");
        });
    GenericKubernetesResource version = clusterVersion();
    // Our provider asked for the release image by digest, as the world's registry resolved it.
    assertThat(string(version, "spec", "desiredUpdate", "image"))
        .isEqualTo(ReleaseRegistry.shared().release("4.21.0", "x86_64").image());
    assertThat(get(version, "spec", "desiredUpdate", "force")).isEqualTo(true);
    List<Map<String, Object>> history = history(version);
    assertThat(history).extracting(h -> h.get("version")).containsExactly("4.21.0", "4.20.0");
    assertThat(history).extracting(h -> h.get("state")).containsOnly("Completed");
    assertThat(string(version, "status", "desired", "version")).isEqualTo("4.21.0");
    // The kubelets were updated in place, the new worker's too; the Machines stay, and Running.
    assertThat(cluster.workload().nodes().list().getItems())
        .hasSize(6)
        .allMatch(n -> "v1.34.0".equals(n.getStatus().getNodeInfo().getKubeletVersion()));
    cluster.awaitInstalled(6);
    cluster.assertNodesAsTheGoProviderNamesThem();
    LOG.info(
        "upgrade with a worker added: the worker Running {} ms after the opt-out, step {} s",
        joined.toMillis(),
        Duration.ofNanos(System.nanoTime() - started).toSeconds());
  }

  /**
   * The installed cluster unreachable from the hub while it upgrades (its published kubeconfig's
   * link cut, {@link io.openshiftagent.simulator.World#linkToInstalledCluster}): the control plane
   * says so on UpgradeCompleted, no Machine is replaced, and the upgrade goes on once it is back.
   */
  private static void cutOffFromTheHubMidUpgrade() throws InterruptedException {
    Map<String, String> machines = uids(cluster.machines());
    TcpRelay link = world.world().linkToInstalledCluster(cluster.namespace(), CONTROL_PLANE);
    link.cut();
    try {
      cluster.await(
          "UpgradeCompleted Unknown, WorkloadClusterUnreachable, while the cluster is cut off",
          () ->
              "WorkloadClusterUnreachable"
                  .equals(upgradeCompleted(cluster.controlPlane()).get("reason")));
      Map<String, Object> condition = upgradeCompleted(cluster.controlPlane());
      assertThat(condition.get("status")).isEqualTo("Unknown");
      assertThat((String) condition.get("message"))
          .contains("Secret " + cluster.clusterName() + "-kubeconfig");
      // Two looks of the control plane at the cluster (every 5 s in the world) while it is away.
      Thread.sleep(Duration.ofSeconds(10).toMillis());
      LOG.info("installed cluster cut off from the hub: the control plane says {}", condition);
    } finally {
      link.restore();
    }
    cluster.await(
        "UpgradeCompleted no longer WorkloadClusterUnreachable once the cluster is reachable",
        () ->
            !"WorkloadClusterUnreachable"
                .equals(upgradeCompleted(cluster.controlPlane()).get("reason")));
    assertThat(uids(cluster.machines())).as("the Machines, by name and UID").isEqualTo(machines);
  }

  private static Map<String, Object> upgradeCompleted(GenericKubernetesResource cp) {
    return Fields.conditions(cp).stream()
        .filter(c -> "UpgradeCompleted".equals(c.get("type")))
        .findFirst()
        .orElse(Map.of());
  }

  private static Map<String, String> uids(List<GenericKubernetesResource> objects) {
    Map<String, String> uids = new HashMap<>();
    objects.forEach(o -> uids.put(name(o), o.getMetadata().getUid()));
    return uids;
  }

  @Test
  @Order(5)
  void pauseStopsAllOurWritesAndResumeContinues() throws InterruptedException {
    GenericKubernetesResource agent = cluster.list(ApiVersions.AGENT_INSTALL, "Agent").get(0);
    String hostname = string(agent, "spec", "hostname");
    setPaused(true);
    try {
      // Once paused, each object's Paused condition is all that is written (Cluster API's contract:
      // it describes the object's current generation), by us on ours, by Cluster API on its own.
      cluster.await(
          "Paused on the control plane, every config and every Machine",
          () ->
              conditionTrue(cluster.controlPlane(), "Paused")
                  && cluster.list(ApiVersions.BOOTSTRAP, "OpenshiftAssistedConfig").stream()
                      .allMatch(c -> conditionTrue(c, "Paused"))
                  && cluster.machines().stream().allMatch(m -> conditionTrue(m, "Paused")));
      // What would make our providers write if they were not paused, made once they show they saw
      // the pause (a change made at the same time may reach a provider before the pause does): an
      // upgrade requested, and an Agent's hostname changed behind the bootstrap provider's back.
      cluster.setDistributionVersion("4.21.1");
      cluster.setSpec(
          ApiVersions.AGENT_INSTALL, "Agent", name(agent), "hostname", "changed-while-paused");
      cluster.await(
          "Paused on the control plane at its new generation",
          () -> pausedAtCurrentGeneration(cluster.controlPlane()));
      Map<String, String> before = resourceVersionsOfWhatWeWrite();
      String desiredBefore = string(clusterVersion(), "spec", "desiredUpdate", "image");
      // A claim that nothing happens needs a window: longer than the control plane's look at the
      // installed cluster (5 s in the world) and than any event delivery.
      Thread.sleep(Duration.ofSeconds(10).toMillis());
      assertThat(resourceVersionsOfWhatWeWrite()).isEqualTo(before);
      assertThat(string(clusterVersion(), "spec", "desiredUpdate", "image"))
          .isEqualTo(desiredBefore);
      assertThat(
              string(
                  cluster.get(ApiVersions.AGENT_INSTALL, "Agent", name(agent)), "spec", "hostname"))
          .isEqualTo("changed-while-paused");
    } finally {
      setPaused(false); // should the above fail, no cluster left paused to delete
    }
    cluster.await(
        "the providers to resume: the Agent's hostname set back, the upgrade to 4.21.1 done",
        () ->
            hostname.equals(
                    string(
                        cluster.get(ApiVersions.AGENT_INSTALL, "Agent", name(agent)),
                        "spec",
                        "hostname"))
                && !conditionTrue(cluster.controlPlane(), "Paused")
                && "4.21.1"
                    .equals(string(cluster.controlPlane(), "status", "distributionVersion")));
    cluster.awaitInstalled(6);
  }

  @Test
  @Order(6)
  void deletingTheClusterLeavesNothingBehind() {
    cluster.deleteCluster();

    cluster.await(
        "the namespace to hold only what the user created and the Cluster did not own (and what"
            + " the baremetal-operator keeps for the user's hosts)",
        () -> cluster.everythingInTheNamespace().equals(cluster.whatDeletingTheClusterMustLeave()));
    assertThat(cluster.clusterScopedObjectsButOtherNamespaces()).isEqualTo(clusterScopedBefore);
    for (GenericKubernetesResource host : cluster.list(ApiVersions.METAL3, "BareMetalHost")) {
      assertThat(isFree(host)).as("host " + name(host) + " released").isTrue();
    }
    assertThat(cluster.list(ApiVersions.METAL3, "BareMetalHost"))
        .allMatch(h -> h.getMetadata().getDeletionTimestamp() == null);
  }

  // ---- steps ----

  private static void scaleWorkers(int replicas) {
    cluster.setSpec(ApiVersions.CAPI, "MachineDeployment", WORKERS, "replicas", replicas);
  }

  /**
   * Pauses or resumes the installed cluster's control-plane MachineConfigPool, as {@code oc patch}.
   */
  private static void setMasterPoolPaused(boolean paused) {
    cluster
        .workload()
        .genericKubernetesResources(ApiVersions.MACHINE_CONFIGURATION, "MachineConfigPool")
        .withName("master")
        .patch(
            PatchContext.of(PatchType.JSON_MERGE),
            Serialization.asJson(Map.of("spec", Map.of("paused", paused))));
  }

  private static void setPaused(boolean paused) {
    cluster.setSpec(ApiVersions.CAPI, "Cluster", cluster.clusterName(), "paused", paused);
  }

  // ---- reading ----

  /**
   * The first (oldest) entry of the control plane's {@code status.versions}, as Cluster API reads.
   */
  @SuppressWarnings("unchecked")
  private static String oldestControlPlaneKubelet() {
    Object versions = get(cluster.controlPlane(), "status", "versions");
    return versions instanceof List<?> list && !list.isEmpty()
        ? (String) ((Map<String, Object>) list.get(0)).get("version")
        : null;
  }

  /** The message of the ScalingUp condition of the workers' MachineSet, or "". */
  private static String workerMachineSetScalingUpMessage() {
    return cluster.list(ApiVersions.CAPI, "MachineSet").stream()
        .filter(ms -> WORKERS.equals(label(ms, "cluster.x-k8s.io/deployment-name")))
        .flatMap(ms -> Fields.conditions(ms).stream())
        .filter(c -> "ScalingUp".equals(c.get("type")))
        .map(c -> String.valueOf(c.get("message")))
        .findFirst()
        .orElse("");
  }

  private static boolean pausedAtCurrentGeneration(GenericKubernetesResource object) {
    return Fields.conditions(object).stream()
        .anyMatch(
            c ->
                "Paused".equals(c.get("type"))
                    && "True".equals(c.get("status"))
                    && object
                        .getMetadata()
                        .getGeneration()
                        .equals(((Number) c.get("observedGeneration")).longValue()));
  }

  /** What a Machine was made of: its config (and InfraEnv), Metal3Machine, host, Node and Agent. */
  private record MachineParts(
      String config, String metal3Machine, String host, String node, String agent) {}

  private static MachineParts partsOf(GenericKubernetesResource machine) {
    String node = string(machine, "status", "nodeRef", "name");
    String agent =
        cluster.list(ApiVersions.AGENT_INSTALL, "Agent").stream()
            .filter(a -> node.equals(string(a, "spec", "hostname")))
            .map(ClusterScenario::name)
            .findFirst()
            .orElseThrow();
    return new MachineParts(
        string(machine, "spec", "bootstrap", "configRef", "name"),
        string(machine, "spec", "infrastructureRef", "name"),
        cluster.hostOf(machine),
        node,
        agent);
  }

  private static GenericKubernetesResource clusterVersion() {
    return cluster
        .workload()
        .genericKubernetesResources(ApiVersions.CLUSTER_VERSION, "ClusterVersion")
        .withName("version")
        .get();
  }

  @SuppressWarnings("unchecked")
  private static List<Map<String, Object>> history(GenericKubernetesResource clusterVersion) {
    return (List<Map<String, Object>>) get(clusterVersion, "status", "history");
  }

  /**
   * The resourceVersion of each object our providers write: the control plane, every config,
   * InfraEnv, Agent, ClusterDeployment, AgentClusterInstall and Machine, the ClusterImageSet and
   * the kubeconfig Secret. Any write, by us or anyone, changes it.
   */
  private static Map<String, String> resourceVersionsOfWhatWeWrite() {
    Map<String, String> versions = new HashMap<>();
    List<HasMetadata> objects = new java.util.ArrayList<>(List.of(cluster.controlPlane()));
    for (String[] kind :
        List.of(
            new String[] {ApiVersions.BOOTSTRAP, "OpenshiftAssistedConfig"},
            new String[] {ApiVersions.AGENT_INSTALL, "InfraEnv"},
            new String[] {ApiVersions.AGENT_INSTALL, "Agent"},
            new String[] {ApiVersions.HIVE, "ClusterDeployment"},
            new String[] {ApiVersions.HIVE_EXTENSION, "AgentClusterInstall"},
            new String[] {ApiVersions.CAPI, "Machine"})) {
      objects.addAll(cluster.list(kind[0], kind[1]));
    }
    objects.add(
        cluster
            .hub()
            .genericKubernetesResources(ApiVersions.HIVE, "ClusterImageSet")
            .withName(cluster.namespace() + "." + CONTROL_PLANE)
            .get());
    objects.add(
        cluster
            .hub()
            .secrets()
            .inNamespace(cluster.namespace())
            .withName(cluster.clusterName() + "-kubeconfig")
            .get());
    for (HasMetadata object : objects) {
      versions.put(
          object.getKind() + " " + object.getMetadata().getName(),
          object.getMetadata().getResourceVersion());
    }
    return versions;
  }
}
