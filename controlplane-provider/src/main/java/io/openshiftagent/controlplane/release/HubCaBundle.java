package io.openshiftagent.controlplane.release;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;

/**
 * The hub's trusted CA bundle: the PEM file {@value #ENV} names (on OpenShift, the injected trusted
 * CA bundle mounted from a ConfigMap; the chart and {@code config/} mount one). Read when a
 * registry is asked, so a bundle the kubelet updates in place is used without a restart. A file
 * that is not there (an optional ConfigMap volume without the key) is no bundle.
 */
public final class HubCaBundle {
  /** The provider's environment variable naming the file. */
  public static final String ENV = "REGISTRY_CA_BUNDLE_FILE";

  private static final HubCaBundle NONE = new HubCaBundle(null);

  private final Path file;

  private HubCaBundle(Path file) {
    this.file = file;
  }

  /** The file {@value #ENV} names in {@code environment}, or none. */
  public static HubCaBundle fromEnvironment(Map<String, String> environment) {
    String value = environment.getOrDefault(ENV, "").trim();
    return value.isEmpty() ? NONE : new HubCaBundle(Path.of(value));
  }

  public static HubCaBundle none() {
    return NONE;
  }

  /**
   * The bundle's PEM text; empty when no file is named or it does not exist.
   *
   * @throws IllegalArgumentException when it exists and cannot be read
   */
  Optional<String> read() {
    if (file == null) {
      return Optional.empty();
    }
    try {
      return Optional.of(Files.readString(file));
    } catch (NoSuchFileException e) {
      return Optional.empty();
    } catch (IOException e) {
      throw new IllegalArgumentException("cannot be read: " + e);
    }
  }

  @Override
  public String toString() {
    return file == null ? "none" : ENV + " " + file;
  }
}
