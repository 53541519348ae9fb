package io.openshiftagent.assisted;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.openshiftagent.assisted.AssistedServiceException.Reason;

/**
 * A downloaded discovery ignition. It embeds credentials for the discovery agent, so {@link
 * #toString()} shows only its Ignition version and size, never its content.
 */
public final class DiscoveryIgnition {

  /** Strict JSON: no comments, unquoted names or text after the document. */
  private static final ObjectMapper JSON =
      new ObjectMapper().enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);

  private final String json;
  private final String ignitionVersion;

  DiscoveryIgnition(String json, String ignitionVersion) {
    this.json = json;
    this.ignitionVersion = ignitionVersion;
  }

  /**
   * The body assisted-service served {@code from}, if it is an Ignition config: JSON with a string
   * {@code ignition.version}.
   */
  static DiscoveryIgnition parse(String body, IgnitionLocation from)
      throws AssistedServiceException {
    String version = null;
    try {
      JsonNode versionField = JSON.readTree(body).path("ignition").path("version");
      if (versionField.isTextual() && !versionField.asText().isBlank()) {
        version = versionField.asText();
      }
    } catch (JacksonException notJson) {
      // Reported below, without the parser's message: it may quote the body.
    }
    if (version == null) {
      throw new AssistedServiceException(
          Reason.BAD_RESPONSE,
          CallFailures.where(from)
              + " answered with a body that is not an Ignition config (JSON with"
              + " ignition.version)");
    }
    return new DiscoveryIgnition(body, version);
  }

  /** The Ignition config, exactly as assisted-service served it. */
  public String json() {
    return json;
  }

  /** {@code ignition.version}, for example {@code 3.1.0}. */
  public String ignitionVersion() {
    return ignitionVersion;
  }

  @Override
  public String toString() {
    return "DiscoveryIgnition[version " + ignitionVersion + ", " + json.length() + " chars]";
  }
}
