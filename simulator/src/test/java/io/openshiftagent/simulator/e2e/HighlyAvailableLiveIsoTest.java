package io.openshiftagent.simulator.e2e;

import static io.openshiftagent.simulator.Fields.label;
import static io.openshiftagent.simulator.Fields.string;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.openshiftagent.simulator.ApiVersions;
import io.openshiftagent.testsupport.AuditLog;
import io.openshiftagent.testsupport.ProviderRequests;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.parallel.ResourceAccessMode;
import org.junit.jupiter.api.parallel.ResourceLock;

/**
 * End to end with the real Cluster API core controllers: an HA cluster (3 control-plane Machines, 2
 * workers from a MachineDeployment, LiveISO) applied as a user would, installed by our providers
 * with Metal3, the hosts, assisted-service and the installed cluster simulated; and the hub
 * footprint guard over that installation. Its control plane also carries the install fields a site
 * adds: a proxy, capabilities, an install-config override, extra manifests, the machine network,
 * the network type and TPM disk encryption, each of which the real service takes.
 */
@ResourceLock(value = E2eWorld.WORLD, mode = ResourceAccessMode.READ)
class HighlyAvailableLiveIsoTest {
  private static final int MACHINES = 5;

  @RegisterExtension static final E2eWorld world = new E2eWorld();

  private static ClusterScenario cluster;
  private static Instant installed;

  @BeforeAll
  static void installCluster() {
    cluster = world.scenario("e2e-ha", "test-multinode");
    cluster.enrolHosts(MACHINES);
    cluster.apply("/e2e/extra-manifests.yaml", Map.of());
    cluster.apply(
        "/e2e/ha.yaml",
        Map.of("BOOT_MODE", "LiveISO", "WORKERS", "2"),
        ServiceRecord.onControlPlane(SiteInstallFields::add));
    cluster.awaitInstalled(MACHINES);
    installed = Instant.now();
  }

  /**
   * Our two providers' requests to the hub from the apply until the cluster is installed, counted
   * from the hub's audit log (those in the cluster's namespace and those to its cluster-scoped
   * ClusterImageSet, named {@code <namespace>.<cluster>}): a count, not a timing. Above the budget
   * of {@link ProviderRequests#BUDGET_PER_MACHINE} requests carried out per Machine, or {@link
   * ProviderRequests#CONFLICTS_PER_MACHINE} conflicts, it fails, and the table by verb says which
   * requests grew (docs/benchmarks.md explains each line).
   */
  @Test
  void installingItStaysWithinTheHubRequestLimit() {
    String namespace = cluster.namespace();
    List<AuditLog.Request> ofThisCluster =
        AuditLog.read(world.world().hubAuditLog()).stream()
            .filter(r -> !r.received().isAfter(installed))
            .filter(
                r ->
                    r.namespace().equals(namespace)
                        || r.namespace().isEmpty() && r.name().startsWith(namespace + "."))
            .toList();
    ProviderRequests ours = ProviderRequests.of(ofThisCluster, MACHINES);
    System.out.printf(
        "Our providers' hub requests for cluster %s/%s (%d Machines), apply to installed:%n%s",
        namespace, cluster.clusterName(), MACHINES, ours.table());
    assertThat(ours.perMachine())
        .as("hub requests per Machine, both providers (the table above says which)")
        .isLessThanOrEqualTo(ProviderRequests.BUDGET_PER_MACHINE);
    assertThat(ours.conflictsPerMachine())
        .as("requests refused with 409 Conflict per Machine (the table above says which)")
        .isLessThanOrEqualTo(ProviderRequests.CONFLICTS_PER_MACHINE);
  }

  /** What the real assisted-service made of each install field the control plane carries. */
  @Test
  void theServiceTookEachInstallField() throws Exception {
    SiteInstallFields.assertTaken(new ServiceRecord(world.world(), cluster));
  }

  @Test
  void itsMachinesBecomeRunningNodes() {
    assertThat(cluster.controlPlaneMachines()).hasSize(3);
    assertThat(
            cluster.workerMachines().stream()
                .map(m -> label(m, "cluster.x-k8s.io/deployment-name")))
        .containsExactly("test-multinode-worker", "test-multinode-worker");
    cluster.assertMachinesMatchTheirNodes();
    assertThat(string(cluster.cluster(), "status", "phase")).isEqualTo("Provisioned");
    // Our providers ran as their jars, each with its own user agent, as the hub's audit log says.
    Set<String> userAgents =
        AuditLog.read(world.world().hubAuditLog()).stream()
            .filter(r -> r.namespace().equals(cluster.namespace()))
            .map(AuditLog.Request::userAgent)
            .collect(Collectors.toSet());
    assertThat(userAgents)
        .anyMatch(agent -> agent.startsWith("openshift-agent-bootstrap/0."))
        .anyMatch(agent -> agent.startsWith("openshift-agent-controlplane/0."));
    // Only Cluster API's defaulting webhook sets these (the CRD has no defaults): it ran.
    GenericKubernetesResource deployment =
        cluster.get(ApiVersions.CAPI, "MachineDeployment", "test-multinode-worker");
    assertThat(string(deployment, "spec", "rollout", "strategy", "type"))
        .isEqualTo("RollingUpdate");
    assertThat(string(deployment, "spec", "rollout", "strategy", "rollingUpdate", "maxSurge"))
        .isEqualTo("1");
    // LiveISO: each host booted its InfraEnv's discovery ISO.
    for (GenericKubernetesResource host : cluster.list(ApiVersions.METAL3, "BareMetalHost")) {
      assertThat(string(host, "spec", "image", "format")).isEqualTo("live-iso");
    }
    // The real CAPM3 serves its deprecated v1beta1 through its conversion webhook: the same
    // Metal3Machines, with the provider IDs it set, read at v1beta1.
    assertThat(
            cluster
                .hub()
                .genericKubernetesResources(
                    "infrastructure.cluster.x-k8s.io/v1beta1", "Metal3Machine")
                .inNamespace(cluster.namespace())
                .list()
                .getItems()
                .stream()
                .map(m -> string(m, "spec", "providerID")))
        .containsExactlyInAnyOrderElementsOf(
            cluster.list(ApiVersions.METAL3_INFRASTRUCTURE, "Metal3Machine").stream()
                .map(m -> string(m, "spec", "providerID"))
                .toList());
    // And its validation webhook refuses a template that names no image.
    GenericKubernetesResource noImage = new GenericKubernetesResource();
    noImage.setApiVersion(ApiVersions.METAL3_INFRASTRUCTURE);
    noImage.setKind("Metal3MachineTemplate");
    noImage.setMetadata(
        new ObjectMetaBuilder().withName("no-image").withNamespace(cluster.namespace()).build());
    noImage.setAdditionalProperty("spec", Map.of("template", Map.of("spec", Map.of())));
    assertThatThrownBy(() -> cluster.hub().resource(noImage).create())
        .hasMessageContaining("either image or customDeploy is required");
  }
}
