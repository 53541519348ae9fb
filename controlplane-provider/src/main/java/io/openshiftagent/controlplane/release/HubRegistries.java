package io.openshiftagent.controlplane.release;

import io.openshiftagent.registry.RegistriesConf;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;

/**
 * What the hub says about registries, for every cluster: the certificate authorities it trusts (the
 * PEM file {@value #CA_BUNDLE_ENV} names; on OpenShift, the injected trusted CA bundle mounted from
 * a ConfigMap) and its mirrors (the containers-registries.conf(5) file {@value
 * #REGISTRIES_CONF_ENV} names, the variable the containers tools read; on OpenShift, the file its
 * ImageDigestMirrorSets and ImageTagMirrorSets make on every node). Both read when a registry is
 * asked, so a file the kubelet updates in place is used without a restart; a file that is not there
 * (an optional ConfigMap volume without the key) is none.
 */
public final class HubRegistries {
  /** The provider's environment variable naming the trusted CA bundle. */
  public static final String CA_BUNDLE_ENV = "REGISTRY_CA_BUNDLE_FILE";

  /** The provider's environment variable naming the hub's registries.conf. */
  public static final String REGISTRIES_CONF_ENV = "CONTAINERS_REGISTRIES_CONF";

  private static final HubRegistries NONE = new HubRegistries(null, null);

  private final Path caBundle;
  private final Path registriesConf;

  private HubRegistries(Path caBundle, Path registriesConf) {
    this.caBundle = caBundle;
    this.registriesConf = registriesConf;
  }

  /** The files {@code environment} names, or none. */
  public static HubRegistries fromEnvironment(Map<String, String> environment) {
    Path ca = file(environment, CA_BUNDLE_ENV);
    Path conf = file(environment, REGISTRIES_CONF_ENV);
    return ca == null && conf == null ? NONE : new HubRegistries(ca, conf);
  }

  private static Path file(Map<String, String> environment, String variable) {
    String value = environment.getOrDefault(variable, "").trim();
    return value.isEmpty() ? null : Path.of(value);
  }

  public static HubRegistries none() {
    return NONE;
  }

  /**
   * The CA bundle's PEM text; empty when no file is named or it does not exist.
   *
   * @throws IllegalArgumentException when it exists and cannot be read
   */
  Optional<String> caBundle() {
    return read(caBundle);
  }

  /**
   * The hub's mirrors; none when no file is named or it does not exist.
   *
   * @throws IllegalArgumentException when it cannot be read or parsed
   */
  RegistriesConf mirrors() {
    return read(registriesConf).map(RegistriesConf::parse).orElse(RegistriesConf.EMPTY);
  }

  private static Optional<String> read(Path file) {
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

  /** The CA bundle, as a condition names it. */
  String caBundleSource() {
    return caBundle == null ? "none" : CA_BUNDLE_ENV + " " + caBundle;
  }

  /** The registries.conf, as a condition names it. */
  String mirrorsSource() {
    return registriesConf == null ? "none" : REGISTRIES_CONF_ENV + " " + registriesConf;
  }
}
