package com.google.cloud.tools.jib.http;

import com.google.api.client.http.apache.v2.ApacheHttpTransport;
import java.util.function.Consumer;
import javax.net.ssl.SSLContext;
import org.apache.http.conn.ssl.NoopHostnameVerifier;
import org.apache.http.conn.ssl.SSLConnectionSocketFactory;

/**
 * jib-core's HTTP client with a TLS context of our choosing and without its own retries.
 *
 * <p>Why this class lives in jib's package: jib-core's public constructor trusts only the JVM's
 * default TLS context and retries every I/O error for up to 15 minutes (exponential back-off). The
 * registry module needs a trust set per lookup (the hub's CA bundle, a cluster's mirror CA) and a
 * lookup that fails within its timeout, so that the provider's own back-off applies and a reconcile
 * thread is never held for minutes. jib-core has the constructor that takes transports and a retry
 * switch, package-private; this is its only use. The real-registry tests in this module exercise
 * it, so a jib-core version without it fails the build, not production.
 */
public final class PerLookupHttpClients {
  private PerLookupHttpClients() {}

  /**
   * A client that verifies certificates against {@code tls} (or, for an insecure mirror, falls back
   * to unverified TLS and then to plain HTTP, as containers do for {@code insecure = true}).
   */
  public static FailoverHttpClient create(
      SSLContext tls, boolean insecure, Consumer<com.google.cloud.tools.jib.api.LogEvent> logger) {
    return new FailoverHttpClient(
        insecure,
        false,
        logger,
        () ->
            new ApacheHttpTransport(
                ApacheHttpTransport.newDefaultHttpClientBuilder()
                    .setSSLSocketFactory(new SSLConnectionSocketFactory(tls))
                    .build()),
        () ->
            new ApacheHttpTransport(
                ApacheHttpTransport.newDefaultHttpClientBuilder()
                    .setSSLSocketFactory(
                        new SSLConnectionSocketFactory(trustAll(), NoopHostnameVerifier.INSTANCE))
                    .build()),
        false);
  }

  private static SSLContext trustAll() {
    try {
      return com.google.api.client.util.SslUtils.trustAllSSLContext();
    } catch (java.security.GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
  }
}
