package io.openshiftagent.bootstrap.config;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.openshiftagent.api.bootstrap.v1alpha2.BootMode;
import io.openshiftagent.api.bootstrap.v1alpha2.OpenshiftAssistedConfig;
import io.openshiftagent.api.bootstrap.v1alpha2.OpenshiftAssistedConfigSpec;
import io.openshiftagent.api.bootstrap.v1alpha2.OpenshiftAssistedConfigStatus;
import io.openshiftagent.api.common.ContractVersionedObjectReference;
import io.openshiftagent.api.controlplane.v1alpha3.ControlPlaneGroup;
import io.openshiftagent.api.external.ExternalKinds;
import io.openshiftagent.api.external.assisted.AgentClusterInstall;
import io.openshiftagent.api.external.assisted.AgentClusterInstallStatus;
import io.openshiftagent.api.external.assisted.DebugInfo;
import io.openshiftagent.api.external.assisted.InfraEnv;
import io.openshiftagent.api.external.assisted.InfraEnvStatus;
import io.openshiftagent.api.external.capi.Cluster;
import io.openshiftagent.api.external.capi.ClusterSpec;
import io.openshiftagent.api.external.capi.ClusterStatus;
import io.openshiftagent.api.external.capi.Machine;
import io.openshiftagent.api.external.capi.MachineSpec;
import io.openshiftagent.api.external.hive.ClusterDeployment;
import io.openshiftagent.api.external.metal3.Metal3Machine;
import io.openshiftagent.api.external.metal3.Metal3MachineSpec;
import io.openshiftagent.bootstrap.config.ConfigStatus.Outcome;
import io.openshiftagent.bootstrap.config.ConfigSteps.BootLiveIso;
import io.openshiftagent.bootstrap.config.ConfigSteps.CreateInfraEnv;
import io.openshiftagent.bootstrap.config.ConfigSteps.DownloadIgnition;
import io.openshiftagent.bootstrap.config.ConfigSteps.FollowIso;
import io.openshiftagent.bootstrap.config.ConfigSteps.ReattachHost;
import io.openshiftagent.bootstrap.config.ConfigSteps.Report;
import io.openshiftagent.bootstrap.config.ConfigSteps.Step;
import io.openshiftagent.bootstrap.names.Names;
import io.openshiftagent.bootstrap.names.Reasons;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The next step of a config for each state of its world, from nothing at all to bootstrap data
 * ready: the prerequisites in their order, then the InfraEnv, then each boot mode's steps.
 */
class ConfigStepsTest {
  static final Instant NOW = Instant.parse("2026-11-25T12:00:00Z");
  static final String ISO = "https://assisted.example.com/images/ocp1-w-0.iso";
  static final String IGNITION = "https://assisted.example.com/ocp1-w-0.ign";
  static final String BAD_KEY = "ssh-rsa notakey";
  static final String GOOD_KEY =
      "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIPWCmCQBl8AFoeTGj8v52CkBt9PxUkUJ7Ss2++ELtgNq user@example";
  static final String SSH_REFUSED = "Failed to create image: SSH key is not valid";

  /** The world of one config, every prerequisite met and nothing made yet; rows take parts away. */
  static final class Scene {
    final OpenshiftAssistedConfig config = new OpenshiftAssistedConfig();
    Machine machine = new Machine();
    Cluster cluster = new Cluster();
    ClusterDeployment clusterDeployment = new ClusterDeployment();
    AgentClusterInstall install = new AgentClusterInstall();
    InfraEnv infraEnv;
    Metal3Machine metal3Machine = new Metal3Machine();
    boolean dataSecretExists;
    FailedDownload lastFailedDownload;
    boolean hostReattached;
    String machinePool;
    BootMode defaultBootMode = BootMode.LIVE_ISO;

    Scene() {
      config.setMetadata(meta("ocp1-w-0"));
      config.setSpec(new OpenshiftAssistedConfigSpec());
      machine.setMetadata(meta("ocp1-w-0"));
      machine.setSpec(new MachineSpec());
      machine.getSpec().clusterName = "ocp1";
      machine.getSpec().infrastructureRef =
          new ContractVersionedObjectReference(
              ExternalKinds.INFRASTRUCTURE_GROUP, "Metal3Machine", "ocp1-w-0");
      cluster.setMetadata(meta("ocp1"));
      cluster.setSpec(new ClusterSpec());
      cluster.getSpec().controlPlaneRef =
          new ContractVersionedObjectReference(
              ControlPlaneGroup.GROUP, "OpenshiftAssistedControlPlane", "ocp1-cp");
      cluster.setStatus(new ClusterStatus());
      cluster.getStatus().initialization = new ClusterStatus.Initialization();
      cluster.getStatus().initialization.infrastructureProvisioned = true;
      clusterDeployment.setMetadata(meta("ocp1-cp"));
      install.setMetadata(meta("ocp1-cp"));
      installState("");
      metal3Machine.setMetadata(meta("ocp1-w-0"));
      metal3Machine.setSpec(new Metal3MachineSpec());
    }

    Scene controlPlane() {
      machine.getMetadata().setLabels(Map.of(ExternalKinds.CONTROL_PLANE_LABEL, ""));
      return this;
    }

    Scene diskImage() {
      config.getSpec().bootMode = BootMode.DISK_IMAGE;
      return this;
    }

    Scene installState(String state) {
      install.setStatus(new AgentClusterInstallStatus());
      install.getStatus().debugInfo = new DebugInfo();
      install.getStatus().debugInfo.state = state;
      return this;
    }

    Scene infraEnvMadeFor(BootMode mode) {
      infraEnv.getMetadata().setAnnotations(Map.of(Names.BOOT_MODE_ANNOTATION, mode.wireName()));
      return this;
    }

    Scene infraEnv(String isoUrl, String ignitionUrl) {
      infraEnv = new InfraEnv();
      infraEnv.setMetadata(meta("ocp1-w-0"));
      infraEnv.setStatus(new InfraEnvStatus());
      infraEnv.getStatus().isoDownloadURL = isoUrl;
      infraEnv.getStatus().bootArtifacts = new InfraEnvStatus.BootArtifacts();
      infraEnv.getStatus().bootArtifacts.discoveryIgnitionURL = ignitionUrl;
      return this;
    }

    /**
     * assisted-service's answer to the InfraEnv's spec, as it sets it: ImageCreated {@code status}
     * with reason ImageCreationError; the config and the InfraEnv both hold {@code key}.
     */
    Scene imageCreationError(String status, String message, String key) {
      config.getSpec().sshAuthorizedKey = key;
      infraEnv.setSpec(new io.openshiftagent.api.external.assisted.InfraEnvSpec());
      infraEnv.getSpec().sshAuthorizedKey = key;
      infraEnv.getStatus().isoDownloadURL = null;
      infraEnv.getStatus().conditions =
          List.of(
              new io.fabric8.kubernetes.api.model.ConditionBuilder()
                  .withType("ImageCreated")
                  .withStatus(status)
                  .withReason("ImageCreationError")
                  .withMessage(message)
                  .build());
      return this;
    }

    Scene bootsIso(String url) {
      metal3Machine.getSpec().image = new Metal3MachineSpec.Image();
      metal3Machine.getSpec().image.url = url;
      metal3Machine.getSpec().image.diskFormat = Metal3MachineSpec.DISK_FORMAT_LIVE_ISO;
      return this;
    }

    Scene hostClaimed() {
      metal3Machine
          .getMetadata()
          .setAnnotations(Map.of(ExternalKinds.BAREMETALHOST_ANNOTATION, "ns/bmh-0"));
      return this;
    }

    Scene reportedReady() {
      config.setStatus(new OpenshiftAssistedConfigStatus());
      config.getStatus().initialization = new OpenshiftAssistedConfigStatus.Initialization();
      config.getStatus().initialization.dataSecretCreated = true;
      dataSecretExists = true;
      return this;
    }

    Scene annotate(String key, String value) {
      Map<String, String> annotations = new HashMap<>();
      if (config.getMetadata().getAnnotations() != null) {
        annotations.putAll(config.getMetadata().getAnnotations());
      }
      annotations.put(key, value);
      config.getMetadata().setAnnotations(annotations);
      return this;
    }

    ConfigScope scope() {
      return new ConfigScope(
          config,
          Optional.ofNullable(machinePool),
          defaultBootMode,
          Optional.ofNullable(machine),
          Optional.ofNullable(cluster),
          Optional.ofNullable(clusterDeployment),
          Optional.ofNullable(install),
          Optional.ofNullable(infraEnv),
          Optional.ofNullable(metal3Machine),
          dataSecretExists,
          Optional.ofNullable(lastFailedDownload),
          NOW,
          hostReattached,
          Optional::empty,
          List::of);
    }

    private static io.fabric8.kubernetes.api.model.ObjectMeta meta(String name) {
      return new ObjectMetaBuilder()
          .withName(name)
          .withNamespace("ns")
          .withUid("uid-" + name)
          .build();
    }
  }

  static Arguments row(String name, Consumer<Scene> world, String expected) {
    return Arguments.of(name, world, expected);
  }

  static Stream<Arguments> steps() {
    String deleted = "2026-11-25T11:00:00Z";
    return Stream.of(
        row("no Machine owns the config", s -> s.machine = null, Reasons.WAITING_FOR_MACHINE),
        row(
            "a MachinePool owns the config",
            s -> {
              s.machine = null;
              s.machinePool = "ocp1-pool";
            },
            Reasons.MACHINE_POOL_NOT_SUPPORTED),
        row(
            "made by the Go provider: taken over first",
            s ->
                s.config
                    .getMetadata()
                    .setFinalizers(
                        new java.util.ArrayList<>(
                            java.util.List.of(
                                io.openshiftagent.provider.contract.GoProvider.CONFIG_FINALIZER))),
            "AdoptFromGoProvider"),
        row(
            "made by the Go provider, on a paused Cluster: left alone",
            s -> {
              s.config
                  .getMetadata()
                  .setFinalizers(
                      java.util.List.of(
                          io.openshiftagent.provider.contract.GoProvider.CONFIG_FINALIZER));
              s.cluster.getSpec().paused = true;
            },
            Reasons.PAUSED),
        row("the Cluster is missing", s -> s.cluster = null, Reasons.WAITING_FOR_CLUSTER),
        row(
            "the Cluster is paused, even with nothing else there",
            s -> {
              s.cluster.getSpec().paused = true;
              s.clusterDeployment = null;
            },
            Reasons.PAUSED),
        row(
            "the config has the paused annotation",
            s -> s.annotate(ExternalKinds.PAUSED_ANNOTATION, ""),
            Reasons.PAUSED),
        row(
            "the Machine is being deleted: its host goes back first",
            s -> s.machine.getMetadata().setDeletionTimestamp(deleted),
            "ReattachHost"),
        row(
            "the Machine is being deleted and its host is back",
            s -> {
              s.machine.getMetadata().setDeletionTimestamp(deleted);
              s.hostReattached = true;
            },
            Reasons.DELETING),
        row(
            "the Cluster is being deleted",
            s -> s.cluster.getMetadata().setDeletionTimestamp(deleted),
            Reasons.DELETING),
        row(
            "the Cluster is being deleted before its infrastructure is provisioned",
            s -> {
              s.cluster.getMetadata().setDeletionTimestamp(deleted);
              s.cluster.getStatus().initialization.infrastructureProvisioned = false;
            },
            Reasons.DELETING),
        row(
            "the infrastructure is not provisioned",
            s -> s.cluster.getStatus().initialization.infrastructureProvisioned = false,
            Reasons.WAITING_FOR_CLUSTER_INFRASTRUCTURE),
        row(
            "the Cluster names no OpenshiftAssistedControlPlane",
            s -> s.cluster.getSpec().controlPlaneRef.kind = "KubeadmControlPlane",
            Reasons.WAITING_FOR_CONTROL_PLANE),
        row(
            "no ClusterDeployment yet",
            s -> {
              s.clusterDeployment = null;
              s.install = null;
            },
            Reasons.WAITING_FOR_CLUSTER_DEPLOYMENT),
        row(
            "no AgentClusterInstall yet",
            s -> s.install = null,
            Reasons.WAITING_FOR_AGENT_CLUSTER_INSTALL),
        row("a worker before the installation", s -> {}, "CreateInfraEnv DAY1"),
        row(
            "a worker while the cluster installs",
            s -> s.installState("installing"),
            Reasons.WAITING_FOR_INSTALLATION_TO_COMPLETE),
        row(
            "a worker once the cluster is installed",
            s -> s.installState("installed"),
            "CreateInfraEnv DAY2"),
        row(
            "a control-plane host while the cluster installs",
            s -> s.controlPlane().installState("installing"),
            "CreateInfraEnv CONTROL_PLANE"),
        row(
            "a discovery ignition override that is no JSON object",
            s -> s.annotate(Names.DISCOVERY_IGNITION_OVERRIDE_ANNOTATION, "[1]"),
            Reasons.INVALID_DISCOVERY_IGNITION_OVERRIDE),
        row(
            "an install ignition override that is no JSON object",
            s -> s.annotate(Names.IGNITION_OVERRIDE_ANNOTATION, "not json"),
            Reasons.INVALID_IGNITION_OVERRIDE),
        row(
            "an install ignition too large for an Agent",
            s ->
                s.annotate(
                    Names.IGNITION_OVERRIDE_ANNOTATION,
                    "{\"x\":\"" + "y".repeat(1024 * 1024) + "\"}"),
            Reasons.INSTALL_IGNITION_TOO_LARGE),
        row(
            "an invalid override once the InfraEnv exists changes nothing",
            s ->
                s.annotate(Names.DISCOVERY_IGNITION_OVERRIDE_ANNOTATION, "[1]")
                    .infraEnv(ISO, IGNITION),
            "BootLiveIso"),
        row(
            "a '$' that starts no reference in the node registration",
            s -> {
              s.config.getSpec().nodeRegistration =
                  new io.openshiftagent.api.bootstrap.v1alpha2.NodeRegistrationOptions();
              s.config.getSpec().nodeRegistration.name = "node-$(hostname)";
            },
            Reasons.INVALID_NODE_REGISTRATION),
        row(
            "no boot mode: the provider's default (DiskImage)",
            s -> {
              s.defaultBootMode = BootMode.DISK_IMAGE;
              s.infraEnv(ISO, IGNITION);
            },
            "DownloadIgnition"),
        row(
            "no boot mode: the one the InfraEnv was made for, whatever the default is now",
            s -> {
              s.defaultBootMode = BootMode.DISK_IMAGE;
              s.infraEnv(ISO, IGNITION).infraEnvMadeFor(BootMode.LIVE_ISO);
            },
            "BootLiveIso"),
        row(
            "a boot mode in the spec wins over the InfraEnv's and the default",
            s -> {
              s.diskImage().infraEnv(ISO, IGNITION).infraEnvMadeFor(BootMode.LIVE_ISO);
            },
            "DownloadIgnition"),
        row(
            "LiveISO: assisted-service refused the InfraEnv's spec",
            s -> s.infraEnv(null, null).imageCreationError("False", SSH_REFUSED, BAD_KEY),
            Reasons.DISCOVERY_IMAGE_REFUSED),
        row(
            "LiveISO: a failure the service retries by itself is a wait",
            s ->
                s.infraEnv(null, null)
                    .imageCreationError(
                        "False", "Failed to create image due to an internal error: EOF", GOOD_KEY),
            Reasons.WAITING_FOR_DISCOVERY_IMAGE),
        row(
            "LiveISO: the cluster not in the service's database yet is a wait",
            s ->
                s.infraEnv(null, null)
                    .imageCreationError(
                        "Unknown",
                        "Failed to create image: cluster does not exist: ocp1",
                        GOOD_KEY),
            Reasons.WAITING_FOR_DISCOVERY_IMAGE),
        row(
            "LiveISO: the image is there, whatever the condition still says",
            s -> {
              s.infraEnv(null, IGNITION).imageCreationError("False", SSH_REFUSED, BAD_KEY);
              s.infraEnv.getStatus().isoDownloadURL = ISO;
            },
            "BootLiveIso"),
        row(
            "DiskImage: assisted-service refused the InfraEnv's spec",
            s ->
                s.diskImage()
                    .infraEnv(null, null)
                    .imageCreationError("False", SSH_REFUSED, BAD_KEY),
            Reasons.DISCOVERY_IMAGE_REFUSED),
        row(
            "LiveISO: the image is not made yet",
            s -> s.infraEnv("", null),
            Reasons.WAITING_FOR_DISCOVERY_IMAGE),
        row(
            "LiveISO: the Machine's infrastructure is no Metal3Machine",
            s -> {
              s.infraEnv(ISO, IGNITION);
              s.machine.getSpec().infrastructureRef.kind = "AWSMachine";
            },
            Reasons.UNSUPPORTED_INFRASTRUCTURE),
        row(
            "LiveISO: the Metal3Machine is not made yet",
            s -> {
              s.infraEnv(ISO, IGNITION);
              s.metal3Machine = null;
            },
            Reasons.WAITING_FOR_INFRASTRUCTURE_MACHINE),
        row("LiveISO: the image is ready", s -> s.infraEnv(ISO, IGNITION), "BootLiveIso"),
        row(
            "LiveISO: the host boots the image but the data is missing",
            s -> s.infraEnv(ISO, IGNITION).bootsIso(ISO),
            "BootLiveIso"),
        row(
            "LiveISO: the host boots the image and the data exists",
            s -> {
              s.infraEnv(ISO, IGNITION).bootsIso(ISO);
              s.dataSecretExists = true;
            },
            Reasons.SECRET_AVAILABLE),
        row(
            "ready, and the Metal3Machine still boots the image",
            s -> s.infraEnv(ISO, IGNITION).bootsIso(ISO).reportedReady(),
            Reasons.SECRET_AVAILABLE),
        row(
            "ready, and the image was regenerated before a host was claimed",
            s -> s.infraEnv(ISO + "?v=2", IGNITION).bootsIso(ISO).reportedReady(),
            "FollowIso"),
        row(
            "ready, and the image was regenerated after the host was claimed",
            s -> s.infraEnv(ISO + "?v=2", IGNITION).bootsIso(ISO).hostClaimed().reportedReady(),
            Reasons.SECRET_AVAILABLE),
        row(
            "ready, even once the cluster is gone",
            s -> {
              s.infraEnv(ISO, IGNITION).bootsIso(ISO).reportedReady();
              s.clusterDeployment = null;
              s.install = null;
              s.cluster.getStatus().initialization.infrastructureProvisioned = false;
            },
            Reasons.SECRET_AVAILABLE),
        row(
            "reported ready but the data Secret is gone: made again",
            s -> {
              s.infraEnv(ISO, IGNITION).bootsIso(ISO).reportedReady();
              s.dataSecretExists = false;
            },
            "BootLiveIso"),
        row(
            "DiskImage: no ignition published yet",
            s -> s.diskImage().infraEnv(ISO, null),
            Reasons.WAITING_FOR_DISCOVERY_IGNITION),
        row(
            "DiskImage: the ignition is published",
            s -> s.diskImage().infraEnv(null, IGNITION),
            "DownloadIgnition"),
        row(
            "DiskImage: the last download failed moments ago",
            s -> {
              s.diskImage().infraEnv(null, IGNITION);
              s.lastFailedDownload = failure(IGNITION, NOW.minusSeconds(1));
            },
            Reasons.DISCOVERY_IGNITION_DOWNLOAD_FAILED),
        row(
            "DiskImage: the last download failed long enough ago",
            s -> {
              s.diskImage().infraEnv(null, IGNITION);
              s.lastFailedDownload = failure(IGNITION, NOW.minusSeconds(60));
            },
            "DownloadIgnition"),
        row(
            "DiskImage: the last failure was of other URLs",
            s -> {
              s.diskImage().infraEnv(null, IGNITION + "?api_key=new");
              s.lastFailedDownload = failure(IGNITION, NOW.minusSeconds(1));
            },
            "DownloadIgnition"),
        row(
            "DiskImage: the data exists",
            s -> {
              s.diskImage().infraEnv(null, IGNITION);
              s.dataSecretExists = true;
            },
            Reasons.SECRET_AVAILABLE));
  }

  private static FailedDownload failure(String url, Instant at) {
    return FailedDownload.after(
        null,
        FailedDownload.urls(url, null),
        at,
        Reasons.DISCOVERY_IGNITION_DOWNLOAD_FAILED,
        "503",
        true);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("steps")
  void theNextStepFollowsThePrerequisitesInOrder(
      String name, Consumer<Scene> world, String expected) {
    Scene scene = new Scene();
    world.accept(scene);
    assertThat(describe(ConfigSteps.next(scene.scope()))).isEqualTo(expected);
  }

  @org.junit.jupiter.api.Test
  void aHeldBackDownloadIsTriedAgainWhenItsBackoffEnds() {
    Scene scene = new Scene().diskImage().infraEnv(null, IGNITION);
    scene.lastFailedDownload = failure(IGNITION, NOW.minusSeconds(1));
    Outcome outcome = ((Report) ConfigSteps.next(scene.scope())).outcome();
    assertThat(outcome.recheckAfter()).isEqualTo(Backoff.FIRST.minusSeconds(1));
    assertThat(outcome.message()).isEqualTo("503");
  }

  @org.junit.jupiter.api.Test
  void aRefusedImageIsReportedInTheServicesWordsWithWhatToFix() {
    Scene scene =
        new Scene().infraEnv(null, null).imageCreationError("False", SSH_REFUSED, BAD_KEY);
    assertThat(((Report) ConfigSteps.next(scene.scope())).outcome().message())
        .isEqualTo(
            "assisted-service refused to create the discovery image of InfraEnv ocp1-w-0: Failed to"
                + " create image: SSH key is not valid; the value it names comes from this config's"
                + " spec (proxy, additionalNTPSources, sshAuthorizedKey, nmStateConfigLabelSelector,"
                + " cpuArchitecture, additionalTrustBundle, osImageVersion), which is immutable: fix"
                + " it where the config was made from (the control plane's"
                + " spec.openshiftAssistedConfigSpec or the OpenshiftAssistedConfigTemplate) for new"
                + " Machines, or in InfraEnv ocp1-w-0's spec for this one");
  }

  @org.junit.jupiter.api.Test
  void theInfraEnvCorrectedInPlaceClearsTheRefusal() {
    // The service's answer to the corrected InfraEnv: the image, with ImageCreated True.
    Scene scene =
        new Scene().infraEnv(null, null).imageCreationError("False", SSH_REFUSED, BAD_KEY);
    assertThat(describe(ConfigSteps.next(scene.scope())))
        .isEqualTo(Reasons.DISCOVERY_IMAGE_REFUSED);
    Scene created = new Scene().infraEnv(ISO, IGNITION);
    assertThat(ConfigSteps.next(scene.scope().withInfraEnv(created.infraEnv)))
        .isInstanceOf(BootLiveIso.class);
  }

  @org.junit.jupiter.api.Test
  void aHostWhoseHintsMatchNoDiskIsReportedOnceItsDataIsReady() {
    String why = "Agent a is not approved: no disk matches rootDeviceHints {deviceName: /dev/sdc}";
    Scene ready =
        new Scene()
            .infraEnv(ISO, IGNITION)
            .bootsIso(ISO)
            .reportedReady()
            .annotate(Names.NO_INSTALLATION_DISK_ANNOTATION, why);
    Outcome outcome = ((Report) ConfigSteps.next(ready.scope())).outcome();
    assertThat(outcome.ready()).isTrue();
    assertThat(outcome.hostTrouble()).isEqualTo(HostTrouble.noInstallationDisk(why));

    // Before the data is ready no host has booted on it: the steps go on as ever.
    Scene booting =
        new Scene().infraEnv(ISO, IGNITION).annotate(Names.NO_INSTALLATION_DISK_ANNOTATION, why);
    assertThat(ConfigSteps.next(booting.scope())).isInstanceOf(BootLiveIso.class);
    Scene withoutHints = new Scene().infraEnv(ISO, IGNITION).bootsIso(ISO).reportedReady();
    assertThat(((Report) ConfigSteps.next(withoutHints.scope())).outcome().hostTrouble()).isNull();
  }

  @org.junit.jupiter.api.Test
  void theReadyDataCarriesWhatTheAgentControllerFoundOfItsHostsValidations() {
    String why = "host host-0 (Agent a) fails assisted-service's validations since ...: NTP";
    Scene ready =
        new Scene()
            .infraEnv(ISO, IGNITION)
            .bootsIso(ISO)
            .reportedReady()
            .annotate(Names.HOST_VALIDATIONS_FAILING_ANNOTATION, why);
    Outcome outcome = ((Report) ConfigSteps.next(ready.scope())).outcome();
    assertThat(outcome.ready()).isTrue();
    assertThat(outcome.hostTrouble()).isEqualTo(HostTrouble.validationsFailing(why));
    Scene passing = new Scene().infraEnv(ISO, IGNITION).bootsIso(ISO).reportedReady();
    assertThat(((Report) ConfigSteps.next(passing.scope())).outcome().hostTrouble()).isNull();

    // No disk for the hints says more: the Agent is not even approved.
    Scene both = ready.annotate(Names.NO_INSTALLATION_DISK_ANNOTATION, "no disk");
    assertThat(((Report) ConfigSteps.next(both.scope())).outcome().hostTrouble())
        .isEqualTo(HostTrouble.noInstallationDisk("no disk"));
  }

  @org.junit.jupiter.api.Test
  void eachWaitNamesWhatItWaitsFor() {
    Scene scene = new Scene();
    scene.cluster = null;
    assertThat(((Report) ConfigSteps.next(scene.scope())).outcome().message())
        .isEqualTo("waiting for Cluster ocp1 to exist");
    scene = new Scene();
    scene.install = null;
    assertThat(((Report) ConfigSteps.next(scene.scope())).outcome().message())
        .isEqualTo("waiting for the control-plane provider to create AgentClusterInstall ocp1-cp");
  }

  @org.junit.jupiter.api.Test
  void eachWriteMovesTheScopePastItsStep() {
    Scene scene = new Scene().infraEnv(ISO, IGNITION);
    ConfigScope scope = scene.scope();
    assertThat(ConfigSteps.next(scope)).isInstanceOf(BootLiveIso.class);
    Metal3Machine booting = new Scene().bootsIso(ISO).metal3Machine;
    assertThat(ConfigSteps.next(scope.withMetal3Machine(booting).withDataSecret()))
        .isEqualTo(new Report(Outcome.ready(Names.dataSecret(scene.config))));
    Scene deleting = new Scene();
    deleting.machine.getMetadata().setDeletionTimestamp("2026-11-25T11:00:00Z");
    assertThat(ConfigSteps.next(deleting.scope())).isInstanceOf(ReattachHost.class);
    assertThat(describe(ConfigSteps.next(deleting.scope().withHostReattached())))
        .isEqualTo(Reasons.DELETING);
  }

  private static String describe(Step step) {
    if (step instanceof Report report) {
      return report.outcome().reason();
    }
    if (step instanceof CreateInfraEnv create) {
      return "CreateInfraEnv " + create.gate();
    }
    if (step instanceof BootLiveIso
        || step instanceof ConfigSteps.AdoptFromGoProvider
        || step instanceof FollowIso
        || step instanceof DownloadIgnition
        || step instanceof ReattachHost) {
      return step.getClass().getSimpleName();
    }
    throw new AssertionError(step);
  }
}
