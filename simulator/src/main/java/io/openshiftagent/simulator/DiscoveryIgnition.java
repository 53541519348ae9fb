package io.openshiftagent.simulator;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The discovery ignition of an InfraEnv in the shape assisted-service renders it
 * (internal/ignition/templates/discovery.ign in openshift/assisted-service): Ignition 3.1.0, the
 * InfraEnv's SSH key for user {@code core}, the pull secret, and the {@code agent.service} unit
 * whose command line names the service and the InfraEnv the agent registers with. A host booted
 * with it finds its InfraEnv there.
 */
final class DiscoveryIgnition {
  private static final ObjectMapper JSON = Serialization.jsonMapper();
  private static final Pattern INFRA_ENV_ID = Pattern.compile("--infra-env-id\\s+(\\S+)");
  static final String AGENT_UNIT = "agent.service";

  private DiscoveryIgnition() {}

  /**
   * @param serviceUrl the assisted-service root the agent reports to
   * @param sshKey the InfraEnv's spec.sshAuthorizedKey, or null
   * @param pullSecret the .dockerconfigjson of the InfraEnv's pull secret, or null
   */
  static String render(String infraEnvId, String serviceUrl, String sshKey, String pullSecret) {
    Map<String, Object> agentUnit = new LinkedHashMap<>();
    agentUnit.put("name", AGENT_UNIT);
    agentUnit.put("enabled", true);
    agentUnit.put(
        "contents",
        String.join(
            "\n",
            "[Service]",
            "Type=simple",
            "Restart=always",
            "RestartSec=3",
            "ExecStart=/usr/local/bin/agent --url "
                + serviceUrl
                + " --infra-env-id "
                + infraEnvId
                + " --agent-version quay.io/edge-infrastructure/assisted-installer-agent:latest"
                + " --insecure=false",
            "",
            "[Unit]",
            "Wants=network-online.target",
            "After=network-online.target",
            "",
            "[Install]",
            "WantedBy=multi-user.target",
            ""));
    Map<String, Object> ignition = new LinkedHashMap<>();
    ignition.put("ignition", Map.of("version", "3.1.0"));
    ignition.put(
        "passwd",
        Map.of(
            "users",
            List.of(
                Map.of(
                    "name",
                    "core",
                    "passwordHash",
                    "!",
                    "sshAuthorizedKeys",
                    sshKey == null ? List.of() : List.of(sshKey),
                    "groups",
                    List.of("sudo")))));
    ignition.put("systemd", Map.of("units", List.of(agentUnit)));
    ignition.put(
        "storage",
        Map.of(
            "files",
            pullSecret == null
                ? List.of()
                : List.of(
                    Map.of(
                        "path",
                        "/root/.docker/config.json",
                        "mode",
                        420,
                        "overwrite",
                        true,
                        "user",
                        Map.of("name", "root"),
                        "contents",
                        Map.of(
                            "source",
                            "data:text/plain;charset=utf-8;base64,"
                                + Base64.getEncoder()
                                    .encodeToString(
                                        pullSecret.getBytes(StandardCharsets.UTF_8)))))));
    try {
      return JSON.writeValueAsString(ignition);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
  }

  /** The InfraEnv id on the agent's command line, if the ignition starts a discovery agent. */
  static Optional<String> infraEnvId(String ignition) {
    JsonNode units;
    try {
      units = JSON.readTree(ignition).path("systemd").path("units");
    } catch (JsonProcessingException notJson) {
      return Optional.empty();
    }
    for (JsonNode unit : units) {
      if (AGENT_UNIT.equals(unit.path("name").asText())) {
        Matcher id = INFRA_ENV_ID.matcher(unit.path("contents").asText());
        if (id.find()) {
          return Optional.of(id.group(1));
        }
      }
    }
    return Optional.empty();
  }
}
