package io.openshiftagent.bootstrap;

import io.fabric8.kubernetes.api.model.LabelSelectorBuilder;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.openshiftagent.api.bootstrap.v1alpha2.BootMode;
import io.openshiftagent.api.bootstrap.v1alpha2.KernelArgument;
import io.openshiftagent.api.bootstrap.v1alpha2.NodeRegistrationOptions;
import io.openshiftagent.api.bootstrap.v1alpha2.OpenshiftAssistedConfig;
import io.openshiftagent.api.bootstrap.v1alpha2.OpenshiftAssistedConfigSpec;
import io.openshiftagent.api.bootstrap.v1alpha2.Proxy;
import io.openshiftagent.api.common.LocalObjectReference;
import io.openshiftagent.provider.testing.TestWorld;
import io.openshiftagent.testsupport.KubeApiServerEnvironment;
import java.util.List;

/**
 * What the tests start from: a config with every field set (for the unit tests of the pure
 * decisions), and the in-process world's cluster as the bootstrap provider's tests see it.
 */
public final class Fixtures {
  /**
   * The control plane the tests' Cluster names; the control-plane provider names its objects so.
   */
  public static final String CONTROL_PLANE = "cp-of-ocp1";

  private Fixtures() {}

  /** A fresh namespace on {@code env} named after {@code prefix}, for the Cluster {@code ocp1}. */
  public static TestWorld world(KubeApiServerEnvironment env, String prefix) {
    return new TestWorld(env, prefix, "ocp1");
  }

  /**
   * A {@link #world} whose Cluster is made and provisioned and whose control plane's objects exist,
   * the installer in {@code installerState}.
   */
  public static TestWorld readyWorld(
      KubeApiServerEnvironment env, String prefix, String installerState) {
    TestWorld world = world(env, prefix);
    world.capi.createCluster(CONTROL_PLANE, false, false, false);
    world.capi.setInfrastructureProvisioned();
    clusterDeploymentAndInstall(world, installerState);
    return world;
  }

  /**
   * Plays the control-plane provider: the control plane's ClusterDeployment (of an OpenShift
   * cluster named unlike the Cluster API one) and AgentClusterInstall, the installer in {@code
   * state}.
   */
  public static void clusterDeploymentAndInstall(TestWorld world, String state) {
    world.providers.clusterDeploymentAndInstall(CONTROL_PLANE, "custom-openshift-name", state);
  }

  public static OpenshiftAssistedConfigSpec fullSpec() {
    OpenshiftAssistedConfigSpec spec = new OpenshiftAssistedConfigSpec();
    spec.bootMode = BootMode.LIVE_ISO;
    spec.proxy = new Proxy();
    spec.proxy.httpProxy = "http://proxy:3128";
    spec.proxy.httpsProxy = "http://proxy:3129";
    spec.proxy.noProxy = ".cluster.local";
    spec.pullSecretRef = new LocalObjectReference("my-pull-secret");
    spec.additionalNTPSources = List.of("ntp1.example.com", "ntp2.example.com");
    spec.sshAuthorizedKey = "ssh-ed25519 AAAA test";
    spec.nmStateConfigLabelSelector =
        new LabelSelectorBuilder().addToMatchLabels("nmstate", "host-0").build();
    spec.cpuArchitecture = "aarch64";
    spec.additionalTrustBundle = "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----";
    spec.osImageVersion = "4.19";
    spec.kernelArguments =
        List.of(
            new KernelArgument(KernelArgument.Operation.APPEND, "console=ttyS0"),
            new KernelArgument(KernelArgument.Operation.DELETE, "quiet"));
    spec.nodeRegistration = new NodeRegistrationOptions();
    spec.nodeRegistration.name = "$METADATA_NAME";
    spec.nodeRegistration.kubeletExtraLabels =
        List.of("topology.kubernetes.io/zone=rack-a", "metal3.io/uuid=$METADATA_UUID");
    return spec;
  }

  public static OpenshiftAssistedConfig config(String name, OpenshiftAssistedConfigSpec spec) {
    OpenshiftAssistedConfig config = new OpenshiftAssistedConfig();
    config.setMetadata(
        new ObjectMetaBuilder().withName(name).withNamespace("ns").withUid("uid-" + name).build());
    config.setSpec(spec);
    return config;
  }
}
