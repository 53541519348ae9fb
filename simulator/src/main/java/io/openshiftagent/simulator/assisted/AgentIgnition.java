package io.openshiftagent.simulator.assisted;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What a discovery ignition tells the machine that boots it: the {@code agent.service} unit's
 * command line ({@code --url}, {@code --infra-env-id}, {@code --agent-version}, {@code --cacert})
 * and its {@code PULL_SECRET_TOKEN}, and the CA file the unit names
 * (internal/ignition/templates/agent.service and discovery.ign in assisted-service).
 *
 * @param token the agent's credential ({@code X-Secret-Key}); null without authentication
 * @param caPem the service's CA, or null when the ignition carries none
 */
public record AgentIgnition(
    URI serviceUrl, String infraEnvId, String agentVersion, String token, String caPem) {
  private static final Pattern URL = Pattern.compile("--url\\s+(\\S+)");
  private static final Pattern INFRA_ENV = Pattern.compile("--infra-env-id\\s+(\\S+)");
  private static final Pattern VERSION = Pattern.compile("--agent-version\\s+(\\S+)");
  private static final Pattern CA_FILE = Pattern.compile("--cacert\\s+(\\S+)");
  private static final Pattern TOKEN =
      Pattern.compile("(?m)^Environment=PULL_SECRET_TOKEN=(\\S+)$");

  /** The discovery agent an ignition starts, if it starts one. */
  public static Optional<AgentIgnition> parse(String ignition) {
    JsonNode root;
    try {
      root = Serialization.jsonMapper().readTree(ignition);
    } catch (Exception notJson) {
      return Optional.empty();
    }
    for (JsonNode unit : root.path("systemd").path("units")) {
      if (!"agent.service".equals(unit.path("name").asText())) {
        continue;
      }
      String contents = unit.path("contents").asText();
      Matcher url = URL.matcher(contents);
      Matcher infraEnv = INFRA_ENV.matcher(contents);
      if (!url.find() || !infraEnv.find()) {
        return Optional.empty();
      }
      Matcher version = VERSION.matcher(contents);
      Matcher token = TOKEN.matcher(contents);
      Matcher caFile = CA_FILE.matcher(contents);
      return Optional.of(
          new AgentIgnition(
              URI.create(url.group(1)),
              infraEnv.group(1),
              version.find() ? version.group(1) : "",
              token.find() ? token.group(1) : null,
              caFile.find() ? file(root, caFile.group(1)) : null));
    }
    return Optional.empty();
  }

  /** The contents of {@code path} among the ignition's files (a data URL). */
  private static String file(JsonNode root, String path) {
    for (JsonNode file : root.path("storage").path("files")) {
      if (path.equals(file.path("path").asText())) {
        String source = file.path("contents").path("source").asText();
        int comma = source.indexOf(',');
        String data = source.substring(comma + 1);
        return source.substring(0, comma).endsWith(";base64")
            ? new String(Base64.getDecoder().decode(data), StandardCharsets.UTF_8)
            : URLDecoder.decode(data, StandardCharsets.UTF_8);
      }
    }
    return null;
  }
}
