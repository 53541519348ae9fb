package io.openshiftagent.bootstrap;

import java.net.URI;

/**
 * Where the DiskImage boot mode gets the discovery ignition of an InfraEnv: assisted-service's REST
 * API. The assisted-service client module implements it; the bootstrap provider only needs this.
 */
@FunctionalInterface
public interface DiscoveryIgnitionSource {

  /** Returns the discovery ignition (JSON) at {@code discoveryIgnitionUrl}. */
  String download(URI discoveryIgnitionUrl) throws DownloadException;

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

  /** The source used until the assisted-service client is wired in: every download fails. */
  static DiscoveryIgnitionSource unavailable() {
    return url -> {
      throw new DownloadException(
          "this build of the bootstrap provider has no assisted-service client; use bootMode LiveISO",
          false,
          null);
    };
  }
}
