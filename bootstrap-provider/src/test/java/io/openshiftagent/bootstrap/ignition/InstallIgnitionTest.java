package io.openshiftagent.bootstrap.ignition;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.openshiftagent.api.bootstrap.v1alpha2.NodeRegistrationOptions;
import io.openshiftagent.api.bootstrap.v1alpha2.OpenshiftAssistedConfigSpec;
import io.openshiftagent.bootstrap.identity.HostMetadata;
import io.openshiftagent.bootstrap.identity.NodeIdentity;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class InstallIgnitionTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  /** A node whose Agent fields say it all: nothing for the install ignition to add. */
  private static final NodeIdentity NO_REGISTRATION =
      NodeIdentity.of(null, "worker-0", Optional.empty());

  private static Map<String, String> files(JsonNode root) {
    Map<String, String> files = new HashMap<>();
    for (JsonNode file : root.path("storage").path("files")) {
      String source = file.path("contents").path("source").asText();
      files.put(
          file.path("path").asText(),
          source.contains("base64,")
              ? new String(
                  Base64.getDecoder().decode(source.substring(source.indexOf("base64,") + 7)),
                  StandardCharsets.UTF_8)
              : source);
    }
    return files;
  }

  private static Map<String, String> units(JsonNode root) {
    Map<String, String> units = new HashMap<>();
    for (JsonNode unit : root.path("systemd").path("units")) {
      units.put(unit.path("name").asText(), unit.path("contents").asText());
    }
    return units;
  }

  @Test
  void withoutCommandsTheUserOverrideIsUsedAsItIs() {
    OpenshiftAssistedConfigSpec spec = new OpenshiftAssistedConfigSpec();
    assertThat(InstallIgnition.build(spec, null, NO_REGISTRATION)).isNull();
    assertThat(InstallIgnition.build(spec, "{\"a\":1}", NO_REGISTRATION)).isEqualTo("{\"a\":1}");
  }

  @Test
  void bootstrapCommandsBecomeRunOnceUnitsAroundKubelet() throws Exception {
    OpenshiftAssistedConfigSpec spec = new OpenshiftAssistedConfigSpec();
    spec.preBootstrapCommands = List.of("echo pre > /tmp/pre");
    spec.postBootstrapCommands = List.of("echo post");
    spec.bootstrapCommandSentinelDir = "/var/lib/sentinels";

    JsonNode root = JSON.readTree(InstallIgnition.build(spec, null, NO_REGISTRATION));

    assertThat(root.path("ignition").path("version").asText()).isEqualTo("3.1.0");
    Map<String, String> files = files(root);
    assertThat(files.get(InstallIgnition.PRE_SCRIPT))
        .startsWith("#!/bin/bash\nset -euo pipefail\n")
        .contains("echo pre > /tmp/pre\n")
        .endsWith("touch '/var/lib/sentinels/pre-bootstrap.done'\n");
    assertThat(files.get(InstallIgnition.POST_SCRIPT))
        .contains("kubeconfig='/var/lib/kubelet/kubeconfig'")
        .contains("get --raw /readyz")
        .contains("echo post\n")
        .endsWith("touch '/var/lib/sentinels/post-bootstrap.done'\n");
    Map<String, String> units = units(root);
    assertThat(units.get(InstallIgnition.PRE_UNIT))
        .contains("Before=kubelet.service")
        .contains("ConditionPathExists=!/var/lib/sentinels/pre-bootstrap.done")
        .contains("ExecStart=" + InstallIgnition.PRE_SCRIPT);
    assertThat(units.get(InstallIgnition.POST_UNIT))
        .contains("After=kubelet.service")
        .contains("ConditionPathExists=!/var/lib/sentinels/post-bootstrap.done");
  }

  @Test
  void theUserOverrideIsMergedAndWinsAtTheSamePathOrName() throws Exception {
    OpenshiftAssistedConfigSpec spec = new OpenshiftAssistedConfigSpec();
    spec.preBootstrapCommands = List.of("true");
    String user =
        "{\"ignition\":{\"version\":\"3.2.0\"},"
            + "\"passwd\":{\"users\":[{\"name\":\"core\",\"sshAuthorizedKeys\":[\"k\"]}]},"
            + "\"storage\":{\"files\":[{\"path\":\"/etc/motd\",\"contents\":{\"source\":\"data:,hi\"}}]},"
            + "\"systemd\":{\"units\":[{\"name\":\""
            + InstallIgnition.PRE_UNIT
            + "\",\"mask\":true}]}}";

    JsonNode root = JSON.readTree(InstallIgnition.build(spec, user, NO_REGISTRATION));

    assertThat(root.path("ignition").path("version").asText()).isEqualTo("3.2.0");
    assertThat(root.path("passwd").path("users").get(0).path("name").asText()).isEqualTo("core");
    assertThat(files(root)).containsKeys(InstallIgnition.PRE_SCRIPT, "/etc/motd");
    assertThat(root.path("systemd").path("units")).hasSize(1);
    assertThat(root.path("systemd").path("units").get(0).path("mask").asBoolean()).isTrue();
  }

  @Test
  void anIgnitionLargerThanAnAgentHoldsIsNamedWithItsSize() {
    String fits = "x".repeat(InstallIgnition.MAX_BYTES);
    String tooLarge = "\u00e9".repeat(InstallIgnition.MAX_BYTES / 2 + 1); // two bytes each

    assertThat(InstallIgnition.tooLargeForAnAgent(fits)).isEmpty();
    assertThat(InstallIgnition.tooLargeForAnAgent(null)).isEmpty();
    assertThat(InstallIgnition.tooLargeForAnAgent(tooLarge))
        .hasValueSatisfying(
            why ->
                assertThat(why)
                    .contains("1048578 bytes", "at most 1048576", "preBootstrapCommands"));
  }

  @Test
  void aHostOutsideMetal3ResolvesItsRegistrationFromItsConfigDrive() throws Exception {
    OpenshiftAssistedConfigSpec spec = new OpenshiftAssistedConfigSpec();
    spec.preBootstrapCommands = List.of("cat /etc/metadata_env");
    NodeRegistrationOptions registration = new NodeRegistrationOptions();
    registration.name = "$METADATA_NAME";
    registration.providerID = "openstack://${METADATA_UUID}";
    registration.kubeletExtraLabels = List.of("zone=a", "uuid=$METADATA_UUID");

    JsonNode root =
        JSON.readTree(
            InstallIgnition.build(
                spec, null, NodeIdentity.of(registration, "w-0", Optional.empty())));

    Map<String, String> files = files(root);
    assertThat(files.get(NodeRegistrationUnits.CONFIGDRIVE_SCRIPT))
        .contains("mount -o ro -L config-2");
    assertThat(files.get(NodeRegistrationUnits.REGISTRATION_SCRIPT))
        .contains("name=\"$(meta METADATA_NAME)\"")
        .contains("labels='uuid='\"$(meta METADATA_UUID)\"")
        .contains("provider_id='openstack://'\"$(meta METADATA_UUID)\"")
        // the static label travels on the Agent, not through the host
        .doesNotContain("zone=a");
    Map<String, String> units = units(root);
    assertThat(units.get(NodeRegistrationUnits.REGISTRATION_UNIT))
        .contains("Wants=" + NodeRegistrationUnits.CONFIGDRIVE_UNIT, "Before=kubelet.service");
    // As in the Go provider, the pre-bootstrap commands run after the metadata is there.
    assertThat(units.get(InstallIgnition.PRE_UNIT))
        .contains(
            "After=network-online.target "
                + NodeRegistrationUnits.CONFIGDRIVE_UNIT
                + " "
                + NodeRegistrationUnits.REGISTRATION_UNIT);
  }

  @Test
  void aProviderIdResolvedOnTheHubIsWrittenAsItIsWithoutTheConfigDrive() throws Exception {
    NodeRegistrationOptions registration = new NodeRegistrationOptions();
    registration.providerID = "metal3://$METADATA_METAL3_NAMESPACE/$METADATA_METAL3_NAME";
    NodeIdentity identity =
        NodeIdentity.of(
            registration, "w-0", Optional.of(HostMetadata.metal3("u", "ns", "host-0", null)));

    JsonNode root =
        JSON.readTree(InstallIgnition.build(new OpenshiftAssistedConfigSpec(), null, identity));

    assertThat(files(root)).doesNotContainKey(NodeRegistrationUnits.CONFIGDRIVE_SCRIPT);
    assertThat(files(root).get(NodeRegistrationUnits.REGISTRATION_SCRIPT))
        .contains("provider_id='metal3://ns/host-0'")
        .doesNotContain("name=");
  }
}
