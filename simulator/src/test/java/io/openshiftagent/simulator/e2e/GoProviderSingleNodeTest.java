package io.openshiftagent.simulator.e2e;

import static io.openshiftagent.simulator.Fields.integer;
import static io.openshiftagent.simulator.Fields.string;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.openshiftagent.simulator.ApiVersions;
import io.openshiftagent.simulator.GoProviderCheckout;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

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
 * test resources under {@code src/test/resources/go-provider-state/sno} are captured again. Then
 * the Cluster is deleted, and what is left is written beside them ({@code left-after-deletion.txt},
 * {@code +} marking what deleting the Cluster should not have left).
 */
@GoProviderCheckout.Required
@Tag(E2eWorld.HUB_OF_ITS_OWN)
class GoProviderSingleNodeTest {
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

    // What deleting the Cluster leaves under the Go pair, recorded beside the state (observed, not
    // asserted: the comparison with ours is for docs/from-the-go-provider.md).
    cluster.deleteCluster();
    Set<String> left = new TreeSet<>(cluster.everythingInTheNamespace());
    Set<String> expected = cluster.whatDeletingTheClusterMustLeave();
    StringBuilder report =
        new StringBuilder("# Left in the namespace after deleting the Cluster under the Go pair\n");
    left.forEach(o -> report.append(expected.contains(o) ? "  " : "+ ").append(o).append('\n'));
    report.append("# ClusterImageSets left (cluster-scoped)\n");
    world
        .world()
        .hub()
        .genericKubernetesResources(ApiVersions.HIVE, "ClusterImageSet")
        .list()
        .getItems()
        .forEach(set -> report.append("+ ").append(set.getMetadata().getName()).append('\n'));
    Files.writeString(
        capture.resolve("left-after-deletion.txt"),
        report.toString().replace(cluster.namespace(), "${NAMESPACE}"));
  }
}
