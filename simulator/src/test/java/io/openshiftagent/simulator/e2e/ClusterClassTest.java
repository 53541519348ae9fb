package io.openshiftagent.simulator.e2e;

import static io.openshiftagent.simulator.Fields.conditionTrue;
import static io.openshiftagent.simulator.Fields.label;
import static io.openshiftagent.simulator.Fields.string;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.openshiftagent.simulator.ApiVersions;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.parallel.ResourceAccessMode;
import org.junit.jupiter.api.parallel.ResourceLock;

/**
 * End to end through Cluster API's topology controller: a Cluster with a topology of our
 * ClusterClass. Cluster API makes the OpenshiftAssistedControlPlane from our
 * OpenshiftAssistedControlPlaneTemplate (with the topology's replicas, Kubernetes version and
 * machine infrastructure template, and the OpenShift release from a variable), the Metal3Cluster
 * from its template, and the workers' MachineDeployment from our OpenshiftAssistedConfigTemplate.
 */
@ResourceLock(value = E2eWorld.WORLD, mode = ResourceAccessMode.READ)
class ClusterClassTest {
  @RegisterExtension static final E2eWorld world = new E2eWorld();

  @Test
  void installsAClusterBuiltFromTheClusterClassByTheTopologyController() {
    ClusterScenario cluster = world.scenario("e2e-class", "test-class");
    cluster.enrolHosts(5);
    cluster.apply("/e2e/clusterclass.yaml", Map.of());

    // Two installations one after the other, each bounded on its own: the topology gives the
    // Machines a Kubernetes version, so Cluster API's MachineSet preflight check
    // ControlPlaneIsStable holds the workers until the control plane is installed.
    cluster.await(
        "the control plane Available", () -> conditionTrue(cluster.controlPlane(), "Available"));
    cluster.awaitInstalled(5);

    cluster.assertMachinesMatchTheirNodes();
    assertThat(cluster.controlPlaneMachines()).hasSize(3);
    assertThat(cluster.workerMachines()).hasSize(2);
    assertThat(string(cluster.cluster(), "status", "phase")).isEqualTo("Provisioned");
    // What the topology controller wrote into the control plane it made from our template.
    GenericKubernetesResource controlPlane = cluster.controlPlane();
    assertThat(label(controlPlane, "topology.cluster.x-k8s.io/owned")).isNotNull();
    assertThat(string(controlPlane, "spec", "version")).isEqualTo("v1.33.0");
    assertThat(string(controlPlane, "spec", "distributionVersion")).isEqualTo("4.20.0");
    assertThat(string(controlPlane, "spec", "replicas")).isEqualTo("3");
    assertThat(string(controlPlane, "spec", "machineTemplate", "spec", "infrastructureRef", "kind"))
        .isEqualTo("Metal3MachineTemplate");
    // The workers' bootstrap configs are clones of the class's OpenshiftAssistedConfigTemplate.
    List<GenericKubernetesResource> deployments =
        cluster.list(ApiVersions.CAPI, "MachineDeployment");
    assertThat(deployments).hasSize(1);
    assertThat(
            string(
                deployments.get(0), "spec", "template", "spec", "bootstrap", "configRef", "kind"))
        .isEqualTo("OpenshiftAssistedConfigTemplate");
    assertThat(cluster.list(ApiVersions.BOOTSTRAP, "OpenshiftAssistedConfig")).hasSize(5);
  }
}
