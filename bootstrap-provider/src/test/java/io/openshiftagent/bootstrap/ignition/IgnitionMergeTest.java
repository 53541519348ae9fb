package io.openshiftagent.bootstrap.ignition;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.openshiftagent.api.bootstrap.v1alpha2.NodeRegistrationOptions;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class IgnitionMergeTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String DISCOVERY =
      "{\"ignition\":{\"version\":\"3.1.0\"},"
          + "\"passwd\":{\"users\":[{\"name\":\"core\"}]},"
          + "\"storage\":{\"files\":["
          + "{\"path\":\"/usr/local/bin/agent\",\"contents\":{\"source\":\"data:,agent\"}},"
          + "{\"path\":\"/etc/hostname\",\"contents\":{\"source\":\"data:,old\"}}]},"
          + "\"systemd\":{\"units\":[{\"name\":\"agent.service\",\"enabled\":true}]}}";

  private static NodeRegistrationOptions registration(
      String name, String providerID, String... labels) {
    NodeRegistrationOptions options = new NodeRegistrationOptions();
    options.name = name;
    options.providerID = providerID;
    options.kubeletExtraLabels = labels.length == 0 ? null : List.of(labels);
    return options;
  }

  private static Map<String, String> files(String ignition) throws Exception {
    Map<String, String> files = new HashMap<>();
    for (JsonNode file : JSON.readTree(ignition).path("storage").path("files")) {
      String source = file.path("contents").path("source").asText();
      String content =
          source.contains("base64,")
              ? new String(
                  Base64.getDecoder().decode(source.substring(source.indexOf("base64,") + 7)),
                  StandardCharsets.UTF_8)
              : source;
      files.put(file.path("path").asText(), content);
    }
    return files;
  }

  @Test
  void aStaticNameBecomesTheHostnameAndNothingElseReachesDiscovery() throws Exception {
    String merged =
        IgnitionMerge.merge(
            DISCOVERY, registration("worker-0", "metal3://ns/host/m", "zone=a", "rack=r1"));

    Map<String, String> files = files(merged);
    assertThat(files).containsEntry("/etc/hostname", "worker-0\n");
    // Labels and the provider ID must reach the installed system, whose /etc is a new one: they
    // are in the install ignition, not here.
    assertThat(files).doesNotContainKey("/etc/kubernetes/kubelet-env");
    assertThat(JSON.readTree(merged).path("systemd").path("units")).hasSize(1);
  }

  @Test
  void keepsEverythingElseAndReplacesOnlyFilesAtTheSamePath() throws Exception {
    String merged = IgnitionMerge.merge(DISCOVERY, registration("worker-0", null));

    JsonNode root = JSON.readTree(merged);
    assertThat(root.path("ignition").path("version").asText()).isEqualTo("3.1.0");
    assertThat(root.path("passwd").path("users").get(0).path("name").asText()).isEqualTo("core");
    assertThat(root.path("systemd").path("units").get(0).path("name").asText())
        .isEqualTo("agent.service");
    Map<String, String> files = files(merged);
    assertThat(files).containsEntry("/usr/local/bin/agent", "data:,agent");
    assertThat(files).containsEntry("/etc/hostname", "worker-0\n");
    // The old /etc/hostname replaced, nothing added beside it.
    assertThat(root.path("storage").path("files").findValuesAsText("path"))
        .containsExactly("/usr/local/bin/agent", "/etc/hostname");
  }

  @Test
  void aNameReferencingHostMetadataIsSetByTheHostFromItsConfigDrive() throws Exception {
    String merged =
        IgnitionMerge.merge(
            DISCOVERY,
            registration("$METADATA_NAME", "openstack://$METADATA_UUID", "uuid=${METADATA_UUID}"));

    Map<String, String> files = files(merged);
    assertThat(files.get("/etc/hostname")).isEqualTo("data:,old");
    assertThat(files).doesNotContainKey("/etc/kubernetes/kubelet-env");
    assertThat(files.get(NodeRegistrationUnits.REGISTRATION_SCRIPT))
        .contains("name=\"$(meta METADATA_NAME)\"", "hostnamectl set-hostname \"$name\"")
        .doesNotContain("KUBELET_PROVIDERID", "CUSTOM_KUBELET_LABELS");
    assertThat(files).containsKey(NodeRegistrationUnits.CONFIGDRIVE_SCRIPT);
    JsonNode units = JSON.readTree(merged).path("systemd").path("units");
    assertThat(units).hasSize(3);
    assertThat(units.findValuesAsText("name"))
        .containsExactly(
            "agent.service",
            NodeRegistrationUnits.CONFIGDRIVE_UNIT,
            NodeRegistrationUnits.REGISTRATION_UNIT);
  }

  @Test
  void valuesAreSingleQuotedSoTheShellExpandsNothing() {
    assertThat(IgnitionMerge.quote("a'b $(x)")).isEqualTo("'a'\\''b $(x)'");
  }

  @Test
  void withoutRegistrationTheIgnitionIsUnchanged() {
    assertThat(IgnitionMerge.merge(DISCOVERY, null)).isEqualTo(DISCOVERY);
    assertThat(IgnitionMerge.merge(DISCOVERY, new NodeRegistrationOptions())).isEqualTo(DISCOVERY);
  }

  @Test
  void anIgnitionThatIsNotAJsonObjectIsRejected() {
    assertThatThrownBy(() -> IgnitionMerge.merge("[]", registration("a", null)))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> IgnitionMerge.merge("{oops", registration("a", null)))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
