package io.openshiftagent.bootstrap.ignition;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.openshiftagent.api.bootstrap.v1alpha2.OpenshiftAssistedConfigSpec;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class InstallIgnitionTest {
  private static final ObjectMapper JSON = new ObjectMapper();

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
    assertThat(InstallIgnition.build(spec, null)).isNull();
    assertThat(InstallIgnition.build(spec, "{\"a\":1}")).isEqualTo("{\"a\":1}");
  }

  @Test
  void bootstrapCommandsBecomeRunOnceUnitsAroundKubelet() throws Exception {
    OpenshiftAssistedConfigSpec spec = new OpenshiftAssistedConfigSpec();
    spec.preBootstrapCommands = List.of("echo pre > /tmp/pre");
    spec.postBootstrapCommands = List.of("echo post");
    spec.bootstrapCommandSentinelDir = "/var/lib/sentinels";

    JsonNode root = JSON.readTree(InstallIgnition.build(spec, null));

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

    JsonNode root = JSON.readTree(InstallIgnition.build(spec, user));

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
}
