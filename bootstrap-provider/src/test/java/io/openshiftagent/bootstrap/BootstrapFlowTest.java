package io.openshiftagent.bootstrap;

import static io.openshiftagent.provider.testing.TestWorld.await;
import static io.openshiftagent.provider.testing.TestWorld.eventually;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.events.v1.Event;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.javaoperatorsdk.operator.Operator;
import io.openshiftagent.api.bootstrap.v1alpha2.BootMode;
import io.openshiftagent.api.bootstrap.v1alpha2.NodeRegistrationOptions;
import io.openshiftagent.api.bootstrap.v1alpha2.OpenshiftAssistedConfig;
import io.openshiftagent.api.bootstrap.v1alpha2.OpenshiftAssistedConfigSpec;
import io.openshiftagent.api.common.Conditions;
import io.openshiftagent.api.common.LocalObjectReference;
import io.openshiftagent.api.external.assisted.Agent;
import io.openshiftagent.api.external.assisted.ClusterReference;
import io.openshiftagent.api.external.assisted.InfraEnv;
import io.openshiftagent.api.external.assisted.InfraEnvSpec;
import io.openshiftagent.api.external.capi.Cluster;
import io.openshiftagent.api.external.metal3.BareMetalHost;
import io.openshiftagent.api.external.metal3.Metal3Machine;
import io.openshiftagent.bootstrap.hosts.Hosts;
import io.openshiftagent.bootstrap.names.Names;
import io.openshiftagent.bootstrap.names.Reasons;
import io.openshiftagent.provider.reconcile.EventRecorder;
import io.openshiftagent.provider.runtime.ControllerScope;
import io.openshiftagent.provider.runtime.ProviderOperator;
import io.openshiftagent.provider.testing.Providers;
import io.openshiftagent.provider.testing.TestWorld;
import io.openshiftagent.testsupport.KubeApiServerEnvironment;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The bootstrap provider running in this JVM against the real API server, with the test playing
 * Cluster API, the control-plane provider, assisted-service and Metal3.
 */
class BootstrapFlowTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  static final String DISCOVERY_IGNITION =
      "{\"ignition\":{\"version\":\"3.1.0\"},\"systemd\":{\"units\":[{\"name\":\"agent.service\"}]}}";

  private static KubeApiServerEnvironment env;
  private static Operator operator;
  private static final List<String> downloads = new CopyOnWriteArrayList<>();

  @BeforeAll
  static void startOperator() {
    env = KubeApiServerEnvironment.shared();
    operator = startOperator(env, downloads);
  }

  /** The operator as main() builds it; the assisted-service REST API is played by the test. */
  static Operator startOperator(KubeApiServerEnvironment env, List<String> downloads) {
    KubernetesClient client = env.newClient();
    Operator operator = ProviderOperator.create(client, o -> {});
    BootstrapProvider.register(
        operator,
        client,
        (namespace, discoveryIgnitionUrl, eventsUrl) -> {
          downloads.add(discoveryIgnitionUrl);
          return DISCOVERY_IGNITION;
        },
        BootMode.LIVE_ISO,
        "test",
        ControllerScope.EVERYTHING);
    operator.start();
    return operator;
  }

  @AfterAll
  static void stopOperator() {
    operator.stop();
  }

  private static OpenshiftAssistedConfigSpec spec() {
    OpenshiftAssistedConfigSpec spec = Fixtures.fullSpec();
    spec.cpuArchitecture = "x86_64";
    spec.pullSecretRef = new LocalObjectReference("my-pull-secret");
    return spec;
  }

  @Test
  void controlPlaneAndWorkerMachinesGoFromConfigToApprovedAgentsInLiveIsoMode() throws Exception {
    TestWorld world = Fixtures.readyWorld(env, "chain", "insufficient");
    OpenshiftAssistedConfigSpec workerSpec = spec();
    workerSpec.pullSecretRef = null;
    Providers.Host cp = world.providers.host("ocp1-cp-0", true, spec());
    Providers.Host worker = world.providers.host("ocp1-w-0", false, workerSpec);

    // The InfraEnv: the config's discovery settings, bound to the control plane's
    // ClusterDeployment.
    InfraEnv infraEnv = await("control-plane InfraEnv", () -> world.infraEnv("ocp1-cp-0"));
    assertThat(infraEnv.getSpec().clusterRef.name).isEqualTo(Fixtures.CONTROL_PLANE);
    assertThat(infraEnv.getSpec().clusterRef.namespace).isEqualTo(world.ns);
    assertThat(infraEnv.getSpec().pullSecretRef.getName()).isEqualTo("my-pull-secret");
    assertThat(infraEnv.getSpec().sshAuthorizedKey).isEqualTo("ssh-ed25519 AAAA test");
    assertThat(infraEnv.getSpec().additionalNTPSources)
        .containsExactly("ntp1.example.com", "ntp2.example.com");
    assertThat(infraEnv.getSpec().proxy.httpProxy).isEqualTo("http://proxy:3128");
    assertThat(infraEnv.getSpec().nmStateConfigLabelSelector.getMatchLabels())
        .containsEntry("nmstate", "host-0");
    assertThat(infraEnv.getSpec().osImageVersion).isEqualTo("4.19");
    assertThat(infraEnv.getSpec().additionalTrustBundle).startsWith("-----BEGIN CERTIFICATE");
    Map<String, String> labels =
        Map.of("cluster.x-k8s.io/cluster-name", "ocp1", Names.CONFIG_LABEL, "ocp1-cp-0");
    assertThat(infraEnv.getMetadata().getLabels()).isEqualTo(labels);
    assertThat(infraEnv.getSpec().agentLabels).isEqualTo(labels);
    assertThat(infraEnv.getMetadata().getOwnerReferences())
        .extracting(OwnerReference::getUid)
        .containsExactly(
            cp.config().getMetadata().getUid(),
            cp.machine().getMetadata().getUid(),
            world
                .get(io.openshiftagent.api.external.capi.Cluster.class, "ocp1")
                .getMetadata()
                .getUid());

    // Without a pull secret: a placeholder of this config's own, the user's spec untouched.
    InfraEnv workerInfraEnv = await("worker InfraEnv", () -> world.infraEnv("ocp1-w-0"));
    String placeholder = workerInfraEnv.getSpec().pullSecretRef.getName();
    assertThat(placeholder).isEqualTo("ocp1-w-0-placeholder-pull-secret");
    Secret placeholderSecret = world.get(Secret.class, placeholder);
    assertThat(placeholderSecret.getData()).containsKey(".dockerconfigjson");
    assertThat(placeholderSecret.getMetadata().getOwnerReferences().get(0).getUid())
        .isEqualTo(worker.config().getMetadata().getUid());
    assertThat(world.config("ocp1-w-0").getSpec().pullSecretRef).isNull();

    // No ISO yet: a reason, and the Metal3Machine is left alone.
    await(
        "WaitingForDiscoveryImage",
        () ->
            Reasons.WAITING_FOR_DISCOVERY_IMAGE.equals(
                world.reason("ocp1-cp-0", Reasons.DATA_SECRET_AVAILABLE)));
    assertThat(world.get(Metal3Machine.class, "ocp1-cp-0").getSpec().image.diskFormat)
        .isEqualTo("qcow2");
    assertThat(world.get(Secret.class, "ocp1-cp-0")).isNull();

    // assisted-service publishes the ISO: the Metal3Machine boots it, then the data is ready.
    ObjectNode m3mBefore = JSON.valueToTree(world.get(Metal3Machine.class, "ocp1-cp-0"));
    world.assisted.publishIso("ocp1-cp-0", "https://images.example.com/cp-0.iso");
    world.assisted.publishIso("ocp1-w-0", "https://images.example.com/w-0.iso");
    OpenshiftAssistedConfig ready =
        await(
            "control-plane data secret",
            () -> {
              OpenshiftAssistedConfig c = world.config("ocp1-cp-0");
              return c.getStatus() != null
                      && c.getStatus().initialization != null
                      && Boolean.TRUE.equals(c.getStatus().initialization.dataSecretCreated)
                  ? c
                  : null;
            });
    ObjectNode m3mAfter = JSON.valueToTree(world.get(Metal3Machine.class, "ocp1-cp-0"));
    ObjectNode expected = m3mBefore.deepCopy();
    ((ObjectNode) expected.path("spec").path("image"))
        .put("url", "https://images.example.com/cp-0.iso")
        .put("diskFormat", "live-iso")
        .put("checksum", "");
    assertThat(withoutServerFields(m3mAfter)).isEqualTo(withoutServerFields(expected));

    // The bootstrap data Secret per the Cluster API contract.
    Secret secret = world.get(Secret.class, "ocp1-cp-0");
    assertThat(secret.getType()).isEqualTo("cluster.x-k8s.io/secret");
    assertThat(decode(secret, "format")).isEqualTo("ignition");
    assertThat(JSON.readTree(decode(secret, "value")).path("ignition").has("version")).isTrue();
    assertThat(secret.getMetadata().getLabels())
        .containsEntry("cluster.x-k8s.io/cluster-name", "ocp1");
    OwnerReference owner = secret.getMetadata().getOwnerReferences().get(0);
    assertThat(owner.getUid()).isEqualTo(cp.config().getMetadata().getUid());
    assertThat(owner.getController()).isTrue();

    // Status per the contract.
    assertThat(ready.getStatus().dataSecretName).isEqualTo("ocp1-cp-0");
    assertThat(ready.getStatus().observedGeneration).isEqualTo(ready.getMetadata().getGeneration());
    assertThat(Conditions.isTrue(ready.getStatus().conditions, Reasons.READY)).isTrue();
    assertThat(Conditions.isTrue(ready.getStatus().conditions, Reasons.DATA_SECRET_AVAILABLE))
        .isTrue();
    assertThat(Conditions.find(ready.getStatus().conditions, Reasons.PAUSED).get().getStatus())
        .isEqualTo("False");
    assertThat(ready.getMetadata().getFinalizers())
        .containsExactly("openshiftassistedconfigs.bootstrap.cluster.x-k8s.io/finalizer");
    await("worker data secret", () -> world.get(Secret.class, "ocp1-w-0"));

    // The hosts register: role, hostname, labels, installer args and approval.
    world.assisted.registerAgent("ocp1-cp-0", "agent-cp-0");
    world.assisted.registerAgent("ocp1-w-0", "agent-w-0");
    Agent cpAgent = await("approved cp agent", () -> approved(world.agent("agent-cp-0")));
    assertThat(cpAgent.getSpec().role).isEqualTo("master");
    // $METADATA_NAME, as the host reads it: the BareMetalHost's name (the baremetal-operator's
    // default metadata; the Metal3DataTemplate adds none here).
    assertThat(cpAgent.getSpec().hostname).isEqualTo("bmh-ocp1-cp-0");
    assertThat(cpAgent.getSpec().installerArgs)
        .isEqualTo("[\"--append-karg\",\"console=ttyS0\",\"--delete-karg\",\"quiet\"]");
    assertThat(cpAgent.getSpec().nodeLabels)
        .containsEntry("metal3.io/uuid", cp.bmh().getMetadata().getUid())
        .containsEntry("topology.kubernetes.io/zone", "rack-a")
        .containsEntry("topology.kubernetes.io/region", "eu");
    // Still installing from the ISO: the host stays under the baremetal-operator's management.
    // The reconcile that approved has ended once a later one has undone someone's hostname change.
    world
        .resource(Agent.class, "agent-cp-0")
        .edit(
            a -> {
              a.getSpec().hostname = "renamed-by-someone";
              return a;
            });
    await(
        "hostname restored",
        () -> "bmh-ocp1-cp-0".equals(world.agent("agent-cp-0").getSpec().hostname));
    assertThat(Hosts.isDetached(world.get(BareMetalHost.class, "bmh-ocp1-cp-0"))).isFalse();
    world.assisted.agentStage("agent-cp-0", "Writing image to disk");
    world.assisted.agentStage("agent-cp-0", "Rebooting");
    await(
        "host detached once the installer reboots it",
        () -> Hosts.isDetachedByUs(world.get(BareMetalHost.class, "bmh-ocp1-cp-0")));
    Agent workerAgent = await("approved worker agent", () -> approved(world.agent("agent-w-0")));
    assertThat(workerAgent.getSpec().role).isEqualTo("worker");
    assertThat(workerAgent.getSpec().nodeLabels)
        .containsEntry("metal3.io/uuid", worker.bmh().getMetadata().getUid());

    // What happened is on the objects, not in Events (docs/operations.md): the progress in the
    // conditions, the approval in the Agent and its config's claim, the detachment in the
    // host's annotation, which names us. The flow wrote no Event.
    assertThat(world.config("ocp1-cp-0").getMetadata().getAnnotations())
        .containsEntry(Names.APPROVED_AGENT_ANNOTATION, "agent-cp-0");
    assertThat(eventReasons(world)).isEmpty();
  }

  @Test
  void aRegeneratedIsoReachesAMetal3MachineStillWaitingForAHostOnly() throws Exception {
    TestWorld world = Fixtures.readyWorld(env, "regenerated-iso", "insufficient");
    world.providers.host("ocp1-cp-0", true, spec());
    world.providers.host("ocp1-cp-1", true, spec());
    // CAPM3 has not claimed a host for cp-0 yet (no bootstrap data then); it has for cp-1.
    Metal3Machine waiting = world.get(Metal3Machine.class, "ocp1-cp-0");
    waiting.getMetadata().setAnnotations(Map.of());
    world.client.resource(waiting).update();
    await(
        "InfraEnvs",
        () -> world.infraEnv("ocp1-cp-0") != null && world.infraEnv("ocp1-cp-1") != null);
    world.assisted.publishIso("ocp1-cp-0", "https://images.example.com/cp-0.iso");
    world.assisted.publishIso("ocp1-cp-1", "https://images.example.com/cp-1.iso");
    await(
        "both data secrets",
        () ->
            world.get(Secret.class, "ocp1-cp-0") != null
                && world.get(Secret.class, "ocp1-cp-1") != null
                && "SecretAvailable"
                    .equals(world.reason("ocp1-cp-0", Reasons.DATA_SECRET_AVAILABLE))
                && "SecretAvailable"
                    .equals(world.reason("ocp1-cp-1", Reasons.DATA_SECRET_AVAILABLE)));

    // assisted-service regenerates both images (new URLs, new tokens).
    world.assisted.publishIso("ocp1-cp-1", "https://images.example.com/cp-1-regenerated.iso");
    world.assisted.publishIso("ocp1-cp-0", "https://images.example.com/cp-0-regenerated.iso");

    await(
        "the waiting Metal3Machine to boot the regenerated ISO",
        () ->
            "https://images.example.com/cp-0-regenerated.iso"
                .equals(world.get(Metal3Machine.class, "ocp1-cp-0").getSpec().image.url));
    // cp-1's InfraEnv changed first; its reconcile is done by now. Its host has what it booted.
    Thread.sleep(1000);
    assertThat(world.get(Metal3Machine.class, "ocp1-cp-1").getSpec().image.url)
        .isEqualTo("https://images.example.com/cp-1.iso");
  }

  @Test
  void waitsWithAReasonForEachMissingPieceAndContinuesOnTheirEvents() {
    TestWorld world = Fixtures.world(env, "waits");
    Providers.Host host = world.providers.host("ocp1-cp-0", true, spec());
    awaitReason(world, "ocp1-cp-0", Reasons.WAITING_FOR_CLUSTER);
    world.capi.createCluster(Fixtures.CONTROL_PLANE, false, false, false);
    awaitReason(world, "ocp1-cp-0", Reasons.WAITING_FOR_CLUSTER_INFRASTRUCTURE);
    world.capi.setInfrastructureProvisioned();
    awaitReason(world, "ocp1-cp-0", Reasons.WAITING_FOR_CLUSTER_DEPLOYMENT);
    Fixtures.clusterDeploymentAndInstall(world, "");
    InfraEnv infraEnv = await("InfraEnv", () -> world.infraEnv("ocp1-cp-0"));
    assertThat(infraEnv.getSpec().clusterRef.name).isEqualTo(Fixtures.CONTROL_PLANE);
    assertThat(host.config().getMetadata().getName()).isEqualTo("ocp1-cp-0");
  }

  /**
   * A config whose Cluster is being deleted gets no InfraEnv and no bootstrap data (the deletion
   * test of the simulator found InfraEnvs made for Machines already being deleted).
   */
  @Test
  void makesNothingForAConfigWhoseClusterIsBeingDeleted() throws InterruptedException {
    TestWorld world = Fixtures.world(env, "cluster-deleting");
    world.capi.createCluster(Fixtures.CONTROL_PLANE, false, false, false);
    var cluster = world.resource(Cluster.class, world.clusterName);
    // Cluster API's finalizer holds the Cluster while it deletes what belongs to it.
    cluster.patch(
        PatchContext.of(PatchType.JSON_MERGE),
        "{\"metadata\":{\"finalizers\":[\"cluster.cluster.x-k8s.io\"]}}");
    cluster.delete();
    world.capi.setInfrastructureProvisioned();
    Fixtures.clusterDeploymentAndInstall(world, "");
    // A control-plane Machine (no gate waits for the installation) made before the deletion.
    world.providers.host("ocp1-cp-0", true, spec());

    awaitReason(world, "ocp1-cp-0", Reasons.DELETING);
    assertThat(world.config("ocp1-cp-0").getStatus().conditions)
        .anyMatch(c -> c.getMessage().contains("Cluster ocp1 is being deleted"));
    // Not later either: a reconcile making an InfraEnv takes milliseconds.
    Thread.sleep(2_000);
    assertThat(world.infraEnv("ocp1-cp-0")).isNull();
    assertThat(world.get(Secret.class, "ocp1-cp-0")).isNull();
    cluster.patch(PatchContext.of(PatchType.JSON_MERGE), "{\"metadata\":{\"finalizers\":null}}");
  }

  private static void awaitReason(TestWorld world, String config, String reason) {
    await(
        reason,
        () ->
            reason.equals(world.reason(config, Reasons.DATA_SECRET_AVAILABLE))
                && reason.equals(world.reason(config, Reasons.READY)));
  }

  @Test
  void diskImageModePutsTheDiscoveryIgnitionWithNodeRegistrationInTheSecret() throws Exception {
    TestWorld world = Fixtures.readyWorld(env, "diskimage", "");
    OpenshiftAssistedConfigSpec spec = spec();
    spec.bootMode = BootMode.DISK_IMAGE;
    spec.nodeRegistration = new NodeRegistrationOptions();
    spec.nodeRegistration.name = "worker-7";
    world.providers.host("ocp1-w-7", false, spec);
    await("InfraEnv", () -> world.infraEnv("ocp1-w-7"));
    world.assisted.publishIso("ocp1-w-7", "https://images.example.com/w-7.iso");

    Secret secret = await("data secret", () -> world.get(Secret.class, "ocp1-w-7"));

    var ignition = JSON.readTree(decode(secret, "value"));
    assertThat(ignition.path("systemd").path("units").get(0).path("name").asText())
        .isEqualTo("agent.service");
    assertThat(ignition.path("storage").path("files").toString()).contains("/etc/hostname");
    assertThat(downloads).contains("https://images.example.com/w-7.iso.ign");
    // DiskImage does not touch the Metal3Machine: Metal3 writes its disk image.
    assertThat(world.get(Metal3Machine.class, "ocp1-w-7").getSpec().image.diskFormat)
        .isEqualTo("qcow2");
  }

  @Test
  void workersJoinBeforeTheInstallationOrAfterItButNeverDuringIt() {
    TestWorld world = Fixtures.readyWorld(env, "gating", "pending-for-input");
    world.providers.host("ocp1-w-day1", false, spec());
    await("day-1 worker InfraEnv", () -> world.infraEnv("ocp1-w-day1"));

    world.assisted.setInstallerState(Fixtures.CONTROL_PLANE, "installing");
    world.providers.host("ocp1-w-day2", false, spec());
    await(
        "worker waiting for the installation",
        () ->
            Reasons.WAITING_FOR_INSTALLATION_TO_COMPLETE.equals(
                world.reason("ocp1-w-day2", Reasons.DATA_SECRET_AVAILABLE)));
    assertThat(world.infraEnv("ocp1-w-day2")).isNull();
    world.assisted.setInstallerState(Fixtures.CONTROL_PLANE, "finalizing");
    await(
        "still waiting in finalizing",
        () ->
            world.config("ocp1-w-day2").getStatus().conditions.stream()
                .anyMatch(c -> c.getMessage().contains("'finalizing'")));
    assertThat(world.infraEnv("ocp1-w-day2")).isNull();

    long changed = System.nanoTime();
    world.assisted.setInstallerState(Fixtures.CONTROL_PLANE, "adding-hosts");
    await("day-2 worker InfraEnv", () -> world.infraEnv("ocp1-w-day2"));
    long delayMillis = (System.nanoTime() - changed) / 1_000_000;
    System.out.printf(
        "worker gating: InfraEnv created %d ms after the AgentClusterInstall became adding-hosts%n",
        delayMillis);
    // Driven by the AgentClusterInstall watch, not by a poll interval.
    assertThat(delayMillis).isLessThan(5_000);
  }

  @Test
  void aPausedClusterOrConfigIsReportedAndLeftAlone() {
    TestWorld world = Fixtures.world(env, "pause");
    world.capi.createCluster(Fixtures.CONTROL_PLANE, true, false, false);
    world.capi.setInfrastructureProvisioned();
    Fixtures.clusterDeploymentAndInstall(world, "");
    world.providers.host("ocp1-cp-0", true, spec());

    await(
        "Paused condition",
        () -> Conditions.isTrue(statusConditions(world, "ocp1-cp-0"), Reasons.PAUSED));
    assertThat(world.infraEnv("ocp1-cp-0")).isNull();

    world.capi.setPaused(false);
    await("InfraEnv after unpause", () -> world.infraEnv("ocp1-cp-0"));
    await(
        "Paused False",
        () ->
            Conditions.find(statusConditions(world, "ocp1-cp-0"), Reasons.PAUSED)
                .map(c -> c.getStatus().equals("False"))
                .orElse(false));

    // The annotation on the config pauses it too.
    world.providers.annotateConfig("ocp1-cp-0", "cluster.x-k8s.io/paused", "");
    await(
        "Paused by annotation",
        () -> Conditions.isTrue(statusConditions(world, "ocp1-cp-0"), Reasons.PAUSED));
    world.assisted.publishIso("ocp1-cp-0", "https://images.example.com/cp-0.iso");
    // Proof the ISO event was seen while paused: the status stays paused and nothing is created.
    await("ISO observed", () -> world.infraEnv("ocp1-cp-0").getStatus().isoDownloadURL != null);
    assertThat(world.get(Secret.class, "ocp1-cp-0")).isNull();
    assertThat(world.get(Metal3Machine.class, "ocp1-cp-0").getSpec().image.diskFormat)
        .isEqualTo("qcow2");
  }

  @Test
  void anAgentChangedWhileItsClusterWasPausedIsSetRightWhenThePauseEnds() {
    TestWorld world = Fixtures.readyWorld(env, "agent-pause", "");
    world.providers.host("ocp1-w-0", false, spec());
    await("InfraEnv", () -> world.infraEnv("ocp1-w-0"));
    world.assisted.publishIso("ocp1-w-0", "https://images.example.com/w-0.iso");
    world.assisted.registerAgent("ocp1-w-0", "agent-w-0");
    await("approved", () -> approved(world.agent("agent-w-0")));

    world.capi.setPaused(true);
    await(
        "Paused condition",
        () -> Conditions.isTrue(statusConditions(world, "ocp1-w-0"), Reasons.PAUSED));
    renameAgent(world, "agent-w-0", "renamed-while-paused");
    world.capi.setPaused(false);
    await(
        "hostname set back once the Cluster is unpaused",
        () -> "bmh-ocp1-w-0".equals(world.agent("agent-w-0").getSpec().hostname));

    world.providers.annotateConfig("ocp1-w-0", "cluster.x-k8s.io/paused", "");
    await(
        "Paused by annotation",
        () -> Conditions.isTrue(statusConditions(world, "ocp1-w-0"), Reasons.PAUSED));
    renameAgent(world, "agent-w-0", "renamed-while-paused");
    world.providers.annotateConfig("ocp1-w-0", "cluster.x-k8s.io/paused", null);
    await(
        "hostname set back once the config's annotation is gone",
        () -> "bmh-ocp1-w-0".equals(world.agent("agent-w-0").getSpec().hostname));
  }

  private static void renameAgent(TestWorld world, String agent, String hostname) {
    world
        .resource(Agent.class, agent)
        .edit(
            a -> {
              a.getSpec().hostname = hostname;
              return a;
            });
  }

  @Test
  void anInvalidDiscoveryIgnitionOverrideIsAConditionUntilTheUserFixesIt() {
    TestWorld world = Fixtures.readyWorld(env, "override", "");
    world.providers.host(
        "ocp1-w-0", false, spec(), Map.of(Names.DISCOVERY_IGNITION_OVERRIDE_ANNOTATION, "{oops"));

    await(
        "InvalidDiscoveryIgnitionOverride",
        () ->
            Reasons.INVALID_DISCOVERY_IGNITION_OVERRIDE.equals(
                world.reason("ocp1-w-0", Reasons.DATA_SECRET_AVAILABLE)));
    assertThat(world.infraEnv("ocp1-w-0")).isNull();
    assertThat(world.reason("ocp1-w-0", Reasons.READY))
        .isEqualTo(Reasons.INVALID_DISCOVERY_IGNITION_OVERRIDE);

    world.providers.annotateConfig(
        "ocp1-w-0",
        Names.DISCOVERY_IGNITION_OVERRIDE_ANNOTATION,
        "{\"ignition\":{\"version\":\"3.1.0\"}}");
    InfraEnv infraEnv = await("InfraEnv after the fix", () -> world.infraEnv("ocp1-w-0"));
    assertThat(infraEnv.getSpec().ignitionConfigOverride)
        .isEqualTo("{\"ignition\":{\"version\":\"3.1.0\"}}");

    // The install-time override is checked before any host boots, too.
    world.providers.host(
        "ocp1-w-1", false, spec(), Map.of(Names.IGNITION_OVERRIDE_ANNOTATION, "[1]"));
    await(
        "InvalidIgnitionOverride",
        () ->
            Reasons.INVALID_IGNITION_OVERRIDE.equals(
                world.reason("ocp1-w-1", Reasons.DATA_SECRET_AVAILABLE)));
    assertThat(world.infraEnv("ocp1-w-1")).isNull();
  }

  /** Found by BadInputReconcileTest: the Agent write failed forever ("request is too large"). */
  @Test
  void anInstallIgnitionTooLargeForAnAgentIsReportedInsteadOfWrittenForever() {
    TestWorld world = Fixtures.readyWorld(env, "too-large", "insufficient");
    // Each command within its bound and the config storable (1.2 MB), but 1.6 MB in base64.
    OpenshiftAssistedConfigSpec tooMuch = spec();
    tooMuch.preBootstrapCommands = java.util.Collections.nCopies(36, "\u00e9".repeat(16384));
    world.providers.host("ocp1-cp-0", true, tooMuch);
    await(
        "InstallIgnitionTooLarge",
        () ->
            Reasons.INSTALL_IGNITION_TOO_LARGE.equals(
                world.reason("ocp1-cp-0", Reasons.DATA_SECRET_AVAILABLE)));
    assertThat(world.infraEnv("ocp1-cp-0")).isNull();

    // Just fitting at first (1 MB); an override added later makes it too large for the Agent.
    OpenshiftAssistedConfigSpec almost = spec();
    almost.preBootstrapCommands = java.util.Collections.nCopies(23, "\u00e9".repeat(16384));
    world.providers.host("ocp1-cp-1", true, almost);
    await("InfraEnv ocp1-cp-1", () -> world.infraEnv("ocp1-cp-1"));
    world.assisted.publishIso("ocp1-cp-1", "https://images.example.com/ocp1-cp-1.iso");
    await("Secret ocp1-cp-1", () -> world.get(Secret.class, "ocp1-cp-1"));
    world.providers.annotateConfig(
        "ocp1-cp-1",
        Names.IGNITION_OVERRIDE_ANNOTATION,
        "{\"storage\":{\"files\":[{\"path\":\"/etc/big\",\"contents\":{\"source\":\"data:,"
            + "x".repeat(200_000)
            + "\"}}]}}");
    world.assisted.registerAgent("ocp1-cp-1", "agent-cp-1");
    Agent refused =
        await(
            "Agent refused",
            () -> isRefused(world.agent("agent-cp-1")) ? world.agent("agent-cp-1") : null);
    assertThat(refused.getMetadata().getAnnotations().get(Names.NOT_APPROVED_ANNOTATION))
        .contains("install ignition", "an Agent holds at most 1048576");
    // The Event is recorded just after the annotation is written.
    eventually(() -> assertThat(eventReasons(world)).contains(Reasons.INSTALL_IGNITION_TOO_LARGE));
  }

  @Test
  void deletionRemovesWhatWasCreatedAndHoldsAControlPlaneConfigWhileItsMachineLives()
      throws InterruptedException {
    TestWorld world = Fixtures.readyWorld(env, "delete", "");
    world.providers.host("ocp1-cp-0", true, spec());
    OpenshiftAssistedConfigSpec workerSpec = spec();
    workerSpec.pullSecretRef = null;
    Providers.Host worker = world.providers.host("ocp1-w-0", false, workerSpec);
    for (String name : List.of("ocp1-cp-0", "ocp1-w-0")) {
      await("InfraEnv " + name, () -> world.infraEnv(name));
      world.assisted.publishIso(name, "https://images.example.com/" + name + ".iso");
      await("Secret " + name, () -> world.get(Secret.class, name));
    }
    world.assisted.registerAgent("ocp1-w-0", "agent-w-0");
    await("approved", () -> approved(world.agent("agent-w-0")));
    world.assisted.agentStage("agent-w-0", "Rebooting");
    await(
        "host detached",
        () -> Hosts.isDetachedByUs(world.get(BareMetalHost.class, "bmh-ocp1-w-0")));

    // A worker config is released: InfraEnv, its Agents, bootstrap Secret and placeholder go, then
    // the config. assisted-service holds the InfraEnv and each Agent with its finalizer until it
    // has deregistered the hosts.
    var workerInfraEnv = world.resource(InfraEnv.class, "ocp1-w-0");
    workerInfraEnv.edit(
        i -> {
          i.getMetadata()
              .setFinalizers(List.of("infraenv.agent-install.openshift.io/ai-deprovision"));
          return i;
        });
    var workerAgent = world.resource(Agent.class, "agent-w-0");
    world.client.resource(world.config("ocp1-w-0")).delete();
    // Not before the service has taken the Agent (its finalizer): deleted earlier, the Agent would
    // go at once and leave its host bound in the service, which then never lets the InfraEnv go.
    Thread.sleep(2000);
    assertThat(workerAgent.get().getMetadata().getDeletionTimestamp())
        .as("an Agent the service has not taken yet is not deleted")
        .isNull();
    assertThat(workerInfraEnv.get().getMetadata().getDeletionTimestamp())
        .as("nor its InfraEnv")
        .isNull();
    // Each wait of the deletion is on the config's Deleting condition, naming what it waits for.
    await(
        "Deleting: WaitingForAssistedService",
        () ->
            Reasons.WAITING_FOR_ASSISTED_SERVICE.equals(
                world.reason("ocp1-w-0", Reasons.DELETING)));
    assertThat(deletingMessage(world, "ocp1-w-0"))
        .contains("Agents [agent-w-0]", "InfraEnv ocp1-w-0");
    workerAgent.edit(
        a -> {
          a.getMetadata().setFinalizers(List.of("agent.agent-install.openshift.io/ai-deprovision"));
          return a;
        });
    await(
        "InfraEnv deleting",
        () -> workerInfraEnv.get().getMetadata().getDeletionTimestamp() != null);
    // The Agent is deleted too, and the service told to leave the installed cluster to Cluster API.
    Agent deleting = workerAgent.get();
    assertThat(deleting.getMetadata().getDeletionTimestamp()).isNotNull();
    assertThat(deleting.getMetadata().getAnnotations())
        .containsEntry("agent.agent-install.openshift.io/skip-spoke-cleanup", "true");
    assertThat(world.config("ocp1-w-0")).isNotNull();
    assertThat(world.get(Secret.class, "ocp1-w-0")).isNotNull();
    await(
        "Deleting: WaitingForInfraEnvDeletion",
        () ->
            Reasons.WAITING_FOR_INFRA_ENV_DELETION.equals(
                world.reason("ocp1-w-0", Reasons.DELETING)));
    workerInfraEnv.edit(
        i -> {
          i.getMetadata().setFinalizers(List.of());
          return i;
        });
    await("InfraEnv gone", () -> workerInfraEnv.get() == null);
    // The config waits for its Agent too: its host, released, may register again at once under the
    // same Agent name, which an Agent still being deleted would take with it.
    Thread.sleep(2000);
    assertThat(world.config("ocp1-w-0")).as("config held while its Agent is deleted").isNotNull();
    await(
        "Deleting: WaitingForAgentDeletion",
        () ->
            Reasons.WAITING_FOR_AGENT_DELETION.equals(world.reason("ocp1-w-0", Reasons.DELETING)));
    assertThat(deletingMessage(world, "ocp1-w-0")).contains("Agents [agent-w-0]");
    workerAgent.edit(
        a -> {
          a.getMetadata().setFinalizers(List.of());
          return a;
        });
    await("worker config gone", () -> world.config("ocp1-w-0") == null);
    assertThat(world.infraEnv("ocp1-w-0")).isNull();
    assertThat(world.get(Secret.class, "ocp1-w-0")).isNull();
    assertThat(world.get(Secret.class, "ocp1-w-0-placeholder-pull-secret")).isNull();
    assertThat(Hosts.isDetached(world.get(BareMetalHost.class, "bmh-ocp1-w-0"))).isFalse();
    assertThat(worker).isNotNull();

    // A control-plane config stays while its Machine lives...
    world.client.resource(world.config("ocp1-cp-0")).delete();
    await("DeletionBlocked event", () -> eventReasons(world).contains("DeletionBlocked"));
    await(
        "Deleting: WaitingForMachineDeletion",
        () ->
            Reasons.WAITING_FOR_MACHINE_DELETION.equals(
                world.reason("ocp1-cp-0", Reasons.DELETING)));
    assertThat(world.config("ocp1-cp-0")).isNotNull();
    assertThat(world.infraEnv("ocp1-cp-0")).isNotNull();

    // ...and is released once the Machine is being deleted.
    var machines = world.resource(io.openshiftagent.api.external.capi.Machine.class, "ocp1-cp-0");
    machines.edit(
        m -> {
          m.getMetadata().setFinalizers(List.of("machine.cluster.x-k8s.io"));
          return m;
        });
    machines.delete();
    await("control-plane config gone", () -> world.config("ocp1-cp-0") == null);
    assertThat(world.infraEnv("ocp1-cp-0")).isNull();
    assertThat(world.get(Secret.class, "ocp1-cp-0")).isNull();
  }

  @Test
  void aHostDetachedAfterInstallationIsAttachedAgainWhenItsMachineIsDeleted() {
    TestWorld world = Fixtures.readyWorld(env, "reattach", "");
    world.providers.host("ocp1-w-0", false, spec());
    world.providers.host("ocp1-w-1", false, spec());
    for (String name : List.of("ocp1-w-0", "ocp1-w-1")) {
      await("InfraEnv " + name, () -> world.infraEnv(name));
      world.assisted.publishIso(name, "https://images.example.com/" + name + ".iso");
      await("Secret " + name, () -> world.get(Secret.class, name));
    }
    world.assisted.registerAgent("ocp1-w-0", "agent-w-0");
    world.assisted.registerAgent("ocp1-w-1", "agent-w-1");
    await("approved", () -> approved(world.agent("agent-w-0")));
    await("approved", () -> approved(world.agent("agent-w-1")));
    world.assisted.agentStage("agent-w-0", "Rebooting");
    await(
        "host detached",
        () -> Hosts.isDetachedByUs(world.get(BareMetalHost.class, "bmh-ocp1-w-0")));

    // Cluster API deletes the Metal3Machine before the config; CAPM3 waits for the
    // baremetal-operator to deprovision the host, which it does not do while the host is detached.
    deleteHeldByFinalizer(world, "ocp1-w-0");
    await(
        "host attached again while the config still exists",
        () -> !Hosts.isDetached(world.get(BareMetalHost.class, "bmh-ocp1-w-0")));
    assertThat(world.config("ocp1-w-0")).isNotNull();

    // A host whose Machine is being deleted is not detached, even at the stages that detach.
    deleteHeldByFinalizer(world, "ocp1-w-1");
    world
        .resource(Agent.class, "agent-w-1")
        .edit(
            a -> {
              a.getSpec().hostname = "changed-by-someone";
              return a;
            });
    world.assisted.agentStage("agent-w-1", "Rebooting");
    await(
        "the Agent reconciled (hostname set back)",
        () -> "bmh-ocp1-w-1".equals(world.agent("agent-w-1").getSpec().hostname));
    assertThat(Hosts.isDetached(world.get(BareMetalHost.class, "bmh-ocp1-w-1"))).isFalse();
  }

  /** Deletes the Machine, which a finalizer holds, as Cluster API's does during deletion. */
  private static void deleteHeldByFinalizer(TestWorld world, String machine) {
    var resource = world.resource(io.openshiftagent.api.external.capi.Machine.class, machine);
    resource.edit(
        m -> {
          m.getMetadata().setFinalizers(List.of("machine.cluster.x-k8s.io"));
          return m;
        });
    resource.delete();
  }

  @Test
  void aSecondHostOnTheSameInfraEnvIsNotApproved() {
    TestWorld world = Fixtures.readyWorld(env, "two-agents", "");
    world.providers.host("ocp1-w-0", false, spec());
    await("InfraEnv", () -> world.infraEnv("ocp1-w-0"));
    world.assisted.registerAgent("ocp1-w-0", "agent-a");
    world.assisted.registerAgent("ocp1-w-0", "agent-b");

    await(
        "one approved and one refused",
        () ->
            isRefused(world.agent("agent-a")) && approved(world.agent("agent-b")) != null
                || isRefused(world.agent("agent-b")) && approved(world.agent("agent-a")) != null);
    eventually(() -> assertThat(eventReasons(world)).contains("NotApproved"));
    // Both still have their role etc.: only the approval is withheld.
    assertThat(world.agent("agent-a").getSpec().role).isEqualTo("worker");
    assertThat(world.agent("agent-b").getSpec().role).isEqualTo("worker");
  }

  /**
   * An InfraEnv of the config's name that someone else made (no owner reference to the config) is
   * never used, changed or deleted: the config says so instead of booting its host from it.
   */
  @Test
  void anInfraEnvOfTheConfigsNameThatIsNotOursIsLeftAloneAndReported() throws Exception {
    TestWorld world = Fixtures.readyWorld(env, "infraenv-not-ours", "");
    InfraEnv theirs = new InfraEnv();
    theirs.setMetadata(
        new ObjectMetaBuilder().withName("ocp1-w-0").withNamespace(world.ns).build());
    theirs.setSpec(new InfraEnvSpec());
    theirs.getSpec().pullSecretRef =
        new io.fabric8.kubernetes.api.model.LocalObjectReference("someone-elses-pull-secret");
    theirs = world.client.resource(theirs).create();

    world.providers.host("ocp1-w-0", false, spec());

    awaitReason(world, "ocp1-w-0", Reasons.INFRA_ENV_NOT_OURS);
    assertThat(world.config("ocp1-w-0").getStatus().conditions)
        .anyMatch(c -> c.getMessage().contains("InfraEnv ocp1-w-0 exists and does not belong"));
    assertThat(world.infraEnv("ocp1-w-0").getMetadata().getResourceVersion())
        .isEqualTo(theirs.getMetadata().getResourceVersion());
    assertThat(world.get(Metal3Machine.class, "ocp1-w-0").getSpec().image.url)
        .isEqualTo("http://images.example.com/rhcos.qcow2");
    assertThat(world.get(Secret.class, "ocp1-w-0")).isNull();
  }

  @Test
  void foreignAgentsAreIgnoredAndOurAgentsKeepEveryFieldWeDoNotOwn() throws Exception {
    TestWorld world = Fixtures.readyWorld(env, "foreign", "");
    world.providers.host("ocp1-w-0", false, spec());
    await("InfraEnv", () -> world.infraEnv("ocp1-w-0"));
    ClusterReference cd = new ClusterReference(Fixtures.CONTROL_PLANE, world.ns);
    Agent foreign =
        world.assisted.agent(
            "foreign", Map.of("infraenvs.agent-install.openshift.io", "theirs"), cd);
    Agent spoofed =
        world.assisted.agent(
            "spoofed",
            Map.of("infraenvs.agent-install.openshift.io", "missing", Names.CONFIG_LABEL, "x"),
            cd);
    Agent ours = world.assisted.registerAgent("ocp1-w-0", "ours");
    ObjectNode before = JSON.valueToTree(ours);

    Agent approved = await("ours approved", () -> approved(world.agent("ours")));

    assertThat(world.agent("foreign").getMetadata().getResourceVersion())
        .isEqualTo(foreign.getMetadata().getResourceVersion());
    assertThat(world.agent("spoofed").getMetadata().getResourceVersion())
        .isEqualTo(spoofed.getMetadata().getResourceVersion());
    ObjectNode expected = before.deepCopy();
    ObjectNode spec = (ObjectNode) expected.path("spec");
    spec.put("approved", true)
        .put("role", "worker")
        .put("hostname", "bmh-ocp1-w-0")
        .put("installerArgs", approved.getSpec().installerArgs);
    ((ObjectNode) spec.path("nodeLabels"))
        .put("metal3.io/uuid", approved.getSpec().nodeLabels.get("metal3.io/uuid"))
        .put("topology.kubernetes.io/zone", "rack-a");
    assertThat(withoutServerFields(JSON.valueToTree(approved)))
        .isEqualTo(withoutServerFields(expected));
    assertThat(approved.getSpec().unknownFields())
        .containsEntry("machineConfigPool", "custom-pool");
  }

  // ---- helpers ----

  static Agent approved(Agent agent) {
    return agent != null && Boolean.TRUE.equals(agent.getSpec().approved) ? agent : null;
  }

  static boolean isRefused(Agent agent) {
    return agent != null
        && !Boolean.TRUE.equals(agent.getSpec().approved)
        && agent.getMetadata().getAnnotations() != null
        && agent.getMetadata().getAnnotations().containsKey(Names.NOT_APPROVED_ANNOTATION);
  }

  private static List<io.fabric8.kubernetes.api.model.Condition> statusConditions(
      TestWorld world, String name) {
    OpenshiftAssistedConfig config = world.config(name);
    return config == null || config.getStatus() == null ? null : config.getStatus().conditions;
  }

  /** The reasons of the Events in the test's namespace, once those recorded so far are written. */
  private static String deletingMessage(TestWorld world, String config) {
    return Conditions.find(world.config(config).getStatus().conditions, Reasons.DELETING)
        .orElseThrow()
        .getMessage();
  }

  static List<String> eventReasons(TestWorld world) {
    assertThat(EventRecorder.flush(Duration.ofSeconds(60))).as("Events written").isTrue();
    return world.client.events().v1().events().inNamespace(world.ns).list().getItems().stream()
        .map(Event::getReason)
        .toList();
  }

  static String decode(Secret secret, String key) {
    return new String(
        Base64.getDecoder().decode(secret.getData().get(key)), StandardCharsets.UTF_8);
  }

  static ObjectNode withoutServerFields(ObjectNode node) {
    ObjectNode copy = node.deepCopy();
    ((ObjectNode) copy.path("metadata"))
        .remove(List.of("resourceVersion", "managedFields", "generation", "annotations"));
    return copy;
  }
}
