package io.openshiftagent.controlplane;

import static io.openshiftagent.provider.testing.TestWorld.eventually;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.LocalObjectReference;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.javaoperatorsdk.operator.Operator;
import io.openshiftagent.api.bootstrap.v1alpha2.BootstrapGroup;
import io.openshiftagent.api.bootstrap.v1alpha2.OpenshiftAssistedConfig;
import io.openshiftagent.api.common.ContractVersionedObjectReference;
import io.openshiftagent.api.controlplane.v1alpha3.OpenshiftAssistedControlPlane;
import io.openshiftagent.api.external.ExternalKinds;
import io.openshiftagent.api.external.assisted.AgentClusterInstall;
import io.openshiftagent.api.external.assisted.AgentClusterInstallSpec;
import io.openshiftagent.api.external.capi.Machine;
import io.openshiftagent.api.external.capi.MachineSpec;
import io.openshiftagent.api.external.hive.ClusterDeployment;
import io.openshiftagent.api.external.hive.ClusterDeploymentSpec;
import io.openshiftagent.api.external.hive.ClusterImageSet;
import io.openshiftagent.controlplane.cluster.ClusterImageSets;
import io.openshiftagent.controlplane.release.ReleaseImageResolution;
import io.openshiftagent.provider.contract.GoProvider;
import io.openshiftagent.provider.contract.PlaceholderPullSecret;
import io.openshiftagent.provider.reconcile.OwnerReferences;
import io.openshiftagent.provider.testing.TestWorld;
import io.openshiftagent.testsupport.CrdInstaller;
import io.openshiftagent.testsupport.KubeApiServerEnvironment;
import io.openshiftagent.testsupport.WithKubeApiServer;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A control plane in the state the Go provider leaves an installed OKD cluster (its finalizer and
 * conditions, its ClusterImageSet named after the control plane, its placeholder pull secret,
 * configs without our hash), taken over: nothing is made again, every Machine is up to date, an
 * upgrade's release image goes into its ClusterImageSet, and deleting it removes all, the Go
 * provider's ClusterImageSet included.
 */
@WithKubeApiServer
class GoProviderTakeoverTest {
  /** Where the Go provider's placeholder pull secret is named. */
  enum Placeholder {
    /**
     * In the control plane's spec too: the Go provider writes it there when the user gave none (the
     * state it left in the world, simulator/src/test/resources/go-provider-state/sno).
     */
    IN_THE_SPEC,
    /**
     * By the ClusterDeployment alone: the control plane's spec replaced by the user's manifest,
     * which names no pull secret.
     */
    BY_THE_CLUSTER_DEPLOYMENT_ALONE
  }

  @ParameterizedTest
  @EnumSource(Placeholder.class)
  void anInstalledGoProviderControlPlaneIsTakenOverAsItIs(
      Placeholder placeholder, KubeApiServerEnvironment env) {
    KubernetesClient client = env.client();
    CrdInstaller.labelMetal3MachineContracts(client);
    BootstrapFinalizerStandIn.ensureRunning(env);
    TestWorld c = new TestWorld(client, env.createNamespace("takeover"), "capi-takeover");
    Fixtures.prepared(c).capi.createCluster("cp", false, true, true);
    c.capi.setPaused(true); // the documented procedure: paused while the providers are swapped

    OpenshiftAssistedControlPlane cp = Fixtures.controlPlane(c.ns, "cp", 1);
    // As the Go provider's control planes name their release images: by tag, from the
    // default repository (a hub that reaches no registry keeps tags, docs/release-images.md).
    cp.getMetadata().setAnnotations(Map.of(ReleaseImageResolution.REFERENCE_ANNOTATION, "tag"));
    cp.getSpec().machineTemplate.spec = null;
    cp.getSpec().machineTemplate.infrastructureRef =
        new ContractVersionedObjectReference(
            ExternalKinds.INFRASTRUCTURE_GROUP, "Metal3MachineTemplate", Fixtures.TEMPLATE);
    // OKD, as the Go provider's SNO example: no pull secret given.
    cp.getSpec().config.pullSecretRef =
        placeholder == Placeholder.IN_THE_SPEC
            ? new io.openshiftagent.api.common.LocalObjectReference(
                GoProvider.PLACEHOLDER_PULL_SECRET)
            : null;
    cp.getMetadata().setFinalizers(List.of(GoProvider.CONTROL_PLANE_FINALIZER));
    cp = c.providers.createControlPlane(cp);
    // Its placeholder, one per namespace, owned by the control plane that made it.
    client
        .resource(
            PlaceholderPullSecret.build(
                new ObjectMetaBuilder()
                    .withName(GoProvider.PLACEHOLDER_PULL_SECRET)
                    .withNamespace(c.ns)
                    .withLabels(
                        Map.of(
                            "agent-install.openshift.io/watch",
                            "true",
                            "cluster.open-cluster-management.io/backup",
                            "true"))
                    .withOwnerReferences(OwnerReferences.plain(cp))
                    .build()))
        .create();
    client
        .resource(cp)
        .subresource("status")
        .patch(
            PatchContext.of(PatchType.JSON_MERGE),
            Serialization.asJson(
                Map.of(
                    "status",
                    Map.of(
                        "conditions",
                        List.of(
                            condition("Available", "True"),
                            condition("KubernetesVersionAvailable", "True"),
                            condition("MachinesCreated", "True"),
                            condition("Ready", "True")),
                        "distributionVersion",
                        "4.20.0"))));
    ClusterImageSet goImageSet = new ClusterImageSet();
    goImageSet.setMetadata(new ObjectMetaBuilder().withName("cp").build());
    goImageSet.setSpec(
        new ClusterImageSet.Spec(
            "quay.io/openshift-release-dev/ocp-release@sha256:"
                + "0f1e2d3c4b5a69788796a5b4c3d2e1f00f1e2d3c4b5a69788796a5b4c3d2e1f0"));
    goImageSet = client.resource(goImageSet).create();
    ClusterDeployment cd = new ClusterDeployment();
    cd.setMetadata(goOwned(c, "cp", cp));
    cd.setSpec(new ClusterDeploymentSpec());
    cd.getSpec().clusterName = c.clusterName;
    cd.getSpec().baseDomain = "example.com";
    cd.getSpec().pullSecretRef = new LocalObjectReference(GoProvider.PLACEHOLDER_PULL_SECRET);
    cd.getSpec().platform = new ClusterDeploymentSpec.Platform();
    cd.getSpec().platform.agentBareMetal = new ClusterDeploymentSpec.AgentBareMetal();
    cd.getSpec().platform.agentBareMetal.agentSelector = new LabelSelector();
    cd.getSpec().clusterInstallRef =
        new ClusterDeploymentSpec.ClusterInstallLocalReference(
            "extensions.hive.openshift.io", "v1beta1", "AgentClusterInstall", "cp");
    cd.getSpec().installed = true;
    cd = client.resource(cd).create();
    AgentClusterInstall aci = new AgentClusterInstall();
    aci.setMetadata(goOwned(c, "cp", cp));
    aci.setSpec(new AgentClusterInstallSpec());
    aci.getSpec().clusterDeploymentRef = new LocalObjectReference("cp");
    aci.getSpec().imageSetRef = new LocalObjectReference("cp");
    aci.getSpec().networking = new AgentClusterInstallSpec.Networking();
    aci.getSpec().provisionRequirements = new AgentClusterInstallSpec.ProvisionRequirements();
    aci.getSpec().provisionRequirements.controlPlaneAgents = 1;
    aci = client.resource(aci).create();
    c.assisted.setInstallerState("cp", "adding-hosts", "Cluster is installed");
    // Its Machine, with the infrastructure clone and the config it made (a copy of the spec).
    Map<String, String> labels =
        Map.of(
            ExternalKinds.CLUSTER_NAME_LABEL, c.clusterName,
            ExternalKinds.CONTROL_PLANE_LABEL, "",
            ExternalKinds.CONTROL_PLANE_NAME_LABEL, "cp");
    GenericKubernetesResource clone = new GenericKubernetesResource();
    clone.setApiVersion("infrastructure.cluster.x-k8s.io/v1beta2");
    clone.setKind("Metal3Machine");
    clone.setMetadata(
        new ObjectMetaBuilder()
            .withName("cp-x7k2q")
            .withNamespace(c.ns)
            .withLabels(labels)
            .withAnnotations(
                Map.of(
                    "cluster.x-k8s.io/cloned-from-name",
                    Fixtures.TEMPLATE,
                    "cluster.x-k8s.io/cloned-from-groupkind",
                    "Metal3MachineTemplate.infrastructure.cluster.x-k8s.io"))
            .withOwnerReferences(OwnerReferences.plain(cp))
            .build());
    clone.setAdditionalProperty("spec", Map.of("automatedCleaningMode", "metadata"));
    client.resource(clone).create();
    OpenshiftAssistedConfig config = new OpenshiftAssistedConfig();
    config.setMetadata(
        new ObjectMetaBuilder()
            .withName("cp-x7k2q")
            .withNamespace(c.ns)
            .withLabels(labels)
            .withOwnerReferences(OwnerReferences.plain(cp))
            .build());
    config.setSpec(cp.getSpec().openshiftAssistedConfigSpec);
    config = client.resource(config).create();
    Machine machine = new Machine();
    machine.setMetadata(
        new ObjectMetaBuilder()
            .withName("cp-x7k2q")
            .withNamespace(c.ns)
            .withLabels(labels)
            .withAnnotations(Map.of("bmac.agent-install.openshift.io/role", "master"))
            .withOwnerReferences(OwnerReferences.controller(cp))
            .build());
    machine.setSpec(new MachineSpec());
    machine.getSpec().clusterName = c.clusterName;
    machine.getSpec().bootstrap = new MachineSpec.Bootstrap();
    machine.getSpec().bootstrap.configRef =
        new ContractVersionedObjectReference(
            BootstrapGroup.GROUP, "OpenshiftAssistedConfig", "cp-x7k2q");
    machine.getSpec().infrastructureRef =
        new ContractVersionedObjectReference(
            ExternalKinds.INFRASTRUCTURE_GROUP, "Metal3Machine", "cp-x7k2q");
    machine = client.resource(machine).create();
    c.capi.setMachineReady(machine);

    Operator operator =
        ControlPlaneProvider.create(
            env.newClient(), Duration.ofSeconds(1), Fixtures.providerEnvironment());
    operator.start();
    try {
      c.capi.setPaused(false);

      eventually(
          () ->
              assertThat(c.controlPlane("cp").getMetadata().getFinalizers())
                  .containsExactly(
                      "openshiftassistedcontrolplanes.controlplane.cluster.x-k8s.io/finalizer"));
      c.awaitCondition("cp", "MachinesUpToDate", "UpToDate");
      OpenshiftAssistedControlPlane taken = c.controlPlane("cp");
      assertThat(taken.getStatus().conditions)
          .extracting(io.fabric8.kubernetes.api.model.Condition::getType)
          .doesNotContain("KubernetesVersionAvailable", "MachinesCreated", "Ready");
      assertThat(taken.getStatus().upToDateReplicas).isEqualTo(1);
      // Its ClusterDeployment, installed, keeps the Go provider's placeholder pull secret: that is
      // no difference to report, and no placeholder of ours is made.
      c.awaitCondition("cp", "ClusterInstallConfigured", "InstallationStarted");
      assertThat(c.clusterDeployment("cp").getSpec().pullSecretRef.getName())
          .isEqualTo(GoProvider.PLACEHOLDER_PULL_SECRET);
      assertThat(client.secrets().inNamespace(c.ns).withName("cp-placeholder-pull-secret").get())
          .isNull();
      io.openshiftagent.api.common.LocalObjectReference named =
          c.controlPlane("cp").getSpec().config.pullSecretRef;
      assertThat(named == null ? null : named.name)
          .as("the pull secret the control plane's spec names, as it was")
          .isEqualTo(
              placeholder == Placeholder.IN_THE_SPEC ? GoProvider.PLACEHOLDER_PULL_SECRET : null);
      assertThat(taken.getStatus().distributionVersion).isEqualTo("4.20.0");
      // Nothing made again: the same objects, no second ClusterImageSet, no second Machine.
      assertThat(c.machines())
          .extracting(m -> m.getMetadata().getUid())
          .containsExactly(machine.getMetadata().getUid());
      assertThat(c.clusterDeployment("cp").getMetadata().getUid())
          .isEqualTo(cd.getMetadata().getUid());
      assertThat(c.clusterInstall("cp").getMetadata().getUid())
          .isEqualTo(aci.getMetadata().getUid());
      assertThat(c.clusterInstall("cp").getSpec().imageSetRef.getName()).isEqualTo("cp");
      assertThat(client.resources(ClusterImageSet.class).withName(c.ns + ".cp").get()).isNull();
      ClusterImageSet adopted = client.resources(ClusterImageSet.class).withName("cp").get();
      assertThat(adopted.getMetadata().getUid()).isEqualTo(goImageSet.getMetadata().getUid());
      assertThat(adopted.getMetadata().getLabels())
          .containsEntry(ClusterImageSets.NAMESPACE_LABEL, c.ns);
      assertThat(c.get(OpenshiftAssistedConfig.class, "cp-x7k2q").getMetadata().getUid())
          .isEqualTo(config.getMetadata().getUid());

      // An upgrade's release image goes into the set taken over, not into a new one.
      c.resource(OpenshiftAssistedControlPlane.class, "cp")
          .patch(
              PatchContext.of(PatchType.JSON_MERGE),
              "{\"spec\":{\"distributionVersion\":\"4.20.1\"}}");
      eventually(
          () ->
              assertThat(client.resources(ClusterImageSet.class).withName("cp").get().getSpec())
                  .extracting(spec -> spec.releaseImage)
                  .isEqualTo("quay.io/openshift-release-dev/ocp-release:4.20.1-x86_64"));
      assertThat(
              client.resources(ClusterImageSet.class).withName("cp").get().getMetadata().getUid())
          .isEqualTo(goImageSet.getMetadata().getUid());
      assertThat(client.resources(ClusterImageSet.class).withName(c.ns + ".cp").get()).isNull();
      assertThat(c.machines())
          .extracting(m -> m.getMetadata().getUid())
          .containsExactly(machine.getMetadata().getUid());

      // Deleted: nothing holds it, and the Go provider's ClusterImageSet goes too.
      client.resource(c.controlPlane("cp")).delete();
      eventually(() -> assertThat(c.machines()).isEmpty());
      eventually(() -> assertThat(c.clusterDeployment("cp")).isNull());
      eventually(() -> assertThat(c.controlPlane("cp")).isNull());
      assertThat(client.resources(ClusterImageSet.class).withName("cp").get()).isNull();
      // Its placeholder is not one ours made: the namespace's clusters may share it, and the hub's
      // garbage collector removes it once its owner is gone, as under the Go provider.
      assertThat(
              client.secrets().inNamespace(c.ns).withName(GoProvider.PLACEHOLDER_PULL_SECRET).get())
          .isNotNull();
    } finally {
      operator.stop();
    }
  }

  private static io.fabric8.kubernetes.api.model.ObjectMeta goOwned(
      TestWorld c, String name, OpenshiftAssistedControlPlane cp) {
    return new ObjectMetaBuilder()
        .withName(name)
        .withNamespace(c.ns)
        .withLabels(
            Map.of(
                ExternalKinds.CLUSTER_NAME_LABEL, c.clusterName,
                ExternalKinds.CONTROL_PLANE_LABEL, "",
                ExternalKinds.CONTROL_PLANE_NAME_LABEL, "cp"))
        .withOwnerReferences(
            new OwnerReferenceBuilder()
                .withApiVersion(cp.getApiVersion())
                .withKind(cp.getKind())
                .withName(cp.getMetadata().getName())
                .withUid(cp.getMetadata().getUid())
                .build())
        .build();
  }

  private static Map<String, Object> condition(String type, String status) {
    return Map.of(
        "type",
        type,
        "status",
        status,
        "reason",
        type,
        "message",
        "",
        "lastTransitionTime",
        "2026-01-01T00:00:00Z");
  }
}
