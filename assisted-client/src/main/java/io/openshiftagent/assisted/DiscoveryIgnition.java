package io.openshiftagent.assisted;

/**
 * A downloaded discovery ignition. It embeds credentials for the discovery agent, so {@link
 * #toString()} shows only its Ignition version and size, never its content.
 */
public final class DiscoveryIgnition {

  private final String json;
  private final String ignitionVersion;

  DiscoveryIgnition(String json, String ignitionVersion) {
    this.json = json;
    this.ignitionVersion = ignitionVersion;
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
