package io.openshiftagent.bootstrap;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.javaoperatorsdk.operator.Operator;
import io.openshiftagent.api.bootstrap.v1alpha2.BootMode;
import io.openshiftagent.assisted.DiscoveryIgnitionClient;
import io.openshiftagent.bootstrap.ignition.AssistedServiceIgnitionSource;
import io.openshiftagent.bootstrap.ignition.CaBundleSource;
import io.openshiftagent.bootstrap.ignition.DiscoveryIgnitionSource;
import io.openshiftagent.provider.runtime.ControllerScope;
import io.openshiftagent.provider.runtime.ProviderRuntime;
import java.net.URI;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;

/** The bootstrap provider process: {@code java -jar bootstrap-provider.jar --help}. */
public final class BootstrapProviderMain implements ProviderRuntime.Provider {
  private final Map<String, String> environment;

  /**
   * @param environment the process environment, read for the settings --help lists (tests pass
   *     their own)
   */
  public BootstrapProviderMain(Map<String, String> environment) {
    this.environment = environment;
  }

  public static void main(String[] args) {
    ProviderRuntime.main(new BootstrapProviderMain(System.getenv()), args);
  }

  @Override
  public String command() {
    return "bootstrap-provider";
  }

  @Override
  public String description() {
    return """
        The openshift-agent Cluster API bootstrap provider: OpenshiftAssistedConfig -> assisted-service
        InfraEnv -> booted host -> approved Agent.

        Environment (docs/from-the-go-provider.md maps the Go provider's; its names are read too):
          DEFAULT_BOOT_MODE            LiveISO or DiskImage: how hosts of configs without spec.bootMode
                                       boot (default LiveISO; DiskImage is the Go provider's flow)
          ASSISTED_CA_BUNDLE_NAMESPACE, ASSISTED_CA_BUNDLE_NAME  where the CA bundle that signs
                                       assisted-service's certificate is (default
                                       assisted-installer/assisted-installer-ca when it exists, else
                                       the JVM's roots; both empty: the JVM's roots)
          ASSISTED_CA_BUNDLE_RESOURCE  secret or configmap (default secret)
          ASSISTED_CA_BUNDLE_KEY       key holding the PEM bundle (default ca.crt)
          ASSISTED_SERVICE_URL         reach assisted-service here instead of the host in the InfraEnv's
                                       URLs, e.g. http://assisted-service.multicluster-engine.svc:8090
          USE_INTERNAL_IMAGE_URL=true  the same, at http://<ASSISTED_SERVICE_NAME>.<ASSISTED_INSTALLER_
                                       NAMESPACE>.svc.cluster.local:8090 (defaults assisted-service and the
                                       InfraEnv's namespace), unless ASSISTED_SERVICE_URL is set""";
  }

  @Override
  public String defaultLeaseName() {
    return "bootstrap-openshift-agent-leader";
  }

  @Override
  public void register(Operator operator, KubernetesClient client, ControllerScope scope) {
    BootstrapProvider.register(
        operator,
        client,
        discoveryIgnitionSource(client, environment),
        defaultBootMode(environment),
        Objects.requireNonNullElse(environment.get("HOSTNAME"), command()),
        scope);
  }

  /** DEFAULT_BOOT_MODE: the boot mode of configs without spec.bootMode. */
  public static BootMode defaultBootMode(Map<String, String> environment) {
    String name = environment.getOrDefault("DEFAULT_BOOT_MODE", "");
    if (name.isBlank()) {
      return BootMode.LIVE_ISO;
    }
    return BootMode.named(name.strip())
        .orElseThrow(
            () ->
                new IllegalArgumentException(
                    "DEFAULT_BOOT_MODE must be LiveISO or DiskImage, not '" + name + "'"));
  }

  /**
   * The DiskImage download from assisted-service's REST API, configured by the environment
   * variables the description lists (how to reach and trust the service).
   */
  public static DiscoveryIgnitionSource discoveryIgnitionSource(
      KubernetesClient client, Map<String, String> environment) {
    return new AssistedServiceIgnitionSource(
        client,
        CaBundleSource.fromEnvironment(environment),
        DiscoveryIgnitionClient.Settings.defaults(),
        serviceRoot(environment));
  }

  /**
   * Where assisted-service is reached for an InfraEnv's namespace: ASSISTED_SERVICE_URL, else (the
   * Go provider's way) its in-cluster Service when USE_INTERNAL_IMAGE_URL is true, else the host in
   * the InfraEnv's URLs.
   */
  static Function<String, Optional<URI>> serviceRoot(Map<String, String> environment) {
    String serviceUrl = environment.getOrDefault("ASSISTED_SERVICE_URL", "");
    if (!serviceUrl.isBlank()) {
      URI root = URI.create(serviceUrl.strip());
      return namespace -> Optional.of(root);
    }
    if (!Boolean.parseBoolean(environment.getOrDefault("USE_INTERNAL_IMAGE_URL", "false"))) {
      return namespace -> Optional.empty();
    }
    String service = environment.getOrDefault("ASSISTED_SERVICE_NAME", "");
    String serviceName = service.isBlank() ? "assisted-service" : service.strip();
    String installerNamespace = environment.getOrDefault("ASSISTED_INSTALLER_NAMESPACE", "");
    return namespace ->
        Optional.of(
            URI.create(
                "http://"
                    + serviceName
                    + "."
                    + (installerNamespace.isBlank() ? namespace : installerNamespace.strip())
                    + ".svc.cluster.local:8090"));
  }
}
