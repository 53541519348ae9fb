package io.openshiftagent.simulator.e2e;

import static io.openshiftagent.simulator.Fields.integer;
import static io.openshiftagent.simulator.Fields.string;
import static io.openshiftagent.simulator.e2e.ClusterScenario.name;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.openshiftagent.simulator.ApiVersions;
import io.openshiftagent.simulator.GoProviderCheckout;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Go provider pair, built from a checkout ({@code -Dworld.providers=go:<checkout>}; skipped
 * without one), installs the single-node cluster of {@link SingleNodeTest} in its only boot mode
 * (the Metal3 host writes the disk image, which boots with the discovery ignition) in the same
 * world as ours: Cluster API reports it Available with its one Machine Running, its Node named and
 * labelled as its examples ask.
 *
 * <p>Then everything the namespace holds, and the ClusterImageSets, is written as YAML with secret
 * values replaced ({@link StateCapture}): into {@code target/go-provider-state/sno}, or into the
 * directory {@code -Dgo-provider.capture=<dir>} names (relative to this module), which is how the
 * test resources under {@code src/test/resources/go-provider-state/sno} are captured again.
 *
 * <p>Then the Cluster is deleted. The Go provider's control plane leaves its Machines to the hub's
 * garbage collector (the world's real kube-controller-manager): the test shows the collector
 * deleting the Machine once its control plane is gone, and the rest of the deletion following. What
 * is left is written beside the state ({@code left-after-deletion.txt}, {@code +} marking what
 * deleting the Cluster should not have left).
 */
@GoProviderCheckout.Required
@Tag(E2eWorld.HUB_OF_ITS_OWN)
class GoProviderSingleNodeTest {
  private static final Logger LOG = LoggerFactory.getLogger(GoProviderSingleNodeTest.class);

  @RegisterExtension static final E2eWorld world = E2eWorld.withGoProviders();

  @Test
  void theGoPairInstallsTheSingleNodeCluster() throws IOException {
    ClusterScenario cluster = world.scenario("go-sno", "test-sno");
    cluster.enrolHosts(1);
    cluster.apply("/e2e/sno.yaml", Map.of());

    cluster.awaitInstalled(1);

    assertThat(cluster.controlPlaneMachines()).hasSize(1);
    cluster.assertMachinesMatchTheirNodes();
    cluster.assertNodesAsTheGoProviderNamesThem();
    GenericKubernetesResource install =
        cluster.get(ApiVersions.HIVE_EXTENSION, "AgentClusterInstall", "test-sno");
    assertThat(integer(install, -1, "spec", "provisionRequirements", "controlPlaneAgents"))
        .isEqualTo(1);
    assertThat(string(install, "spec", "platformType")).isEqualTo("None");

    Path capture =
        Path.of(System.getProperty("go-provider.capture", "target/go-provider-state"))
            .resolve("sno");
    int objects = StateCapture.write(world.world().hub(), cluster.namespace(), capture);
    assertThat(objects).as("objects captured into " + capture).isGreaterThan(10);

    // Deleting the Cluster. The Go pair's control plane deletes its ClusterDeployment and removes
    // its finalizer; its Machine, whose only owner is that control plane, is left to the hub's
    // garbage collector.
    GenericKubernetesResource controlPlane = cluster.controlPlane();
    GenericKubernetesResource machine = cluster.controlPlaneMachines().get(0);
    assertThat(machine.getMetadata().getOwnerReferences())
        .singleElement()
        .satisfies(
            owner -> {
              assertThat(owner.getKind()).isEqualTo("OpenshiftAssistedControlPlane");
              assertThat(owner.getUid()).isEqualTo(controlPlane.getMetadata().getUid());
              assertThat(owner.getController()).isTrue();
            });
    cluster.delete(ApiVersions.CAPI, "Cluster", cluster.clusterName());
    Duration rest =
        cluster.await("Cluster test-sno to be deleted", () -> cluster.cluster() == null);
    assertThat(GarbageCollection.deletedIn(world.world().hubAuditLog(), cluster.namespace()))
        .as("what the hub's garbage collector deleted")
        .contains("machines " + name(machine));

    // What is left: in the namespace, nothing beyond what deleting must leave (once the
    // baremetal-operator has released the host); the Go provider's ClusterImageSet, which it never
    // deletes. Recorded beside the state for docs/from-the-go-provider.md, with the garbage
    // collector's share (objects whose owners are all gone) listed apart.
    try {
      cluster.await(
          "host-0 released, nothing in the namespace but what deleting the Cluster must leave",
          () ->
              ClusterScenario.isFree(cluster.get(ApiVersions.METAL3, "BareMetalHost", "host-0"))
                  && cluster
                      .everythingInTheNamespace()
                      .equals(cluster.whatDeletingTheClusterMustLeave()));
    } finally {
      LOG.info(
          "{}: the Cluster was gone {} s after its deletion",
          cluster.namespace(),
          rest.toSeconds());
      writeWhatIsLeft(cluster, capture.resolve("left-after-deletion.txt"));
    }
    assertThat(imageSets(cluster)).as("the Go provider's ClusterImageSet").contains("test-sno");
  }

  private static List<String> imageSets(ClusterScenario cluster) {
    return cluster
        .hub()
        .genericKubernetesResources(ApiVersions.HIVE, "ClusterImageSet")
        .list()
        .getItems()
        .stream()
        .map(ClusterScenario::name)
        .toList();
  }

  private static void writeWhatIsLeft(ClusterScenario cluster, Path file) throws IOException {
    Set<String> left = new TreeSet<>(cluster.everythingInTheNamespace());
    Set<String> expected = cluster.whatDeletingTheClusterMustLeave();
    Set<String> forTheCollector =
        new TreeSet<>(ApiObjects.objects(cluster.hub(), true, cluster.namespace()).keySet());
    forTheCollector.removeAll(left);
    StringBuilder report =
        new StringBuilder("# Left in the namespace after deleting the Cluster under the Go pair\n");
    left.forEach(o -> report.append(expected.contains(o) ? "  " : "+ ").append(o).append('\n'));
    report.append("# Left for a garbage collector (every owner gone)\n");
    forTheCollector.forEach(o -> report.append("  ").append(o).append('\n'));
    report.append("# ClusterImageSets left (cluster-scoped)\n");
    imageSets(cluster).forEach(set -> report.append("+ ").append(set).append('\n'));
    Files.writeString(file, report.toString().replace(cluster.namespace(), "${NAMESPACE}"));
  }
}
