package io.openshiftagent.bootstrap.ignition;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.openshiftagent.assisted.AssistedServiceException;
import io.openshiftagent.assisted.DiscoveryIgnitionClient;
import java.util.Optional;

/**
 * The production {@link DiscoveryIgnitionSource}: assisted-service's REST API through the generated
 * client, trusting the configured CA bundle in addition to the JVM's roots. The client is rebuilt
 * only when the bundle changes.
 */
public final class AssistedServiceIgnitionSource implements DiscoveryIgnitionSource {
  private final KubernetesClient kubernetes;
  private final Optional<CaBundleSource> caBundle;
  private final DiscoveryIgnitionClient.Settings baseSettings;
  private DiscoveryIgnitionClient client;

  public AssistedServiceIgnitionSource(
      KubernetesClient kubernetes,
      Optional<CaBundleSource> caBundle,
      DiscoveryIgnitionClient.Settings baseSettings) {
    this.kubernetes = kubernetes;
    this.caBundle = caBundle;
    this.baseSettings = baseSettings;
  }

  @Override
  public String download(String discoveryIgnitionUrl, String eventsUrl) throws DownloadException {
    DiscoveryIgnitionClient current = clientFor(settings());
    try {
      return current.download(discoveryIgnitionUrl, eventsUrl).json();
    } catch (AssistedServiceException e) {
      // The exception's message is already redacted: no api_key, no query string.
      throw new DownloadException(e.conditionReason() + ": " + e.getMessage(), e.retryable(), null);
    }
  }

  private DiscoveryIgnitionClient.Settings settings() throws DownloadException {
    return caBundle.isEmpty()
        ? baseSettings
        : baseSettings.withCaBundle(caBundle.get().read(kubernetes));
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
