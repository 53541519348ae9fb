package io.openshiftagent.bootstrap;

import static io.openshiftagent.provider.testing.TestWorld.await;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.api.model.SecretReference;
import io.javaoperatorsdk.operator.Operator;
import io.openshiftagent.api.bootstrap.v1alpha2.NodeRegistrationOptions;
import io.openshiftagent.api.bootstrap.v1alpha2.OpenshiftAssistedConfig;
import io.openshiftagent.api.bootstrap.v1alpha2.OpenshiftAssistedConfigSpec;
import io.openshiftagent.api.common.LocalObjectReference;
import io.openshiftagent.api.external.ExternalKinds;
import io.openshiftagent.api.external.assisted.Agent;
import io.openshiftagent.api.external.assisted.ClusterReference;
import io.openshiftagent.api.external.assisted.InfraEnv;
import io.openshiftagent.api.external.assisted.InfraEnvSpec;
import io.openshiftagent.api.external.metal3.Metal3Machine;
import io.openshiftagent.api.external.metal3.Metal3MachineStatus;
import io.openshiftagent.bootstrap.names.Names;
import io.openshiftagent.bootstrap.names.Reasons;
import io.openshiftagent.provider.contract.GoProvider;
import io.openshiftagent.provider.reconcile.OwnerReferences;
import io.openshiftagent.provider.testing.Metal3;
import io.openshiftagent.provider.testing.Providers;
import io.openshiftagent.provider.testing.TestWorld;
import io.openshiftagent.testsupport.KubeApiServerEnvironment;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * What a user of the Go provider relies on, with the bootstrap provider running in this JVM against
 * the real API server: host metadata from CAPM3's metaData Secret, MachinePools refused, and
 * configs the Go provider made taken over as they are.
 */
class GoProviderCompatibilityTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static KubeApiServerEnvironment env;
  private static Operator operator;
  private static final List<String> downloads = new CopyOnWriteArrayList<>();

  @BeforeAll
  static void startOperator() {
    env = KubeApiServerEnvironment.shared();
    operator = BootstrapFlowTest.startOperator(env, downloads);
  }

  @AfterAll
  static void stopOperator() {
    operator.stop();
  }

  private static OpenshiftAssistedConfigSpec spec(NodeRegistrationOptions registration) {
    OpenshiftAssistedConfigSpec spec = new OpenshiftAssistedConfigSpec();
    spec.pullSecretRef = new LocalObjectReference("my-pull-secret");
    spec.nodeRegistration = registration;
    return spec;
  }

  @Test
  void aMetal3HostsNameLabelsAndProviderIdComeFromTheMetaDataCapm3Rendered() throws Exception {
    TestWorld world = Fixtures.readyWorld(env, "metadata", "insufficient");
    NodeRegistrationOptions registration = new NodeRegistrationOptions();
    registration.name = "$METADATA_NAME";
    registration.kubeletExtraLabels =
        List.of("metal3.io/uuid=$METADATA_UUID", "index=${METADATA_INDEX}", "rack=$METADATA_RACK");
    registration.providerID = "metal3://$METADATA_PROVIDERID";
    Providers.Host host = world.providers.host("ocp1-w-0", false, spec(registration));
    // CAPM3 renders the Metal3DataTemplate into a Secret and names it in the Metal3Machine.
    world
        .client
        .resource(
            new SecretBuilder()
                .withNewMetadata()
                .withName("ocp1-w-0-metadata")
                .withNamespace(world.ns)
                .endMetadata()
                .addToStringData(
                    "metaData",
                    "index: \"7\"\nname: worker-7\nproviderid: " + world.ns + "/bmh-ocp1-w-0/m3m\n")
                .build())
        .create();
    world
        .resource(Metal3Machine.class, "ocp1-w-0")
        .editStatus(
            m -> {
              m.setStatus(new Metal3MachineStatus());
              m.getStatus().metaData = new SecretReference("ocp1-w-0-metadata", world.ns);
              return m;
            });
    await("InfraEnv", () -> world.infraEnv("ocp1-w-0"));
    world.assisted.publishIso("ocp1-w-0", "https://images.example.com/w-0.iso");

    world.assisted.registerAgent("ocp1-w-0", "agent-w-0");
    Agent agent = await("approved", () -> BootstrapFlowTest.approved(world.agent("agent-w-0")));

    assertThat(agent.getSpec().hostname).isEqualTo("worker-7");
    assertThat(agent.getSpec().nodeLabels)
        .containsEntry("metal3.io/uuid", host.bmh().getMetadata().getUid())
        .containsEntry("index", "7")
        // A key the host does not have is nothing, as the Go provider's units make it.
        .containsEntry("rack", "");
    assertThat(installScript(agent))
        .contains("provider_id='metal3://" + world.ns + "/bmh-ocp1-w-0/m3m'")
        .doesNotContain("meta METADATA");
  }

  @Test
  void aConfigOfAMachinePoolIsRefusedNamingThePool() {
    TestWorld world = Fixtures.readyWorld(env, "pool", "insufficient");
    OpenshiftAssistedConfig config = new OpenshiftAssistedConfig();
    config.setMetadata(
        new ObjectMetaBuilder()
            .withName("pool-config")
            .withNamespace(world.ns)
            .withLabels(Map.of(ExternalKinds.CLUSTER_NAME_LABEL, world.clusterName))
            .withOwnerReferences(
                new OwnerReferenceBuilder()
                    .withApiVersion("cluster.x-k8s.io/v1beta2")
                    .withKind("MachinePool")
                    .withName("workers")
                    .withUid("3f0c4bb8-1d9c-4a43-a3ce-5d5a8b6fe2c1")
                    .build())
            .build());
    config.setSpec(spec(null));
    world.client.resource(config).create();

    await(
        "refused",
        () ->
            Reasons.MACHINE_POOL_NOT_SUPPORTED.equals(
                world.reason("pool-config", Reasons.DATA_SECRET_AVAILABLE)));
    var condition =
        world.config("pool-config").getStatus().conditions.stream()
            .filter(c -> c.getType().equals(Reasons.DATA_SECRET_AVAILABLE))
            .findFirst()
            .orElseThrow();
    assertThat(condition.getStatus()).isEqualTo("False");
    assertThat(condition.getMessage()).contains("MachinePool workers", "MachineDeployment");
    assertThat(world.infraEnv("pool-config")).isNull();
  }

  @Test
  void aConfigTheGoProviderMadeIsTakenOverWithoutMakingAnythingAgain() throws Exception {
    // A worker the Go provider left, with a host still waiting for approval.
    TestWorld world = Fixtures.world(env, "takeover");
    GoWorker go = goProviderWorker(world);
    Secret data = go.data();
    InfraEnv infraEnv = go.infraEnv();
    Agent waiting =
        world.assisted.agent(
            "agent-w-0",
            Map.of(ExternalKinds.INFRAENV_LABEL, "ocp1-w-0"),
            infraEnv.getSpec().clusterRef);
    world.capi.setPaused(false);

    OpenshiftAssistedConfig taken =
        await(
            "the Go provider's finalizer gone",
            () -> {
              OpenshiftAssistedConfig c = world.config("ocp1-w-0");
              return c.getMetadata().getFinalizers().contains(GoProvider.CONFIG_FINALIZER)
                  ? null
                  : c;
            });
    assertThat(taken.getMetadata().getFinalizers())
        .containsExactly("openshiftassistedconfigs.bootstrap.cluster.x-k8s.io/finalizer");
    await(
        "ready",
        () ->
            Reasons.SECRET_AVAILABLE.equals(
                world.reason("ocp1-w-0", Reasons.DATA_SECRET_AVAILABLE)));
    // Nothing made again: the same data Secret (now labelled) and InfraEnv, no download.
    Secret labelled = world.get(Secret.class, "ocp1-w-0");
    assertThat(labelled.getMetadata().getUid()).isEqualTo(data.getMetadata().getUid());
    assertThat(labelled.getMetadata().getLabels()).containsEntry(Names.CONFIG_LABEL, "ocp1-w-0");
    assertThat(labelled.getData()).isEqualTo(data.getData());
    InfraEnv adopted = world.infraEnv("ocp1-w-0");
    assertThat(adopted.getMetadata().getUid()).isEqualTo(infraEnv.getMetadata().getUid());
    assertThat(adopted.getMetadata().getAnnotations())
        .containsEntry(Names.BOOT_MODE_ANNOTATION, "DiskImage");
    assertThat(adopted.getSpec().agentLabels).containsEntry(Names.CONFIG_LABEL, "ocp1-w-0");
    assertThat(downloads).isEmpty();
    assertThat(world.get(Metal3Machine.class, "ocp1-w-0").getSpec().image.diskFormat)
        .isEqualTo("qcow2");
    // The host that waited for the Go provider's approval gets ours.
    Agent approved = await("approved", () -> BootstrapFlowTest.approved(world.agent("agent-w-0")));
    assertThat(approved.getMetadata().getUid()).isEqualTo(waiting.getMetadata().getUid());
    assertThat(approved.getSpec().role).isEqualTo("worker");
  }

  @Test
  void anAgentTheGoProviderApprovedKeepsTheApprovalOfItsInfraEnv() {
    // The Go provider approved one host; a second host booted the same image. Our Agent cache holds
    // only Agents with our labels, which the takeover gives to the waiting ones alone.
    TestWorld world = Fixtures.world(env, "takeover-approved");
    InfraEnv infraEnv = goProviderWorker(world).infraEnv();
    Agent goApproved =
        world.assisted.agent(
            "agent-w-0",
            Map.of(ExternalKinds.INFRAENV_LABEL, "ocp1-w-0"),
            infraEnv.getSpec().clusterRef);
    goApproved.getSpec().approved = true;
    world.client.resource(goApproved).update();
    world.assisted.agent(
        "agent-w-1",
        Map.of(ExternalKinds.INFRAENV_LABEL, "ocp1-w-0"),
        infraEnv.getSpec().clusterRef);
    world.capi.setPaused(false);

    await("the second host refused", () -> BootstrapFlowTest.isRefused(world.agent("agent-w-1")));
    assertThat(world.agent("agent-w-1").getSpec().approved).isFalse();
    assertThat(world.infraEnv("ocp1-w-0").getMetadata().getAnnotations())
        .containsEntry(Names.APPROVED_AGENT_ANNOTATION, "agent-w-0");
  }

  /** What the Go provider made for a worker: config, data Secret, InfraEnv. */
  private record GoWorker(Secret data, InfraEnv infraEnv) {}

  /**
   * As the Go provider leaves a worker: its finalizer, the status it reported, a data Secret
   * without labels and an InfraEnv without agent labels; the Cluster paused while the providers are
   * swapped (the documented procedure), unpaused by the test.
   */
  private static GoWorker goProviderWorker(TestWorld world) {
    world.capi.createCluster(Fixtures.CONTROL_PLANE, true, false, false);
    world.capi.setInfrastructureProvisioned();
    Fixtures.clusterDeploymentAndInstall(world, "insufficient");
    Metal3.MachineHost machine = world.metal3.machineHost("ocp1-w-0", false);
    OpenshiftAssistedConfig config = new OpenshiftAssistedConfig();
    config.setMetadata(
        new ObjectMetaBuilder()
            .withName("ocp1-w-0")
            .withNamespace(world.ns)
            .withLabels(machine.labels())
            .withFinalizers(GoProvider.CONFIG_FINALIZER)
            .withOwnerReferences(OwnerReferences.controller(machine.machine()))
            .build());
    config.setSpec(spec(null));
    config = world.client.resource(config).create();
    world
        .client
        .resource(config)
        .subresource("status")
        .patch(
            io.fabric8.kubernetes.client.dsl.base.PatchContext.of(
                io.fabric8.kubernetes.client.dsl.base.PatchType.JSON_MERGE),
            "{\"status\":{\"initialization\":{\"dataSecretCreated\":true},"
                + "\"dataSecretName\":\"ocp1-w-0\"}}");
    Secret data =
        world
            .client
            .resource(
                new SecretBuilder()
                    .withNewMetadata()
                    .withName("ocp1-w-0")
                    .withNamespace(world.ns)
                    .withOwnerReferences(OwnerReferences.plain(config))
                    .endMetadata()
                    .withType(ExternalKinds.CLUSTER_SECRET_TYPE)
                    .addToData("value", base64("{\"ignition\":{\"version\":\"3.1.0\"}}"))
                    .addToData("format", base64("ignition"))
                    .build())
            .create();
    InfraEnv infraEnv = new InfraEnv();
    infraEnv.setMetadata(
        new ObjectMetaBuilder()
            .withName("ocp1-w-0")
            .withNamespace(world.ns)
            .withLabels(
                Map.of(
                    Names.CONFIG_LABEL,
                    "ocp1-w-0",
                    ExternalKinds.CLUSTER_NAME_LABEL,
                    world.clusterName))
            .withOwnerReferences(
                OwnerReferences.plain(config), OwnerReferences.plain(machine.machine()))
            .build());
    infraEnv.setSpec(new InfraEnvSpec());
    infraEnv.getSpec().clusterRef = new ClusterReference(Fixtures.CONTROL_PLANE, world.ns);
    infraEnv.getSpec().pullSecretRef =
        new io.fabric8.kubernetes.api.model.LocalObjectReference("my-pull-secret");
    infraEnv.getSpec().imageType = "full-iso";
    return new GoWorker(data, world.client.resource(infraEnv).create());
  }

  @Test
  void aConfigOfTheGoProviderDeletedBeforeItWasTakenOverIsReleased() {
    TestWorld world = Fixtures.world(env, "takeover-deleted");
    world.capi.createCluster(
        Fixtures.CONTROL_PLANE, true, false, false); // paused: nothing is taken over yet
    Metal3.MachineHost machine = world.metal3.machineHost("ocp1-w-1", false);
    OpenshiftAssistedConfig config = new OpenshiftAssistedConfig();
    config.setMetadata(
        new ObjectMetaBuilder()
            .withName("ocp1-w-1")
            .withNamespace(world.ns)
            .withLabels(machine.labels())
            .withFinalizers(GoProvider.CONFIG_FINALIZER)
            .withOwnerReferences(OwnerReferences.controller(machine.machine()))
            .build());
    config.setSpec(spec(null));
    world.client.resource(config).create();
    await(
        "paused, our finalizer added beside the Go provider's",
        () -> world.config("ocp1-w-1").getMetadata().getFinalizers().size() == 2);
    world.client.resource(machine.machine()).delete();
    world.client.resource(config).delete();

    world.capi.setPaused(false);
    await("config gone", () -> world.config("ocp1-w-1") == null);
  }

  private static String installScript(Agent agent) throws Exception {
    JsonNode ignition = JSON.readTree(agent.getSpec().ignitionConfigOverrides);
    List<String> scripts = new ArrayList<>();
    for (JsonNode file : ignition.path("storage").path("files")) {
      String source = file.path("contents").path("source").asText();
      scripts.add(
          new String(
              Base64.getDecoder().decode(source.substring(source.indexOf("base64,") + 7)),
              StandardCharsets.UTF_8));
    }
    return String.join("\n", scripts);
  }

  private static String base64(String value) {
    return Base64.getEncoder().encodeToString(value.getBytes(StandardCharsets.UTF_8));
  }
}
