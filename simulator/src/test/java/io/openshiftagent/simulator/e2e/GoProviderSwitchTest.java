package io.openshiftagent.simulator.e2e;

import static io.openshiftagent.simulator.Fields.conditionTrue;
import static io.openshiftagent.simulator.Fields.label;
import static io.openshiftagent.simulator.Fields.string;
import static io.openshiftagent.simulator.e2e.ClusterScenario.isFree;
import static io.openshiftagent.simulator.e2e.ClusterScenario.name;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionVersion;
import io.openshiftagent.controlplane.cluster.ClusterImageSets;
import io.openshiftagent.provider.contract.GoProvider;
import io.openshiftagent.simulator.ApiVersions;
import io.openshiftagent.simulator.GoProviderCheckout;
import io.openshiftagent.testsupport.CrdInstaller;
import io.openshiftagent.testsupport.ReleaseRegistry;
import io.openshiftagent.testsupport.TestPaths;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The switch from the Go provider, done as a user does it: the Go pair installs a highly available
 * cluster (3 control-plane Machines, 2 workers) and a single-node one in a world of its own; then
 * the steps of docs/from-the-go-provider.md, "Switching a fleet the Go provider installed", run
 * word for word ({@link DocumentedSteps}), but for what step 4 says in prose, installing our
 * providers, which the world does ({@link io.openshiftagent.simulator.World#startOurProviders}: the
 * hub has no kubelet to run their Deployments). Nothing is installed again; both clusters stay
 * Available; then, under ours, the workers scale, OpenShift upgrades and deleting both leaves
 * nothing.
 *
 * <p>Before the switch, the Go pair's highly available cluster is written as test resources, as
 * {@link GoProviderSingleNodeTest} writes its single-node one (under {@code ha/}).
 */
@GoProviderCheckout.Required
@Tag(E2eWorld.HUB_OF_ITS_OWN)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class GoProviderSwitchTest {
  private static final Logger LOG = LoggerFactory.getLogger(GoProviderSwitchTest.class);

  @RegisterExtension static final E2eWorld world = E2eWorld.withGoProviders();

  private static final String SECTION = "## Switching a fleet the Go provider installed";
  private static final String WORKERS = "test-multinode-worker";

  /** The Go provider's CRDs with objects, and the older version a fleet of before may list. */
  private static final Map<String, String> OLDER_STORED_VERSIONS =
      Map.of(
          "openshiftassistedconfigs.bootstrap.cluster.x-k8s.io", "v1alpha1",
          "openshiftassistedcontrolplanes.controlplane.cluster.x-k8s.io", "v1alpha2");

  private static ClusterScenario highlyAvailable;
  private static ClusterScenario singleNode;

  /** The cluster-scoped objects once ours run (their RBAC, the Go provider's leftovers). */
  private static Set<String> clusterScopedAfterTheSwitch;

  private static Set<String> imageSetsBefore;
  private static final Map<ClusterScenario, Map<String, String>> uidsBefore = new HashMap<>();
  private static final Map<ClusterScenario, Map<String, String>> hostsBefore = new HashMap<>();
  private static final Map<String, String> imageSetUids = new TreeMap<>();

  @BeforeAll
  static void theGoPairInstallsBothClusters() {
    highlyAvailable = world.scenario("go-switch-ha", "test-multinode");
    singleNode = world.scenario("go-switch-sno", "test-sno");
    highlyAvailable.enrolHosts(6); // 3 + 2, and one for the worker added after the switch
    singleNode.enrolHosts(1);
    imageSetsBefore = imageSets();
    highlyAvailable.apply("/e2e/ha.yaml", Map.of("BOOT_MODE", "DiskImage", "WORKERS", "2"));
    singleNode.apply("/e2e/sno.yaml", Map.of());
    highlyAvailable.awaitInstalled(5);
    singleNode.awaitInstalled(1);
  }

  @Test
  @Order(1)
  void theDocumentedStepsSwitchBothClustersWithoutInstallingAnythingAgain() throws Exception {
    Path capture =
        Path.of(System.getProperty("go-provider.capture", "target/go-provider-state"))
            .resolve("ha");
    assertThat(StateCapture.write(world.world().hub(), highlyAvailable.namespace(), capture))
        .as("objects captured into " + capture)
        .isGreaterThan(10);
    for (ClusterScenario cluster : clusters()) {
      uidsBefore.put(cluster, cluster.uids());
      hostsBefore.put(cluster, cluster.provisionedHosts());
      String imageSet = imageSetOf(cluster);
      imageSetUids.put(imageSet, highlyAvailable.clusterImageSet(imageSet).getMetadata().getUid());
    }
    Path kubeconfig = Path.of("target", "world", getClass().getSimpleName(), "hub.kubeconfig");
    Files.writeString(kubeconfig, world.world().hubEnvironment().kubeConfigYaml());
    DocumentedSteps steps =
        DocumentedSteps.of(TestPaths.repoRoot().resolve("docs/from-the-go-provider.md"), SECTION);
    assertThat(steps.count()).as("the steps of " + SECTION).isEqualTo(6);

    steps.run(1, kubeconfig);
    // Cluster API says so on the Cluster and its Machines; the Go control plane reports no Paused.
    for (ClusterScenario cluster : clusters()) {
      cluster.await(
          "the Cluster and its Machines Paused",
          () ->
              conditionTrue(cluster.cluster(), "Paused")
                  && cluster.machines().stream().allMatch(m -> conditionTrue(m, "Paused")));
    }
    // A fresh install of the Go pair stores each kind at its storage version alone; a fleet
    // installed by an older release lists the older version too, as made here.
    for (var version : OLDER_STORED_VERSIONS.entrySet()) {
      hub()
          .apiextensions()
          .v1()
          .customResourceDefinitions()
          .withName(version.getKey())
          .editStatus(
              crd -> {
                crd.getStatus().getStoredVersions().add(0, version.getValue());
                return crd;
              });
    }
    String migrated = steps.run(2, kubeconfig);
    assertThat(migrated)
        .as("step 2 rewrote every config and control plane")
        .contains(
            kubectlNamesOfControlPlanesAndConfigs().stream().map(o -> o + " replaced").toList());
    for (String crd : OLDER_STORED_VERSIONS.keySet()) {
      var live = hub().apiextensions().v1().customResourceDefinitions().withName(crd).get();
      assertThat(live.getStatus().getStoredVersions())
          .as("the stored versions of " + crd)
          .containsExactly(
              live.getSpec().getVersions().stream()
                  .filter(v -> v.getStorage())
                  .findFirst()
                  .orElseThrow()
                  .getName());
    }
    steps.run(3, kubeconfig);
    highlyAvailable.await(
        "the Go pair stopped", () -> world.world().goProviders().orElseThrow().stopped());
    steps.run(4, kubeconfig);
    assertOurCrdsAloneServe();
    world.world().startOurProviders();
    steps.run(5, kubeconfig);

    for (ClusterScenario cluster : clusters()) {
      cluster.await(
          "the control plane taken over: Available and MachinesUpToDate, none of the Go"
              + " provider's conditions or finalizers",
          () -> isTakenOver(cluster));
    }
    String checked = steps.run(6, kubeconfig);
    List<String> finalizers =
        checked.lines().filter(line -> line.matches("[^ ]+/[^ ]+: .*")).toList();
    assertThat(finalizers)
        .as("step 6's finalizers, one line per config and control plane")
        .hasSize(8)
        .noneMatch(line -> line.contains("/deprovision"));

    highlyAvailable.awaitInstalled(5);
    singleNode.awaitInstalled(1);
    for (ClusterScenario cluster : clusters()) {
      assertThat(cluster.uids())
          .as("every object of %s with its UID of before", cluster.namespace())
          .containsAllEntriesOf(uidsBefore.get(cluster));
      assertThat(cluster.provisionedHosts())
          .as("the hosts of %s, not provisioned again", cluster.namespace())
          .isEqualTo(hostsBefore.get(cluster));
      assertThat(cluster.takenOver().keySet())
          .as("TakenOver Events in %s", cluster.namespace())
          .containsAll(kindsAndNamesOfControlPlaneAndConfigs(cluster));
      GenericKubernetesResource imageSet = highlyAvailable.clusterImageSet(imageSetOf(cluster));
      assertThat(imageSet.getMetadata().getUid()).isEqualTo(imageSetUids.get(imageSetOf(cluster)));
      assertThat(label(imageSet, ClusterImageSets.NAMESPACE_LABEL)).isEqualTo(cluster.namespace());
    }
    assertThat(imageSets()).as("no ClusterImageSet of ours").isEqualTo(goImageSets());
    clusterScopedAfterTheSwitch = highlyAvailable.clusterScopedObjectsButOtherNamespaces();
  }

  @Test
  @Order(2)
  void theWorkersScaleUnderOurs() {
    highlyAvailable.setSpec(ApiVersions.CAPI, "MachineDeployment", WORKERS, "replicas", 3);

    highlyAvailable.awaitInstalled(6);
    assertThat(highlyAvailable.workerMachines()).hasSize(3);
    assertThat(highlyAvailable.nodesWithRole("worker")).hasSize(3);
    assertThat(highlyAvailable.uids()).containsAllEntriesOf(uidsBefore.get(highlyAvailable));
  }

  @Test
  @Order(3)
  void openShiftUpgradesThroughTheGoProvidersClusterImageSet() {
    highlyAvailable.upgradeTo("4.21.0");
    String imageSet = imageSetOf(highlyAvailable);
    assertThat(string(highlyAvailable.clusterImageSet(imageSet), "spec", "releaseImage"))
        .isEqualTo(ReleaseRegistry.shared().release("4.21.0", "x86_64").image());
    assertThat(highlyAvailable.clusterImageSet(imageSet).getMetadata().getUid())
        .isEqualTo(imageSetUids.get(imageSet));
    assertThat(imageSets()).isEqualTo(goImageSets());
    highlyAvailable.awaitInstalled(6);
    assertThat(highlyAvailable.uids()).containsAllEntriesOf(uidsBefore.get(highlyAvailable));
  }

  @Test
  @Order(4)
  void deletingBothClustersLeavesNothingBehind() {
    for (ClusterScenario cluster : clusters()) {
      cluster.deleteCluster();
    }
    for (ClusterScenario cluster : clusters()) {
      cluster.await(
          "the namespace to hold only what the user created and the Cluster did not own",
          () ->
              cluster.everythingInTheNamespace().equals(cluster.whatDeletingTheClusterMustLeave()));
      for (GenericKubernetesResource host : cluster.list(ApiVersions.METAL3, "BareMetalHost")) {
        assertThat(isFree(host)).as("host " + name(host) + " released").isTrue();
      }
    }
    assertThat(imageSets())
        .as("the Go provider's ClusterImageSets, deleted with them")
        .isEqualTo(imageSetsBefore);
    Set<String> left = new java.util.TreeSet<>(clusterScopedAfterTheSwitch);
    left.removeIf(
        object -> imageSetUids.keySet().stream().anyMatch(set -> object.endsWith(" " + set)));
    assertThat(highlyAvailable.clusterScopedObjectsButOtherNamespaces())
        .as(
            "the cluster-scoped objects of after the switch, but the Go provider's ClusterImageSets")
        .isEqualTo(left);
  }

  /**
   * Each CRD as ours declares it: our versions alone, no conversion webhook, our labels alone (none
   * naming the Go provider as its provider), nothing that would put its webhook back.
   */
  private static void assertOurCrdsAloneServe() {
    var hub = world.world().hub();
    for (String group : List.of("bootstrap", "controlplane")) {
      for (CustomResourceDefinition ours :
          CrdInstaller.read(hub, TestPaths.repoRoot().resolve("config/crd").resolve(group))) {
        CustomResourceDefinition live =
            hub.apiextensions().v1().customResourceDefinitions().withName(name(ours)).get();
        assertThat(live.getSpec().getVersions())
            .extracting(CustomResourceDefinitionVersion::getName)
            .as("the versions of " + name(ours))
            .containsExactlyElementsOf(
                ours.getSpec().getVersions().stream()
                    .map(CustomResourceDefinitionVersion::getName)
                    .toList());
        assertThat(live.getSpec().getConversion().getStrategy()).isEqualTo("None");
        assertThat(live.getMetadata().getLabels())
            .as("the labels of " + name(ours))
            .isEqualTo(ours.getMetadata().getLabels());
        assertThat(live.getMetadata().getAnnotations())
            .doesNotContainKey("cert-manager.io/inject-ca-from");
      }
    }
  }

  // ---- reading ----

  private static io.fabric8.kubernetes.client.KubernetesClient hub() {
    return world.world().hub();
  }

  /** {@code <resource>.<group>/<name>} of every config and control plane, as kubectl names them. */
  private static List<String> kubectlNamesOfControlPlanesAndConfigs() {
    List<String> names = new java.util.ArrayList<>();
    for (ClusterScenario cluster : clusters()) {
      for (GenericKubernetesResource object : cluster.controlPlaneAndConfigs()) {
        String group = object.getApiVersion().substring(0, object.getApiVersion().indexOf('/'));
        names.add(
            object.getKind().toLowerCase(java.util.Locale.ROOT) + "." + group + "/" + name(object));
      }
    }
    return names;
  }

  private static List<ClusterScenario> clusters() {
    return List.of(highlyAvailable, singleNode);
  }

  private static boolean isTakenOver(ClusterScenario cluster) {
    return cluster.controlPlaneTakenOverFromTheGoProvider()
        && cluster.controlPlaneAndConfigs().stream()
            .noneMatch(
                o ->
                    o.getMetadata().getFinalizers().contains(GoProvider.CONTROL_PLANE_FINALIZER)
                        || o.getMetadata().getFinalizers().contains(GoProvider.CONFIG_FINALIZER));
  }

  /** {@code kind name} of the control plane and each config. */
  private static Set<String> kindsAndNamesOfControlPlaneAndConfigs(ClusterScenario cluster) {
    Set<String> names = new java.util.TreeSet<>();
    cluster.controlPlaneAndConfigs().forEach(o -> names.add(o.getKind() + " " + name(o)));
    return names;
  }

  /** The ClusterImageSet the cluster's AgentClusterInstall names. */
  private static String imageSetOf(ClusterScenario cluster) {
    String controlPlane = cluster.controlPlane().getMetadata().getName();
    return string(
        cluster.get(ApiVersions.HIVE_EXTENSION, "AgentClusterInstall", controlPlane),
        "spec",
        "imageSetRef",
        "name");
  }

  /** The ClusterImageSets of before the clusters, and the Go provider's. */
  private static Set<String> goImageSets() {
    Set<String> names = new java.util.TreeSet<>(imageSetsBefore);
    names.addAll(imageSetUids.keySet());
    return names;
  }

  private static Set<String> imageSets() {
    Set<String> names = new java.util.TreeSet<>();
    highlyAvailable
        .hub()
        .genericKubernetesResources(ApiVersions.HIVE, "ClusterImageSet")
        .list()
        .getItems()
        .forEach(set -> names.add(name(set)));
    return names;
  }
}
