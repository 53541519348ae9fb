package io.openshiftagent.simulator.e2e;

import static io.openshiftagent.simulator.Fields.integer;
import static io.openshiftagent.simulator.Fields.string;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.openshiftagent.simulator.ApiVersions;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.parallel.ResourceAccessMode;
import org.junit.jupiter.api.parallel.ResourceLock;

/**
 * End to end, single-node OKD (the Go provider's single-node example): one control-plane Machine,
 * no workers, no VIPs, no pull secret. assisted-service installs as soon as the one host is
 * approved, and Cluster API reports the cluster Available with its one Machine Running.
 */
@ResourceLock(value = E2eWorld.WORLD, mode = ResourceAccessMode.READ)
class SingleNodeTest {
  @RegisterExtension static final E2eWorld world = new E2eWorld();

  @Test
  void installsASingleNodeClusterOnOneHost() {
    ClusterScenario cluster = world.scenario("e2e-sno", "test-sno");
    cluster.enrolHosts(1);
    cluster.apply("/e2e/sno.yaml", Map.of());

    cluster.awaitInstalled(1);

    assertThat(cluster.controlPlaneMachines()).hasSize(1);
    cluster.assertMachinesMatchTheirNodes();
    // The node identity the manifest asks for, as the Go provider's users get it.
    cluster.assertNodesAsTheGoProviderNamesThem();
    GenericKubernetesResource install =
        cluster.get(ApiVersions.HIVE_EXTENSION, "AgentClusterInstall", "test-sno");
    assertThat(integer(install, -1, "spec", "provisionRequirements", "controlPlaneAgents"))
        .isEqualTo(1);
    assertThat(integer(install, 0, "spec", "provisionRequirements", "workerAgents")).isZero();
    assertThat(string(install, "spec", "platformType")).isEqualTo("None");
    // OKD 4.19 runs Kubernetes 1.32; the control plane reads both from the installed cluster.
    cluster.await(
        "the control plane to report the installed versions",
        () ->
            "v1.32.0".equals(string(cluster.controlPlane(), "status", "version"))
                && "4.19.0-okd-scos.ec.6"
                    .equals(string(cluster.controlPlane(), "status", "distributionVersion")));
  }
}
