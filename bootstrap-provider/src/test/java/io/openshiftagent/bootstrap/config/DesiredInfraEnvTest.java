package io.openshiftagent.bootstrap.config;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.openshiftagent.api.bootstrap.v1alpha2.BootMode;
import io.openshiftagent.api.bootstrap.v1alpha2.OpenshiftAssistedConfig;
import io.openshiftagent.api.bootstrap.v1alpha2.OpenshiftAssistedConfigSpec;
import io.openshiftagent.api.external.assisted.InfraEnv;
import io.openshiftagent.api.external.capi.Cluster;
import io.openshiftagent.api.external.capi.Machine;
import io.openshiftagent.bootstrap.Fixtures;
import io.openshiftagent.bootstrap.names.Names;
import java.util.Map;
import org.junit.jupiter.api.Test;

class DesiredInfraEnvTest {
  private final Machine machine = new Machine();
  private final Cluster cluster = new Cluster();

  DesiredInfraEnvTest() {
    machine.setMetadata(new ObjectMetaBuilder().withName("m-0").withUid("machine-uid").build());
    cluster.setMetadata(new ObjectMetaBuilder().withName("ocp1").withUid("cluster-uid").build());
  }

  @Test
  void carriesEveryDiscoverySettingOfTheConfigAndBindsToTheClusterDeployment() {
    OpenshiftAssistedConfigSpec spec = Fixtures.fullSpec();
    OpenshiftAssistedConfig config = Fixtures.config("m-0", spec);

    InfraEnv infraEnv =
        DesiredInfraEnv.build(
            config,
            machine,
            cluster,
            "ocp1",
            "my-cp",
            "my-pull-secret",
            "{\"ignition\":{}}",
            BootMode.DISK_IMAGE);

    assertThat(infraEnv.getMetadata().getName()).isEqualTo("m-0");
    assertThat(infraEnv.getMetadata().getNamespace()).isEqualTo("ns");
    var s = infraEnv.getSpec();
    assertThat(s.clusterRef.name).isEqualTo("my-cp");
    assertThat(s.clusterRef.namespace).isEqualTo("ns");
    assertThat(s.pullSecretRef.getName()).isEqualTo("my-pull-secret");
    assertThat(s.proxy.httpProxy).isEqualTo("http://proxy:3128");
    assertThat(s.proxy.httpsProxy).isEqualTo("http://proxy:3129");
    assertThat(s.proxy.noProxy).isEqualTo(".cluster.local");
    assertThat(s.additionalNTPSources).containsExactly("ntp1.example.com", "ntp2.example.com");
    assertThat(s.sshAuthorizedKey).isEqualTo(spec.sshAuthorizedKey);
    assertThat(s.nmStateConfigLabelSelector.getMatchLabels()).containsEntry("nmstate", "host-0");
    assertThat(s.cpuArchitecture).isEqualTo("aarch64");
    assertThat(s.additionalTrustBundle).isEqualTo(spec.additionalTrustBundle);
    assertThat(s.osImageVersion).isEqualTo("4.19");
    assertThat(s.ignitionConfigOverride).isEqualTo("{\"ignition\":{}}");
    assertThat(s.imageType).isEqualTo("full-iso");
    // Kernel arguments are for the installed node (installer args), not for discovery.
    assertThat(s.kernelArguments).isNull();
    // The boot mode it was made for, whatever the provider's default becomes later.
    assertThat(infraEnv.getMetadata().getAnnotations())
        .containsEntry(Names.BOOT_MODE_ANNOTATION, "DiskImage");
  }

  @Test
  void isLabelledOwnedAndMakesItsAgentsFindable() {
    OpenshiftAssistedConfig config = Fixtures.config("m-0", Fixtures.fullSpec());

    InfraEnv infraEnv =
        DesiredInfraEnv.build(
            config, machine, cluster, "ocp1", "my-cp", "ps", null, BootMode.LIVE_ISO);

    Map<String, String> expected =
        Map.of("cluster.x-k8s.io/cluster-name", "ocp1", Names.CONFIG_LABEL, "m-0");
    assertThat(infraEnv.getMetadata().getLabels()).isEqualTo(expected);
    assertThat(infraEnv.getSpec().agentLabels).isEqualTo(expected);
    assertThat(infraEnv.getMetadata().getOwnerReferences())
        .extracting(OwnerReference::getUid, OwnerReference::getController)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple("uid-m-0", true),
            org.assertj.core.groups.Tuple.tuple("machine-uid", null),
            org.assertj.core.groups.Tuple.tuple("cluster-uid", null));
  }

  @Test
  void leavesUnsetOptionsUnset() {
    OpenshiftAssistedConfig config = Fixtures.config("m-0", new OpenshiftAssistedConfigSpec());

    InfraEnv infraEnv =
        DesiredInfraEnv.build(
            config, machine, cluster, "ocp1", "my-cp", "placeholder", null, BootMode.LIVE_ISO);

    var s = infraEnv.getSpec();
    assertThat(s.proxy).isNull();
    assertThat(s.additionalNTPSources).isNull();
    assertThat(s.sshAuthorizedKey).isNull();
    assertThat(s.ignitionConfigOverride).isNull();
    assertThat(s.pullSecretRef.getName()).isEqualTo("placeholder");
  }

  @Test
  void aConfigsWatchFilterLabelGoesToTheInfraEnvAndItsAgents() {
    OpenshiftAssistedConfig config = Fixtures.config("m-0", Fixtures.fullSpec());
    config.getMetadata().setLabels(Map.of("cluster.x-k8s.io/watch-filter", "shard-a"));

    InfraEnv infraEnv =
        DesiredInfraEnv.build(
            config, machine, cluster, "ocp1", "my-cp", "ps", null, BootMode.LIVE_ISO);

    assertThat(infraEnv.getMetadata().getLabels())
        .containsEntry("cluster.x-k8s.io/watch-filter", "shard-a");
    // assisted-service copies the agent labels to the Agents: a shard's Agent controller sees them.
    assertThat(infraEnv.getSpec().agentLabels)
        .containsEntry("cluster.x-k8s.io/watch-filter", "shard-a")
        .containsEntry(Names.CONFIG_LABEL, "m-0");
  }

  @Test
  void withoutAWatchFilterNoneIsAdded() {
    InfraEnv infraEnv =
        DesiredInfraEnv.build(
            Fixtures.config("m-0", Fixtures.fullSpec()),
            machine,
            cluster,
            "ocp1",
            "my-cp",
            "ps",
            null,
            BootMode.LIVE_ISO);

    assertThat(infraEnv.getSpec().agentLabels).doesNotContainKey("cluster.x-k8s.io/watch-filter");
  }
}
