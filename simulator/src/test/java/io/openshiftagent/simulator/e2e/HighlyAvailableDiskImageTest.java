package io.openshiftagent.simulator.e2e;

import static io.openshiftagent.simulator.Fields.string;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Secret;
import io.openshiftagent.simulator.ApiVersions;
import io.openshiftagent.simulator.Fields;
import io.openshiftagent.simulator.assisted.Agents;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.parallel.ResourceAccessMode;
import org.junit.jupiter.api.parallel.ResourceLock;

/**
 * End to end in the DiskImage boot mode: the bootstrap provider downloads each InfraEnv's discovery
 * ignition from assisted-service's REST API (over HTTPS, trusting its CA from the configured
 * Secret) into the Machine's bootstrap data; Metal3 writes the CoreOS disk image and hands that
 * data to the host as user data; the host boots it, and its discovery agent registers with the
 * InfraEnv named in the ignition. One host's rootDeviceHints first match none of its three disks,
 * then, fixed, choose one the service would not.
 */
@ResourceLock(value = E2eWorld.WORLD, mode = ResourceAccessMode.READ)
class HighlyAvailableDiskImageTest {
  @RegisterExtension static final E2eWorld world = new E2eWorld();

  @Test
  void installsAnHaClusterFromDiskImagesBootedWithTheDiscoveryIgnition() throws Exception {
    ClusterScenario cluster = world.scenario("e2e-diskimage", "test-multinode");
    cluster.enrolHosts(5);
    String hinted = hostZero(cluster);
    // A serial number none of its disks has: its Agent is not approved, and its Machine says why.
    Map<String, Object> noDisk = new HashMap<>(Map.of("serialNumber", "NO-SUCH-DISK"));
    cluster.setSpec(ApiVersions.METAL3, "BareMetalHost", hinted, "rootDeviceHints", noDisk);
    cluster.apply("/e2e/ha.yaml", Map.of("BOOT_MODE", "DiskImage", "WORKERS", "2"));

    AtomicReference<Map<String, Object>> told = new AtomicReference<>();
    cluster.await(
        "the Machine of host " + hinted + " to say that no disk matches its hints",
        () ->
            NO_DISK.equals(told.updateAndGet(c -> readyOfMachine(cluster, hinted)).get("reason")));
    assertThat(told.get().get("status")).isEqualTo("False");
    assertThat((String) told.get().get("message"))
        .contains("no disk matches rootDeviceHints {serialNumber: NO-SUCH-DISK}")
        .contains("/dev/sda (SSD, 480 GB", "/dev/sdb (HDD, 2400 GB", "/dev/nvme0n1 (SSD, 960 GB");
    // Its Agent has its fields (the Node's label names the host) but not the approval.
    cluster.await(
        "the Agent of host " + hinted + ", not approved",
        () ->
            agentOf(cluster, hinted).map(a -> !Fields.isTrue(a, "spec", "approved")).orElse(false));

    // Fixed: not rotational and at least 900 GB, the NVMe SSD; the service's own choice, the
    // other hosts', is the HDD (it prefers non-NVMe disks, then HDDs).
    Map<String, Object> nvme = new HashMap<>(Map.of("rotational", false, "minSizeGigabytes", 900));
    nvme.put("serialNumber", null);
    cluster.setSpec(ApiVersions.METAL3, "BareMetalHost", hinted, "rootDeviceHints", nvme);

    cluster.awaitInstalled(5);

    GenericKubernetesResource agent = agentOf(cluster, hinted).orElseThrow();
    String chosen = string(agent, "spec", "installation_disk_id");
    assertThat(chosen).startsWith("/dev/disk/by-id/nvme-eui.");
    // The service took it: its host record. The Agent's status mirrors that record only when the
    // service's Agent controller next reconciles the Agent, which can be many minutes after the
    // installation when no event reaches it: the service's timing, not ours.
    assertThat(serviceRecord(ClusterScenario.name(agent))).isEqualTo(chosen + "|/dev/nvme0n1");
    for (GenericKubernetesResource other : cluster.list(ApiVersions.AGENT_INSTALL, "Agent")) {
      if (!ClusterScenario.name(other).equals(ClusterScenario.name(agent))) {
        assertThat(string(other, "spec", "installation_disk_id")).isNull();
        assertThat(serviceRecord(ClusterScenario.name(other))).endsWith("|/dev/sdb");
      }
    }
    assertThat(readyOfMachine(cluster, hinted).get("status")).isEqualTo("True");

    cluster.assertMachinesMatchTheirNodes();
    // The node identity the manifest asks for, as the Go provider's users get it.
    cluster.assertNodesAsTheGoProviderNamesThem();
    for (GenericKubernetesResource host : cluster.list(ApiVersions.METAL3, "BareMetalHost")) {
      // The template's disk image, not a live ISO; the user data is the Machine's bootstrap data.
      assertThat(string(host, "spec", "image", "format")).isEqualTo("qcow2");
      assertThat(string(host, "spec", "image", "url"))
          .isEqualTo("https://example.com/rhcos-4.20.0-x86_64-nutanix.x86_64.qcow2");
      String machine = string(host, "spec", "consumerRef", "name");
      Secret userData =
          cluster
              .hub()
              .secrets()
              .inNamespace(cluster.namespace())
              .withName(string(host, "spec", "userData", "name"))
              .get();
      String ignition =
          new String(
              Base64.getDecoder().decode(userData.getData().get("value")), StandardCharsets.UTF_8);
      // The discovery ignition assisted-service served for this Machine's InfraEnv: its agent
      // registers with the InfraEnv's id in the service (which its image's URL names).
      GenericKubernetesResource infraEnv =
          cluster.get(ApiVersions.AGENT_INSTALL, "InfraEnv", machine);
      String infraEnvId =
          Agents.infraEnvId(string(infraEnv, "status", "isoDownloadURL")).orElseThrow();
      assertThat(ignition)
          .contains("--infra-env-id " + infraEnvId)
          .contains("\"version\":\"3.1.0\"");
    }
  }

  private static final String NO_DISK = "NoDiskMatchesRootDeviceHints";

  /** The first enrolled host's name (prefixed with the namespace's on a shared API server). */
  private static String hostZero(ClusterScenario cluster) {
    return cluster.list(ApiVersions.METAL3, "BareMetalHost").stream()
        .map(ClusterScenario::name)
        .filter(name -> name.endsWith("host-0"))
        .findFirst()
        .orElseThrow();
  }

  /** The Machine whose Metal3Machine claimed {@code host}, once one has. */
  private static GenericKubernetesResource machineOf(ClusterScenario cluster, String host) {
    String m3m =
        string(
            cluster.get(ApiVersions.METAL3, "BareMetalHost", host), "spec", "consumerRef", "name");
    return m3m == null
        ? null
        : cluster.machines().stream()
            .filter(m -> m3m.equals(string(m, "spec", "infrastructureRef", "name")))
            .findFirst()
            .orElse(null);
  }

  /** The Agent of {@code host}: the one labelling its Node with the host's UID. */
  private static Optional<GenericKubernetesResource> agentOf(ClusterScenario cluster, String host) {
    String uid = cluster.get(ApiVersions.METAL3, "BareMetalHost", host).getMetadata().getUid();
    return cluster.list(ApiVersions.AGENT_INSTALL, "Agent").stream()
        .filter(a -> uid.equals(Fields.stringMap(a, "spec", "nodeLabels").get("metal3.io/uuid")))
        .findFirst();
  }

  /** The Machine's BootstrapConfigReady, which Cluster API mirrors from its config's Ready. */
  private static Map<String, Object> readyOfMachine(ClusterScenario cluster, String host) {
    return Fields.conditions(machineOf(cluster, host)).stream()
        .filter(c -> "BootstrapConfigReady".equals(c.get("type")))
        .findFirst()
        .orElse(Map.of());
  }

  /** The installation disk the service recorded for the host {@code id}: its id and path. */
  private static String serviceRecord(String id) throws Exception {
    return world
        .world()
        .assistedService()
        .postgres()
        .query(
            "SELECT installation_disk_id, installation_disk_path FROM hosts WHERE id = '"
                + id
                + "'")
        .get(0);
  }
}
