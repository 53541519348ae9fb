package io.openshiftagent.simulator.e2e;

import static io.openshiftagent.simulator.Fields.string;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.openshiftagent.simulator.Fields;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.assertj.core.api.InstanceOfAssertFactories;

/**
 * The install fields a site adds to the highly available manifest: a proxy with its exceptions,
 * capabilities (a baseline and one more), an install-config override, a ConfigMap of extra
 * manifests ({@code /e2e/extra-manifests.yaml}), the machine network, the network type and disk
 * encryption with the hosts' TPM; and what the real assisted-service made of each.
 */
final class SiteInstallFields {
  static final String PROXY = "http://proxy.lab.home:3128";
  static final String NO_PROXY = ".lab.home,192.168.222.0/24";
  static final String MACHINE_NETWORK = "192.168.222.0/24";

  /** A field the service knows, which nothing else sets: the override shows in what it renders. */
  static final String OVERRIDE = "{\"cpuPartitioningMode\":\"AllNodes\"}";

  private SiteInstallFields() {}

  /** Adds the fields to the control plane of {@code /e2e/ha.yaml}. */
  static void add(GenericKubernetesResource cp) {
    Map<String, String> annotations = new HashMap<>(cp.getMetadata().getAnnotations());
    annotations.put("controlplane.cluster.x-k8s.io/install-config-override", OVERRIDE);
    cp.getMetadata().setAnnotations(annotations);
    Map<String, Object> config = ServiceRecord.config(cp);
    config.put("proxy", Map.of("httpProxy", PROXY, "httpsProxy", PROXY, "noProxy", NO_PROXY));
    config.put(
        "capabilities",
        Map.of(
            "baselineCapability",
            "v4.11",
            "additionalEnabledCapabilities",
            List.of("CSISnapshot")));
    config.put("manifestsConfigMapRefs", List.of(Map.of("name", "extra-manifests")));
    config.put("machineNetworks", List.of(MACHINE_NETWORK));
    config.put("networkType", "OVNKubernetes");
    config.put("diskEncryption", Map.of("enableOn", "all", "mode", "tpmv2"));
  }

  /** Each field as the service recorded it, rendered it into the install-config, or stored it. */
  static void assertTaken(ServiceRecord service) throws Exception {
    assertThat(
            service.clusterColumns(
                "platform_type, http_proxy, https_proxy, no_proxy, network_type,"
                    + " disk_encryption_enable_on, disk_encryption_mode"))
        .as("the service's record of the cluster")
        .isEqualTo(
            "baremetal|" + PROXY + "|" + PROXY + "|" + NO_PROXY + "|OVNKubernetes|all|tpmv2");
    String id = service.clusterId();
    assertThat(service.query("SELECT cidr FROM machine_networks WHERE cluster_id = '" + id + "'"))
        .containsExactly(MACHINE_NETWORK);
    assertThat(
            service.query(
                "SELECT count(*) FROM hosts WHERE cluster_id = '"
                    + id
                    + "' AND validations_info LIKE '%Installation disk can be encrypted using"
                    + " tpmv2%'"))
        .as("hosts whose TPM the service found fit for the disk encryption")
        .containsExactly("5");

    GenericKubernetesResource installConfig = service.installConfig();
    assertThat(string(installConfig, "proxy", "httpProxy")).isEqualTo(PROXY);
    assertThat(string(installConfig, "proxy", "httpsProxy")).isEqualTo(PROXY);
    assertThat(string(installConfig, "proxy", "noProxy")).contains(".lab.home", MACHINE_NETWORK);
    assertThat(string(installConfig, "capabilities", "baselineCapabilitySet")).isEqualTo("v4.11");
    assertThat(Fields.get(installConfig, "capabilities", "additionalEnabledCapabilities"))
        .as(
            "the user's capability and those every bare-metal cluster gets, without the Machine API")
        .asInstanceOf(InstanceOfAssertFactories.LIST)
        .contains("CSISnapshot", "baremetal")
        .doesNotContain("MachineAPI");
    assertThat(string(installConfig, "cpuPartitioningMode")).isEqualTo("AllNodes");
    assertThat(string(installConfig, "networking", "networkType")).isEqualTo("OVNKubernetes");
    assertThat(Fields.get(installConfig, "networking", "machineNetwork"))
        .isEqualTo(List.of(Map.of("cidr", MACHINE_NETWORK)));
    assertThat(Fields.get(installConfig, "platform", "baremetal")).isNotNull();

    List<Path> manifests = service.stored("99-lab-settings.yaml");
    assertThat(manifests).as("the extra manifest in the service's storage").hasSize(1);
    assertThat(Files.readString(manifests.get(0))).contains("name: lab-settings");
  }
}
