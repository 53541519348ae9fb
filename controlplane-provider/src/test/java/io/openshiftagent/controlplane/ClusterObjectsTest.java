package io.openshiftagent.controlplane;

import static io.openshiftagent.provider.testing.TestWorld.eventually;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.javaoperatorsdk.operator.Operator;
import io.openshiftagent.api.common.LocalObjectReference;
import io.openshiftagent.api.controlplane.v1alpha3.ClusterProxy;
import io.openshiftagent.api.controlplane.v1alpha3.OpenshiftAssistedControlPlane;
import io.openshiftagent.api.external.ExternalKinds;
import io.openshiftagent.api.external.assisted.AgentClusterInstall;
import io.openshiftagent.api.external.hive.ClusterDeployment;
import io.openshiftagent.api.external.hive.ClusterImageSet;
import io.openshiftagent.controlplane.cluster.InstallConfigOverrides;
import io.openshiftagent.controlplane.cluster.MirrorRegistryManifestsTest;
import io.openshiftagent.controlplane.release.ReleaseImage;
import io.openshiftagent.provider.testing.TestWorld;
import io.openshiftagent.testsupport.KubeApiServerEnvironment;
import io.openshiftagent.testsupport.WithKubeApiServer;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The objects that describe the cluster to assisted-service, on a real API server. */
@WithKubeApiServer
class ClusterObjectsTest {
  private static Operator operator;
  private static KubernetesClient client;
  private static KubeApiServerEnvironment env;

  @BeforeAll
  static void start() {
    env = KubeApiServerEnvironment.shared();
    client = env.client();
    operator = Fixtures.startProvider(env);
  }

  @AfterAll
  static void stop() {
    operator.stop();
  }

  @Test
  void waitsForTheClusterItsEndpointAndItsInfrastructureWithReasons() {
    TestWorld c = Fixtures.templated(env, "waits");
    OpenshiftAssistedControlPlane cp = Fixtures.controlPlane(c.ns, "cp", 1);
    client.resource(cp).create(); // no owner Cluster yet
    c.awaitCondition("cp", "Available", "WaitingForCluster");
    c.capi.createCluster("cp", false, false, false);
    OpenshiftAssistedControlPlane stored = c.controlPlane("cp");
    stored.getMetadata().setOwnerReferences(c.capi.clusterOwner());
    client.resource(stored).update();
    c.awaitCondition("cp", "Available", "WaitingForControlPlaneEndpoint");
    c.capi.setEndpoint();
    c.awaitCondition("cp", "Available", "WaitingForInfrastructure");
    // The release's ClusterImageSet and the ClusterDeployment name nothing of the
    // infrastructure: they are made meanwhile. The AgentClusterInstall, which starts
    // assisted-service's work, waits.
    eventually(
        () -> {
          assertThat(client.resources(ClusterImageSet.class).withName(c.ns + ".cp").get())
              .isNotNull();
          assertThat(c.clusterDeployment("cp")).isNotNull();
        });
    String deploymentUid = c.clusterDeployment("cp").getMetadata().getUid();
    assertThat(c.clusterInstall("cp")).isNull();
    c.capi.setInfrastructureProvisioned();
    eventually(() -> assertThat(c.clusterInstall("cp")).isNotNull());
    assertThat(c.clusterInstall("cp").getSpec().imageSetRef.getName()).isEqualTo(c.ns + ".cp");
    assertThat(c.clusterDeployment("cp").getMetadata().getUid())
        .as("the ClusterDeployment made ahead, not another")
        .isEqualTo(deploymentUid);
    assertThat(c.clusterDeployment("cp").getSpec().clusterInstallRef.name)
        .isEqualTo(c.clusterInstall("cp").getMetadata().getName());
    assertThat(c.controlPlane("cp").getMetadata().getFinalizers())
        .containsExactly("openshiftassistedcontrolplanes.controlplane.cluster.x-k8s.io/finalizer");
  }

  @Test
  void whatItMakesCarriesTheControlPlanesWatchFilterLabel() {
    TestWorld c = Fixtures.provisioned(env, "shard");
    OpenshiftAssistedControlPlane cp = Fixtures.controlPlane(c.ns, "cp", 1);
    cp.getMetadata().setLabels(Map.of(ExternalKinds.WATCH_FILTER_LABEL, "shard-a"));
    c.providers.createControlPlane(cp);

    // A replica sharded by the label (--watch-filter) selects what it made by it.
    eventually(() -> assertThat(c.machines()).hasSize(1));
    assertThat(c.clusterDeployment("cp").getMetadata().getLabels())
        .containsEntry(ExternalKinds.WATCH_FILTER_LABEL, "shard-a");
    assertThat(c.clusterInstall("cp").getMetadata().getLabels())
        .containsEntry(ExternalKinds.WATCH_FILTER_LABEL, "shard-a");
    assertThat(
            client
                .resources(ClusterImageSet.class)
                .withName(c.ns + ".cp")
                .get()
                .getMetadata()
                .getLabels())
        .containsEntry(ExternalKinds.WATCH_FILTER_LABEL, "shard-a");
    assertThat(c.machines().get(0).getMetadata().getLabels())
        .containsEntry(ExternalKinds.WATCH_FILTER_LABEL, "shard-a");
  }

  @Test
  void createsTheDeploymentInstallAndImageSetWithEveryField() {
    TestWorld c = Fixtures.provisioned(env, "objects");
    OpenshiftAssistedControlPlane cp = Fixtures.controlPlane(c.ns, "cp", 3);
    var config = cp.getSpec().config;
    config.clusterName = "openshift-name";
    config.apiVIPs = List.of("192.168.111.5");
    config.ingressVIPs = List.of("192.168.111.4");
    config.machineNetworks = List.of("192.168.111.0/24");
    config.clusterNetworkHostPrefix = 24;
    config.sshAuthorizedKey = "ssh-ed25519 AAAA core";
    config.proxy = new ClusterProxy();
    config.proxy.httpsProxy = "http://proxy:3128";
    config.mastersSchedulable = false;
    config.manifestsConfigMapRefs = List.of(new LocalObjectReference("extra-manifests"));
    c.providers.createControlPlane(cp);
    OpenshiftAssistedControlPlane stored = c.controlPlane("cp");

    eventually(() -> assertThat(c.clusterInstall("cp")).isNotNull());
    ClusterDeployment cd = c.clusterDeployment("cp");
    assertThat(cd.getMetadata().getLabels())
        .containsEntry(
            ExternalKinds.CLUSTER_NAME_LABEL, c.clusterName); // the CAPI name, not the override
    assertThat(cd.getMetadata().getOwnerReferences())
        .extracting(OwnerReference::getUid)
        .containsExactly(stored.getMetadata().getUid());
    assertThat(cd.getSpec().clusterName).isEqualTo("openshift-name");
    assertThat(cd.getSpec().baseDomain).isEqualTo("example.com");
    assertThat(cd.getSpec().pullSecretRef.getName()).isEqualTo("pull-secret");
    assertThat(cd.getSpec().clusterInstallRef.kind).isEqualTo("AgentClusterInstall");
    assertThat(cd.getSpec().clusterInstallRef.name).isEqualTo("cp");

    AgentClusterInstall aci = c.clusterInstall("cp");
    assertThat(aci.getMetadata().getLabels())
        .containsEntry(ExternalKinds.CLUSTER_NAME_LABEL, c.clusterName);
    assertThat(aci.getMetadata().getOwnerReferences())
        .extracting(OwnerReference::getUid)
        .containsExactly(stored.getMetadata().getUid());
    var spec = aci.getSpec();
    assertThat(spec.clusterDeploymentRef.getName()).isEqualTo("cp");
    assertThat(spec.imageSetRef.getName()).isEqualTo(c.ns + ".cp");
    assertThat(spec.provisionRequirements.controlPlaneAgents).isEqualTo(3);
    assertThat(spec.provisionRequirements.workerAgents).isZero();
    assertThat(spec.platformType).isEqualTo("BareMetal");
    assertThat(spec.apiVIPs).containsExactly("192.168.111.5");
    assertThat(spec.ingressVIPs).containsExactly("192.168.111.4");
    assertThat(spec.networking.clusterNetwork.get(0).cidr).isEqualTo("10.128.0.0/14");
    assertThat(spec.networking.clusterNetwork.get(0).hostPrefix).isEqualTo(24);
    assertThat(spec.networking.serviceNetwork).containsExactly("172.30.0.0/16");
    assertThat(spec.networking.machineNetwork.get(0).cidr).isEqualTo("192.168.111.0/24");
    assertThat(spec.networking.networkType).isEqualTo("OVNKubernetes");
    assertThat(spec.sshPublicKey).isEqualTo("ssh-ed25519 AAAA core");
    assertThat(spec.proxy.httpsProxy).isEqualTo("http://proxy:3128");
    assertThat(spec.mastersSchedulable).isFalse();
    assertThat(spec.manifestsConfigMapRefs)
        .extracting(io.fabric8.kubernetes.api.model.LocalObjectReference::getName)
        .containsExactly("extra-manifests");
    assertThat(aci.getMetadata().getAnnotations())
        .containsKey(InstallConfigOverrides.ACI_ANNOTATION);
    assertThat(aci.getMetadata().getAnnotations().get(InstallConfigOverrides.ACI_ANNOTATION))
        .contains("\"baselineCapabilitySet\":\"None\"");

    ClusterImageSet imageSet = client.resources(ClusterImageSet.class).withName(c.ns + ".cp").get();
    assertThat(imageSet.getSpec().releaseImage)
        .isEqualTo(Fixtures.releases().release("4.20.0", "x86_64").image());
    assertThat(imageSet.getMetadata().getLabels())
        .containsEntry(ExternalKinds.CLUSTER_NAME_LABEL, c.clusterName);
    c.awaitCondition("cp", "ClusterInstallConfigured", "Configured");
  }

  @Test
  void singleNodeOkdWithoutPullSecretGetsAPlaceholderAndTheSpecIsNotMutated() {
    TestWorld c = Fixtures.templated(env, "sno-okd").capi.createCluster("sno", false, true, true);
    OpenshiftAssistedControlPlane cp = Fixtures.controlPlane(c.ns, "sno", 1);
    cp.getSpec().distributionVersion = "4.19.0-okd-scos.ec.6";
    cp.getSpec().config.pullSecretRef = null; // OKD's releases are public
    cp.getMetadata()
        .getAnnotations()
        .put(ReleaseImage.REPOSITORY_OVERRIDE_ANNOTATION, Fixtures.releases().okdRepository());
    c.providers.createControlPlane(cp);
    eventually(() -> assertThat(c.clusterInstall("sno")).isNotNull());
    assertThat(c.clusterInstall("sno").getSpec().provisionRequirements.controlPlaneAgents)
        .isEqualTo(1);
    assertThat(c.clusterInstall("sno").getSpec().platformType).isEqualTo("None");
    assertThat(
            client
                .resources(ClusterImageSet.class)
                .withName(c.ns + ".sno")
                .get()
                .getSpec()
                .releaseImage)
        .isEqualTo(Fixtures.releases().release("4.19.0-okd-scos.ec.6", "multi").image());
    String placeholder = c.clusterDeployment("sno").getSpec().pullSecretRef.getName();
    assertThat(placeholder).isEqualTo("sno-placeholder-pull-secret");
    assertThat(client.secrets().inNamespace(c.ns).withName(placeholder).get().getType())
        .isEqualTo("kubernetes.io/dockerconfigjson");
    assertThat(c.controlPlane("sno").getSpec().config.pullSecretRef).isNull();
  }

  @Test
  void theImageSetNamesTheOverrideRepositorysDigestAndFollowsTheVersion() {
    TestWorld c = Fixtures.provisioned(env, "override");
    c.providers.createControlPlane(Fixtures.controlPlane(c.ns, "cp", 3)); // the override annotation
    String name = c.ns + ".cp";
    eventually(
        () ->
            assertThat(
                    client
                        .resources(ClusterImageSet.class)
                        .withName(name)
                        .get()
                        .getSpec()
                        .releaseImage)
                .isEqualTo(Fixtures.releases().release("4.20.0", "x86_64").image()));
    c.resource(OpenshiftAssistedControlPlane.class, "cp")
        .patch(
            PatchContext.of(PatchType.JSON_MERGE),
            "{\"spec\":{\"distributionVersion\":\"4.20.2\"}}");
    eventually(
        () ->
            assertThat(
                    client
                        .resources(ClusterImageSet.class)
                        .withName(name)
                        .get()
                        .getSpec()
                        .releaseImage)
                .isEqualTo(Fixtures.releases().release("4.20.2", "x86_64").image()));
  }

  @Test
  void configsOfDifferentArchitecturesGetTheMultiRelease() {
    TestWorld c = Fixtures.provisioned(env, "multi");
    OpenshiftAssistedControlPlane cp = Fixtures.controlPlane(c.ns, "cp", 3);
    cp.getSpec().openshiftAssistedConfigSpec.cpuArchitecture = "x86_64";
    c.providers.createControlPlane(cp);
    String name = c.ns + ".cp";
    eventually(
        () ->
            assertThat(client.resources(ClusterImageSet.class).withName(name).get())
                .extracting(set -> set.getSpec().releaseImage)
                .isEqualTo(Fixtures.releases().release("4.20.0", "x86_64").image()));

    // Workers on arm64, from a template made after their MachineDeployment: the template is
    // watched, and its event finds the control plane through the MachineDeployment.
    c.capi.createMachineDeployment("workers", 2, "workers-arm");
    c.providers.createConfigTemplate("workers-arm", "arm64");
    eventually(
        () ->
            assertThat(client.resources(ClusterImageSet.class).withName(name).get())
                .extracting(set -> set.getSpec().releaseImage)
                .isEqualTo(Fixtures.releases().release("4.20.0", "multi").image()));
    // The status is written after the ClusterImageSet, at the end of the same reconcile.
    eventually(
        () ->
            assertThat(c.controlPlane("cp").getStatus().releaseImage.requested)
                .isEqualTo(Fixtures.releases().ocpRepository() + ":4.20.0-multi"));
  }

  @Test
  void mirrorRegistryConfigBecomesManifestsOwnedByThisControlPlane() {
    TestWorld c = Fixtures.provisioned(env, "mirror");
    OpenshiftAssistedControlPlane cp = Fixtures.controlPlane(c.ns, "cp", 3);
    cp.getSpec().config.imageRegistryRef = new LocalObjectReference("mirrors");
    c.providers.createControlPlane(cp);
    c.awaitCondition("cp", "ClusterInstallConfigured", "ImageRegistryConfigInvalid");
    assertThat(c.condition("cp", "ClusterInstallConfigured").orElseThrow().getMessage())
        .contains("ConfigMap mirrors (spec.config.imageRegistryRef) not found");

    client
        .resource(
            new ConfigMapBuilder()
                .withNewMetadata()
                .withName("mirrors")
                .withNamespace(c.ns)
                .endMetadata()
                .addToData("registries.conf", MirrorRegistryManifestsTest.REGISTRIES_CONF)
                .addToData("ca-bundle.crt", Fixtures.releases().caPem())
                .build())
        .create();
    // ConfigMaps are not watched: a change of the control plane brings the new input in.
    c.resource(OpenshiftAssistedControlPlane.class, "cp")
        .patch(
            PatchContext.of(PatchType.JSON_MERGE), "{\"metadata\":{\"labels\":{\"touch\":\"1\"}}}");
    eventually(
        () ->
            assertThat(c.clusterInstall("cp").getSpec().manifestsConfigMapRefs)
                .extracting(io.fabric8.kubernetes.api.model.LocalObjectReference::getName)
                .containsExactly("cp-registry-config"));
    var manifests = client.configMaps().inNamespace(c.ns).withName("cp-registry-config").get();
    assertThat(manifests.getData())
        .containsKeys(
            "image-digest-mirror-set.json",
            "image-tag-mirror-set.json",
            "additional-registry-certificate.json",
            "image-config.json");
    assertThat(manifests.getMetadata().getOwnerReferences().get(0).getUid())
        .isEqualTo(c.controlPlane("cp").getMetadata().getUid());
    assertThat(manifests.getMetadata().getOwnerReferences().get(0).getController()).isTrue();
  }

  @Test
  void aBadInstallConfigOverrideGivesAConditionAndAFixedOneIsApplied() {
    TestWorld c = Fixtures.provisioned(env, "icoverride");
    OpenshiftAssistedControlPlane cp = Fixtures.controlPlane(c.ns, "cp", 3);
    cp.getMetadata()
        .getAnnotations()
        .put(InstallConfigOverrides.OVERRIDE_ANNOTATION, "{\"fips\": tru");
    c.providers.createControlPlane(cp);
    c.awaitCondition("cp", "ClusterInstallConfigured", "InstallConfigOverrideInvalid");
    c.awaitCondition("cp", "Available", "InvalidConfiguration");
    c.resource(OpenshiftAssistedControlPlane.class, "cp")
        .patch(
            PatchContext.of(PatchType.JSON_MERGE),
            "{\"metadata\":{\"annotations\":{\""
                + InstallConfigOverrides.OVERRIDE_ANNOTATION
                + "\":\"{\\\"fips\\\":true}\"}}}");
    eventually(
        () ->
            assertThat(c.clusterInstall("cp").getMetadata().getAnnotations())
                .containsEntry(InstallConfigOverrides.ACI_ANNOTATION, "{\"fips\":true}"));
    c.awaitCondition("cp", "ClusterInstallConfigured", "Configured");
  }

  private static io.fabric8.kubernetes.api.model.GenericKubernetesResource machinePool(
      TestWorld c, int replicas) {
    var pool = new io.fabric8.kubernetes.api.model.GenericKubernetesResource();
    pool.setApiVersion("cluster.x-k8s.io/v1beta2");
    pool.setKind("MachinePool");
    pool.setMetadata(
        new io.fabric8.kubernetes.api.model.ObjectMetaBuilder()
            .withName("pool")
            .withNamespace(c.ns)
            .addToLabels(ExternalKinds.CLUSTER_NAME_LABEL, c.clusterName)
            .build());
    pool.setAdditionalProperty(
        "spec",
        Map.of(
            "clusterName",
            c.clusterName,
            "replicas",
            replicas,
            "template",
            Map.of(
                "spec",
                Map.of(
                    "clusterName", c.clusterName,
                    "bootstrap", Map.of("dataSecretName", "x"),
                    "infrastructureRef",
                        Map.of(
                            "apiGroup", "infrastructure.cluster.x-k8s.io",
                            "kind", "Metal3MachineTemplate",
                            "name", "w")))));
    return pool;
  }

  /** Found by BadInputReconcileTest: the refused AgentClusterInstall was created forever. */
  @Test
  void aValueTheInstalledAssistedServiceRefusesIsReportedAndAFixContinues() {
    TestWorld c = Fixtures.provisioned(env, "refused");
    OpenshiftAssistedControlPlane cp = Fixtures.controlPlane(c.ns, "cp", 3);
    cp.getSpec().config.networkType =
        "Cilium"; // ours admits it; the pinned AgentClusterInstall not
    c.providers.createControlPlane(cp);

    Condition refused = c.awaitCondition("cp", "ClusterInstallConfigured", "ClusterInstallRefused");
    assertThat(refused.getStatus()).isEqualTo("False");
    assertThat(refused.getMessage())
        .contains("AgentClusterInstall", "spec.networking.networkType", "Cilium");
    c.awaitCondition("cp", "Available", "InvalidConfiguration");
    assertThat(c.clusterInstall("cp")).isNull();

    // A merge patch, not an edit: the provider's status writes change the resourceVersion that an
    // edit's patch is conditioned on (a 409 under load).
    c.resource(OpenshiftAssistedControlPlane.class, "cp")
        .patch(
            PatchContext.of(PatchType.JSON_MERGE),
            "{\"spec\":{\"config\":{\"networkType\":\"OVNKubernetes\"}}}");
    c.awaitCondition("cp", "ClusterInstallConfigured", "Configured");
    assertThat(c.clusterInstall("cp").getSpec().networking.networkType).isEqualTo("OVNKubernetes");
  }

  @Test
  void theClusterDeploymentFollowsTheSpecUntilTheInstallationAndThenTellsWhatItKeeps() {
    TestWorld c = Fixtures.provisioned(env, "cd-follows");
    c.providers.createControlPlane(Fixtures.controlPlane(c.ns, "cp", 1));
    eventually(() -> assertThat(c.clusterDeployment("cp")).isNotNull());
    String uid = c.clusterDeployment("cp").getMetadata().getUid();

    c.resource(OpenshiftAssistedControlPlane.class, "cp")
        .patch(
            PatchContext.of(PatchType.JSON_MERGE),
            "{\"spec\":{\"config\":{\"baseDomain\":\"new.example.com\",\"clusterName\":\"renamed\","
                + "\"pullSecretRef\":{\"name\":\"other-pull-secret\"}}}}");
    eventually(
        () -> {
          ClusterDeployment cd = c.clusterDeployment("cp");
          assertThat(cd.getSpec().baseDomain).isEqualTo("new.example.com");
          assertThat(cd.getSpec().clusterName).isEqualTo("renamed");
          assertThat(cd.getSpec().pullSecretRef.getName()).isEqualTo("other-pull-secret");
        });
    assertThat(c.clusterDeployment("cp").getMetadata().getUid()).isEqualTo(uid);
    c.awaitCondition("cp", "ClusterInstallConfigured", "Configured");

    // Installing: Hive freezes the ClusterDeployment; the condition says what it keeps.
    c.assisted.setInstallerState("cp", "installing", "Installation in progress");
    c.awaitCondition("cp", "ClusterInstallConfigured", "InstallationStarted");
    c.resource(OpenshiftAssistedControlPlane.class, "cp")
        .patch(
            PatchContext.of(PatchType.JSON_MERGE),
            "{\"spec\":{\"config\":{\"baseDomain\":\"late.example.com\"}}}");
    Condition frozen =
        c.awaitCondition("cp", "ClusterInstallConfigured", "ClusterDeploymentFrozen");
    assertThat(frozen.getStatus()).isEqualTo("False");
    assertThat(frozen.getMessage())
        .contains(
            "spec.config.baseDomain is late.example.com, the ClusterDeployment has new.example.com");
    assertThat(c.clusterDeployment("cp").getSpec().baseDomain).isEqualTo("new.example.com");
    // What the installed cluster cannot take makes it no less available.
    assertThat(c.condition("cp", "Available").orElseThrow().getReason()).isEqualTo("Installing");

    c.resource(OpenshiftAssistedControlPlane.class, "cp")
        .patch(
            PatchContext.of(PatchType.JSON_MERGE),
            "{\"spec\":{\"config\":{\"baseDomain\":\"new.example.com\"}}}");
    c.awaitCondition("cp", "ClusterInstallConfigured", "InstallationStarted");
  }

  @Test
  void workersFollowMachineDeploymentsNotPoolsAndTheInstallFollowsTheSpecOnlyBeforeInstallation() {
    TestWorld c = Fixtures.provisioned(env, "workers");
    c.providers.createControlPlane(Fixtures.controlPlane(c.ns, "cp", 3));
    eventually(() -> assertThat(c.clusterInstall("cp")).isNotNull());
    // The bootstrap provider refuses a MachinePool's config: its replicas are never awaited.
    client.resource(machinePool(c, 4)).create();
    c.capi.createMachineDeployment("workers", 2, null);
    eventually(
        () ->
            assertThat(c.clusterInstall("cp").getSpec().provisionRequirements.workerAgents)
                .isEqualTo(2));

    c.resource(OpenshiftAssistedControlPlane.class, "cp")
        .patch(
            PatchContext.of(PatchType.JSON_MERGE),
            "{\"spec\":{\"config\":{\"sshAuthorizedKey\":\"ssh-ed25519 NEW\"}}}");
    eventually(
        () ->
            assertThat(c.clusterInstall("cp").getSpec().sshPublicKey).isEqualTo("ssh-ed25519 NEW"));

    c.assisted.setInstallerState("cp", "installing", "Installation in progress");
    c.awaitCondition("cp", "ClusterInstallConfigured", "InstallationStarted");
    c.resource(OpenshiftAssistedControlPlane.class, "cp")
        .patch(
            PatchContext.of(PatchType.JSON_MERGE),
            "{\"spec\":{\"config\":{\"sshAuthorizedKey\":\"ssh-ed25519 LATE\"}}}");
    c.awaitObserved("cp");
    assertThat(c.clusterInstall("cp").getSpec().sshPublicKey).isEqualTo("ssh-ed25519 NEW");
  }
}
