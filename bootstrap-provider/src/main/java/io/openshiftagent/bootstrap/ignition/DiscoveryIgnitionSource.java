package io.openshiftagent.bootstrap.ignition;

/**
 * Where the DiskImage boot mode gets the discovery ignition of an InfraEnv: assisted-service's REST
 * API ({@link AssistedServiceIgnitionSource} in production; tests may play it).
 */
@FunctionalInterface
public interface DiscoveryIgnitionSource {

  /**
   * Returns the discovery ignition (JSON) of an InfraEnv, given its namespace and what its status
   * publishes: the presigned {@code bootArtifacts.discoveryIgnitionURL} (newer assisted-service)
   * and/or the {@code debugInfo.eventsURL} (older ones); either may be null, not both.
   */
  String download(String namespace, String discoveryIgnitionUrl, String eventsUrl)
      throws DownloadException;

  /** Why a download failed; {@link #retryable()} tells whether trying again later may help. */
  final class DownloadException extends Exception {
    private final boolean retryable;

    public DownloadException(String message, boolean retryable, Throwable cause) {
      super(message, cause);
      this.retryable = retryable;
    }

    public boolean retryable() {
      return retryable;
    }
  }
}
