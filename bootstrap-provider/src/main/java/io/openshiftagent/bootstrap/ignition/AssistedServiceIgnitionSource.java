package io.openshiftagent.bootstrap.ignition;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.micrometer.core.instrument.Metrics;
import io.openshiftagent.assisted.AssistedServiceException;
import io.openshiftagent.assisted.DiscoveryIgnitionClient;
import java.net.URI;
import java.util.Optional;
import java.util.function.Function;

/**
 * The production {@link DiscoveryIgnitionSource}: assisted-service's REST API through the generated
 * client, trusting the configured CA bundle in addition to the JVM's roots, at the configured
 * service root if any. The client is rebuilt only when these change.
 */
public final class AssistedServiceIgnitionSource implements DiscoveryIgnitionSource {
  private final KubernetesClient kubernetes;
  private final Optional<CaBundleSource> caBundle;
  private final DiscoveryIgnitionClient.Settings baseSettings;
  private final Function<String, Optional<URI>> serviceRoot;
  private DiscoveryIgnitionClient client;

  /**
   * @param serviceRoot where to reach assisted-service for an InfraEnv of a namespace, instead of
   *     the host in its URLs (empty: that host)
   */
  public AssistedServiceIgnitionSource(
      KubernetesClient kubernetes,
      Optional<CaBundleSource> caBundle,
      DiscoveryIgnitionClient.Settings baseSettings,
      Function<String, Optional<URI>> serviceRoot) {
    this.kubernetes = kubernetes;
    this.caBundle = caBundle;
    this.baseSettings = baseSettings;
    this.serviceRoot = serviceRoot;
  }

  @Override
  public String download(String namespace, String discoveryIgnitionUrl, String eventsUrl)
      throws DownloadException {
    DiscoveryIgnitionClient current = clientFor(settings(namespace));
    try {
      String json = current.download(discoveryIgnitionUrl, eventsUrl).json();
      counted(SUCCESS);
      return json;
    } catch (AssistedServiceException e) {
      counted(e.conditionReason());
      // The exception's message is already redacted: no api_key, no query string.
      throw new DownloadException(e.conditionReason() + ": " + e.getMessage(), e.retryable(), null);
    }
  }

  /** The counter of calls to assisted-service's REST API, by call and outcome. */
  public static final String CALLS = "openshift_agent_assisted_service_calls";

  public static final String SUCCESS = "Success";

  /** One discovery-ignition download: {@link #SUCCESS} or the condition reason of its failure. */
  private static void counted(String outcome) {
    Metrics.counter(CALLS, "call", "DiscoveryIgnition", "outcome", outcome).increment();
  }

  private DiscoveryIgnitionClient.Settings settings(String namespace) throws DownloadException {
    DiscoveryIgnitionClient.Settings settings =
        serviceRoot
            .apply(namespace)
            .map(baseSettings::withServiceRootOverride)
            .orElse(baseSettings);
    String bundle = caBundle.isEmpty() ? null : caBundle.get().read(kubernetes);
    return bundle == null ? settings : settings.withCaBundle(bundle);
  }

  private synchronized DiscoveryIgnitionClient clientFor(DiscoveryIgnitionClient.Settings wanted)
      throws DownloadException {
    if (client == null || !client.settings().equals(wanted)) {
      try {
        DiscoveryIgnitionClient replacement = DiscoveryIgnitionClient.create(wanted);
        if (client != null) {
          client.close();
        }
        client = replacement;
      } catch (AssistedServiceException e) {
        throw new DownloadException(e.conditionReason() + ": " + e.getMessage(), false, null);
      }
    }
    return client;
  }
}
