package io.openshiftagent.simulator.e2e;

import static io.openshiftagent.simulator.Fields.string;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Secret;
import io.openshiftagent.simulator.ApiVersions;
import io.openshiftagent.simulator.assisted.Agents;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.parallel.ResourceAccessMode;
import org.junit.jupiter.api.parallel.ResourceLock;

/**
 * End to end in the DiskImage boot mode: the bootstrap provider downloads each InfraEnv's discovery
 * ignition from assisted-service's REST API (over HTTPS, trusting its CA from the configured
 * Secret) into the Machine's bootstrap data; Metal3 writes the CoreOS disk image and hands that
 * data to the host as user data; the host boots it, and its discovery agent registers with the
 * InfraEnv named in the ignition.
 */
@ResourceLock(value = E2eWorld.WORLD, mode = ResourceAccessMode.READ)
class HighlyAvailableDiskImageTest {
  @RegisterExtension static final E2eWorld world = new E2eWorld();

  @Test
  void installsAnHaClusterFromDiskImagesBootedWithTheDiscoveryIgnition() {
    ClusterScenario cluster = world.scenario("e2e-diskimage", "test-multinode");
    cluster.enrolHosts(5);
    cluster.apply("/e2e/ha.yaml", Map.of("BOOT_MODE", "DiskImage", "WORKERS", "2"));

    cluster.awaitInstalled(5);

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
}
