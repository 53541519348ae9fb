package io.openshiftagent.controlplane.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.LocalObjectReference;
import io.openshiftagent.api.controlplane.v1alpha3.ClusterProxy;
import io.openshiftagent.api.controlplane.v1alpha3.DiskEncryption;
import io.openshiftagent.api.controlplane.v1alpha3.LoadBalancer;
import io.openshiftagent.api.controlplane.v1alpha3.OpenshiftAssistedControlPlane;
import io.openshiftagent.api.external.assisted.AgentClusterInstallSpec;
import io.openshiftagent.api.external.capi.Cluster;
import io.openshiftagent.controlplane.Fixtures;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class DesiredClusterInstallTest {
  private final OpenshiftAssistedControlPlane cp = Fixtures.controlPlane("ns", "cp", 3);
  private final Cluster cluster = Fixtures.cluster("ns", "c");

  @Test
  void countsAgentsAndLinksTheDeploymentAndImageSet() {
    AgentClusterInstallSpec spec = DesiredClusterInstall.spec(cp, cluster, 2, "ns.cp", null);
    assertThat(spec.provisionRequirements.controlPlaneAgents).isEqualTo(3);
    assertThat(spec.provisionRequirements.workerAgents).isEqualTo(2);
    assertThat(spec.clusterDeploymentRef.getName()).isEqualTo("cp");
    assertThat(spec.imageSetRef.getName()).isEqualTo("ns.cp");
    assertThat(spec.manifestsConfigMapRefs).isNull();
  }

  @Test
  void networksUseTheConfiguredHostPrefixesPerFamilyAndNetworkType() {
    cluster.getSpec().clusterNetwork.pods.cidrBlocks = List.of("10.128.0.0/14", "fd01::/48");
    cp.getSpec().config.clusterNetworkHostPrefix = 24;
    cp.getSpec().config.ipv6ClusterNetworkHostPrefix = 56;
    cp.getSpec().config.machineNetworks = List.of("192.168.111.0/24");
    cp.getSpec().config.networkType = "Cilium";
    AgentClusterInstallSpec.Networking n =
        DesiredClusterInstall.spec(cp, cluster, 0, "x", null).networking;
    assertThat(n.clusterNetwork)
        .extracting(e -> e.cidr + "/" + e.hostPrefix)
        .containsExactly("10.128.0.0/14/24", "fd01::/48/56");
    assertThat(n.serviceNetwork).containsExactly("172.30.0.0/16");
    assertThat(n.machineNetwork).extracting(e -> e.cidr).containsExactly("192.168.111.0/24");
    assertThat(n.networkType).isEqualTo("Cilium");
  }

  @Test
  void defaultsAreHostPrefix23AndOvnKubernetes() {
    AgentClusterInstallSpec.Networking n =
        DesiredClusterInstall.spec(cp, cluster, 0, "x", null).networking;
    assertThat(n.clusterNetwork.get(0).hostPrefix).isEqualTo(23);
    assertThat(n.networkType).isEqualTo("OVNKubernetes");
    assertThat(n.machineNetwork).isNull();
  }

  @Test
  void vipsSelectBareMetalAndTheirAbsenceNone() {
    assertThat(DesiredClusterInstall.spec(cp, cluster, 0, "x", null).platformType)
        .isEqualTo("None");
    cp.getSpec().config.apiVIPs = List.of("192.168.111.5");
    cp.getSpec().config.ingressVIPs = List.of("192.168.111.4");
    AgentClusterInstallSpec spec = DesiredClusterInstall.spec(cp, cluster, 0, "x", null);
    assertThat(spec.platformType).isEqualTo("BareMetal");
    assertThat(spec.apiVIPs).containsExactly("192.168.111.5");
    assertThat(spec.ingressVIPs).containsExactly("192.168.111.4");
  }

  @Test
  void singleNodeAsksForOneControlPlaneAgent() {
    assertThat(
            DesiredClusterInstall.spec(Fixtures.controlPlane("ns", "sno", 1), cluster, 0, "x", null)
                .provisionRequirements
                .controlPlaneAgents)
        .isEqualTo(1);
  }

  @Test
  void carriesProxySshDiskEncryptionSchedulingAndManifests() {
    var config = cp.getSpec().config;
    config.proxy = new ClusterProxy();
    config.proxy.httpProxy = "http://proxy:3128";
    config.proxy.noProxy = ".example.com";
    config.sshAuthorizedKey = "ssh-ed25519 AAAA core";
    config.diskEncryption = new DiskEncryption();
    config.diskEncryption.enableOn = "masters";
    config.diskEncryption.mode = "tpmv2";
    config.mastersSchedulable = true;
    config.manifestsConfigMapRefs =
        List.of(new io.openshiftagent.api.common.LocalObjectReference("extra"));
    AgentClusterInstallSpec spec =
        DesiredClusterInstall.spec(cp, cluster, 0, "x", "cp-registry-config");
    assertThat(spec.proxy.httpProxy).isEqualTo("http://proxy:3128");
    assertThat(spec.proxy.noProxy).isEqualTo(".example.com");
    assertThat(spec.sshPublicKey).isEqualTo("ssh-ed25519 AAAA core");
    assertThat(spec.diskEncryption.enableOn).isEqualTo("masters");
    assertThat(spec.diskEncryption.mode).isEqualTo("tpmv2");
    assertThat(spec.mastersSchedulable).isTrue();
    assertThat(spec.manifestsConfigMapRefs)
        .extracting(LocalObjectReference::getName)
        .containsExactly("extra", "cp-registry-config");
  }

  @Test
  void aLoadBalancerIsAskedForOnlyWhenTheSpecNamesOne() {
    assertThat(DesiredClusterInstall.spec(cp, cluster, 0, "x", null).loadBalancer).isNull();
    cp.getSpec().config.loadBalancer = new LoadBalancer(LoadBalancer.USER_MANAGED);
    AgentClusterInstallSpec spec = DesiredClusterInstall.spec(cp, cluster, 0, "x", null);
    assertThat(spec.loadBalancer.type).isEqualTo("UserManaged");
    // Ours to keep in step: a spec that no longer names one removes it.
    assertThat(ClusterInstallPatch.ownedSpecFields(spec)).containsKey("loadBalancer");
    cp.getSpec().config.loadBalancer = null;
    assertThat(
            ClusterInstallPatch.ownedSpecFields(
                DesiredClusterInstall.spec(cp, cluster, 0, "x", null)))
        .containsEntry("loadBalancer", null);
  }

  /**
   * assisted-service writes the AgentClusterInstall back through omitempty Go fields: an absent
   * field is its zero value, and patching the zero value back would fight it.
   */
  @ParameterizedTest(name = "current {0}, patch {1}: no-op {2}")
  @CsvSource(
      nullValues = "null",
      value = {
        "null, 0, true",
        "null, false, true",
        "null, '', true",
        "null, 1, false",
        "null, true, false",
        "null, x, false",
        "3, 0, false",
        "true, false, false",
        "null, null, true",
        "0, null, false",
      })
  void anAbsentFieldIsItsGoZeroValue(String current, String patch, boolean noOp) {
    assertThat(ClusterInstallPatch.mergeIsNoOp(scalar(current), scalar(patch))).isEqualTo(noOp);
  }

  /** CSV text as the JSON scalar it reads as: a number, a boolean, or a string. */
  private static Object scalar(String text) {
    if (text == null) {
      return null;
    }
    if (text.equals("true") || text.equals("false")) {
      return Boolean.valueOf(text);
    }
    return text.matches("-?[0-9]+") ? (Object) Integer.valueOf(text) : text;
  }

  @Test
  void mergePatchNoOpDetectionComparesOnlyWhatThePatchNames() {
    var current = java.util.Map.<String, Object>of("a", 1, "b", java.util.Map.of("c", 2, "d", 3));
    assertThat(
            ClusterInstallPatch.mergeIsNoOp(
                current, java.util.Map.of("b", java.util.Map.of("c", 2))))
        .isTrue();
    assertThat(
            ClusterInstallPatch.mergeIsNoOp(
                current, java.util.Map.of("b", java.util.Map.of("c", 5))))
        .isFalse();
    var removeD = new java.util.HashMap<String, Object>();
    removeD.put("d", null);
    assertThat(ClusterInstallPatch.mergeIsNoOp(current, java.util.Map.of("b", removeD))).isFalse();
  }
}
