package io.openshiftagent.bootstrap;

import static io.openshiftagent.bootstrap.BootstrapFlowTest.approved;
import static io.openshiftagent.bootstrap.BootstrapFlowTest.eventReasons;
import static io.openshiftagent.provider.testing.TestWorld.await;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.javaoperatorsdk.operator.Operator;
import io.openshiftagent.api.bootstrap.v1alpha2.OpenshiftAssistedConfig;
import io.openshiftagent.api.bootstrap.v1alpha2.OpenshiftAssistedConfigSpec;
import io.openshiftagent.api.common.Conditions;
import io.openshiftagent.api.common.LocalObjectReference;
import io.openshiftagent.api.external.assisted.Agent;
import io.openshiftagent.api.external.metal3.BareMetalHost;
import io.openshiftagent.bootstrap.names.Names;
import io.openshiftagent.bootstrap.names.Reasons;
import io.openshiftagent.provider.testing.TestWorld;
import io.openshiftagent.testsupport.KubeApiServerEnvironment;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A BareMetalHost's rootDeviceHints choose its Agent's installation disk, with the bootstrap
 * provider running in this JVM against the real API server and the test playing Cluster API, Metal3
 * and assisted-service (whose Agents report the host's disks).
 */
class RootDeviceHintsFlowTest {
  static final String SDA = "/dev/disk/by-id/wwn-0x5002538e40a1b2c3";
  static final String SDB = "/dev/disk/by-id/wwn-0x5000c500d1e2f3a4";
  static final String NVME = "/dev/disk/by-id/nvme-eui.01000000000000005cd2e4a1b2c3d4e5";

  private static KubeApiServerEnvironment env;
  private static Operator operator;

  @BeforeAll
  static void startOperator() {
    env = KubeApiServerEnvironment.shared();
    operator = BootstrapFlowTest.startOperator(env, new CopyOnWriteArrayList<>());
  }

  @AfterAll
  static void stopOperator() {
    operator.stop();
  }

  @Test
  void theHintsChooseTheDiskInTheApprovingPatchOverWhatTheAgentSaid() {
    TestWorld world = Fixtures.readyWorld(env, "hints-match", "insufficient");
    world.providers.host("ocp1-w-0", false, spec());
    hints("bmh-ocp1-w-0", world, Map.of("rotational", false, "minSizeGigabytes", 900));
    bootAndRegister(world, "ocp1-w-0", "agent-w-0");
    world.assisted.reportDisks("agent-w-0", disks());

    Agent agent = await("approved Agent", () -> approved(world.agent("agent-w-0")));
    // The test's assisted-service registered it with another disk: as with BMAC, the hints win.
    assertThat(agent.getSpec().installationDiskID).isEqualTo(NVME);
    assertThat(Conditions.isTrue(world.config("ocp1-w-0").getStatus().conditions, Reasons.READY))
        .isTrue();
    assertThat(condition(world, "ocp1-w-0", Reasons.INSTALLATION_DISK_FOUND)).isEmpty();
    assertThat(eventReasons(world)).isEmpty();
  }

  @Test
  void hintsMatchingNoDiskHoldTheApprovalAndSaySoOnTheConfigUntilFixed() {
    TestWorld world = Fixtures.readyWorld(env, "hints-none", "insufficient");
    world.providers.host("ocp1-w-0", false, spec());
    hints("bmh-ocp1-w-0", world, Map.of("deviceName", "/dev/sdc"));
    bootAndRegister(world, "ocp1-w-0", "agent-w-0");
    world.assisted.reportDisks("agent-w-0", disks());

    Condition notReady =
        await(
            "Ready=False NoDiskMatchesRootDeviceHints",
            () ->
                condition(world, "ocp1-w-0", Reasons.READY)
                    .filter(c -> Reasons.NO_DISK_MATCHES_ROOT_DEVICE_HINTS.equals(c.getReason()))
                    .orElse(null));
    assertThat(notReady.getStatus()).isEqualTo("False");
    assertThat(notReady.getMessage())
        .startsWith(
            "Agent agent-w-0 is not approved: no disk matches rootDeviceHints {deviceName:"
                + " /dev/sdc}; the host's disks: /dev/sda (SSD, 480 GB, model: SAMSUNG MZ7LH480")
        .contains("/dev/sdb (HDD, 2000 GB", "/dev/nvme0n1 (SSD, 960 GB")
        .endsWith(
            "(BareMetalHost "
                + world.ns
                + "/bmh-ocp1-w-0); it is approved once a disk matches its"
                + " spec.rootDeviceHints");
    assertThat(condition(world, "ocp1-w-0", Reasons.INSTALLATION_DISK_FOUND).get().getStatus())
        .isEqualTo("False");
    OpenshiftAssistedConfig config = world.config("ocp1-w-0");
    assertThat(Conditions.isTrue(config.getStatus().conditions, Reasons.DATA_SECRET_AVAILABLE))
        .isTrue();
    assertThat(config.getStatus().initialization.dataSecretCreated).isTrue();
    assertThat(world.agent("agent-w-0").getSpec().approved).isFalse();

    // The discovery agent reports its inventory again: nothing new to say (one Event in all).
    world.assisted.reportDisks("agent-w-0", disks());

    // The user fixes the hints: the Agent is approved on that disk, and the config says so.
    hints("bmh-ocp1-w-0", world, Map.of("deviceName", "/dev/sdb"));
    Agent agent = await("approved Agent", () -> approved(world.agent("agent-w-0")));
    assertThat(agent.getSpec().installationDiskID).isEqualTo(SDB);
    Condition found =
        await(
            "InstallationDiskFound=True",
            () ->
                condition(world, "ocp1-w-0", Reasons.INSTALLATION_DISK_FOUND)
                    .filter(c -> "True".equals(c.getStatus()))
                    .orElse(null));
    assertThat(found.getReason()).isEqualTo(Reasons.ROOT_DEVICE_HINTS_MATCHED);
    assertThat(Conditions.isTrue(world.config("ocp1-w-0").getStatus().conditions, Reasons.READY))
        .isTrue();
    assertThat(world.config("ocp1-w-0").getMetadata().getAnnotations())
        .doesNotContainKey(Names.NO_INSTALLATION_DISK_ANNOTATION);
    assertThat(eventReasons(world)).containsExactly(Reasons.NO_DISK_MATCHES_ROOT_DEVICE_HINTS);
    assertThat(world.config("ocp1-w-0").getMetadata().getAnnotations())
        .containsEntry(Names.APPROVED_AGENT_ANNOTATION, "agent-w-0");
  }

  private static OpenshiftAssistedConfigSpec spec() {
    OpenshiftAssistedConfigSpec spec = Fixtures.fullSpec();
    spec.cpuArchitecture = "x86_64";
    spec.pullSecretRef = new LocalObjectReference("my-pull-secret");
    return spec;
  }

  /** The user's hints on the host, as {@code kubectl patch bmh --type merge} sets them. */
  private static void hints(String host, TestWorld world, Map<String, Object> hints) {
    world
        .resource(BareMetalHost.class, host)
        .patch(
            PatchContext.of(PatchType.JSON_MERGE),
            Serialization.asJson(Map.of("spec", Map.of("rootDeviceHints", hints))));
  }

  /** The discovery image is made, the host boots it and its agent registers. */
  private static void bootAndRegister(TestWorld world, String config, String agent) {
    await("InfraEnv", () -> world.infraEnv(config));
    world.assisted.publishIso(config, "https://images.example.com/" + config + ".iso");
    await("bootstrap data", () -> world.get(Secret.class, config));
    world.assisted.registerAgent(config, agent);
  }

  private static Optional<Condition> condition(TestWorld world, String config, String type) {
    OpenshiftAssistedConfig read = world.config(config);
    return read == null || read.getStatus() == null
        ? Optional.empty()
        : Conditions.find(read.getStatus().conditions, type);
  }

  /** A server's disks: an SSD, a larger HDD, an NVMe SSD, and its virtual CD. */
  static List<Map<String, Object>> disks() {
    return List.of(
        disk(SDA, "sda", "SSD", 480_103_981_056L, "SAMSUNG MZ7LH480", "0:0:0:0", true),
        disk(SDB, "sdb", "HDD", 2_000_398_934_016L, "ST2000NM000A-2J21", "1:0:0:0", true),
        disk(NVME, "nvme0n1", "SSD", 960_197_124_096L, "Dell Ent NVMe P5600", "", true),
        disk("/dev/sr0", "sr0", "ODD", 1_073_741_824L, "Virtual CD", "2:0:0:0", false));
  }

  private static Map<String, Object> disk(
      String id,
      String name,
      String driveType,
      long sizeBytes,
      String model,
      String hctl,
      boolean eligible) {
    return Map.of(
        "id", id,
        "name", name,
        "path", "/dev/" + name,
        "byPath", "/dev/disk/by-path/pci-0000:00:17.0-" + name,
        "driveType", driveType,
        "sizeBytes", sizeBytes,
        "model", model,
        "hctl", hctl,
        "smart", "{\"json_format_version\":[1,0]}",
        "installationEligibility",
            eligible
                ? Map.of("eligible", true, "notEligibleReasons", List.of())
                : Map.of(
                    "notEligibleReasons",
                    List.of("Drive type is ODD, it must be one of HDD, SSD, Multipath.")));
  }
}
