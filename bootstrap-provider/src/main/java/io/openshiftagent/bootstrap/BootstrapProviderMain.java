package io.openshiftagent.bootstrap;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.javaoperatorsdk.operator.Operator;
import io.openshiftagent.assisted.DiscoveryIgnitionClient;
import io.openshiftagent.bootstrap.ignition.AssistedServiceIgnitionSource;
import io.openshiftagent.bootstrap.ignition.CaBundleSource;
import io.openshiftagent.bootstrap.ignition.DiscoveryIgnitionSource;
import io.openshiftagent.provider.runtime.ControllerScope;
import io.openshiftagent.provider.runtime.ProviderRuntime;
import java.net.URI;
import java.util.Map;
import java.util.Objects;

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

        Environment (DiskImage boot mode; the Go provider's names):
          ASSISTED_CA_BUNDLE_NAMESPACE, ASSISTED_CA_BUNDLE_NAME  where the CA bundle that signs
                                       assisted-service's certificate is (default: none, JVM roots only)
          ASSISTED_CA_BUNDLE_RESOURCE  secret or configmap (default secret)
          ASSISTED_CA_BUNDLE_KEY       key holding the PEM bundle (default ca.crt)
          ASSISTED_SERVICE_URL         reach assisted-service here instead of the host in the InfraEnv's
                                       URLs, e.g. http://assisted-service.multicluster-engine.svc:8090""";
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
        Objects.requireNonNullElse(environment.get("HOSTNAME"), command()),
        scope);
  }

  /**
   * The DiskImage download from assisted-service's REST API, configured by the environment
   * variables the description lists (how to reach and trust the service).
   */
  public static DiscoveryIgnitionSource discoveryIgnitionSource(
      KubernetesClient client, Map<String, String> environment) {
    DiscoveryIgnitionClient.Settings settings = DiscoveryIgnitionClient.Settings.defaults();
    String serviceUrl = environment.getOrDefault("ASSISTED_SERVICE_URL", "");
    if (!serviceUrl.isBlank()) {
      settings = settings.withServiceRootOverride(URI.create(serviceUrl));
    }
    return new AssistedServiceIgnitionSource(
        client, CaBundleSource.fromEnvironment(environment), settings);
  }
}
