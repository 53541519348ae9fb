package io.openshiftagent.provider.runtime;

import com.sun.net.httpserver.Headers;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsParameters;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.openshiftagent.provider.runtime.ProbeServer.Response;
import io.openshiftagent.provider.runtime.ProviderOptions.MetricsEndpoint;
import io.openshiftagent.provider.runtime.ProviderOptions.TlsOptions;
import java.io.IOException;
import java.time.Clock;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Supplier;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Serves {@code /metrics} as Cluster API's managers do on {@code --diagnostics-address}: over
 * HTTPS, to a bearer token that {@link MetricsAccess} lets in, with the TLS settings of the command
 * line, else of the hub's OpenShift TLS profile ({@link ClusterTlsProfile}, applied in place as it
 * changes), else Intermediate's; or, with {@code --insecure-diagnostics}, over plain HTTP to
 * anyone.
 */
final class DiagnosticsServer implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(DiagnosticsServer.class);
  static final String CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";

  private final ProbeServer server;
  private final TlsOptions flags;
  private final ClusterTlsProfile profile;
  private volatile TlsSettings settings;

  private DiagnosticsServer(
      MetricsEndpoint endpoint,
      TlsOptions flags,
      KubernetesClient client,
      Supplier<String> scrape,
      String hostname)
      throws IOException {
    this.flags = flags;
    this.settings = TlsSettings.INTERMEDIATE.overriddenBy(flags);
    Function<Headers, Response> metrics = headers -> new Response(200, CONTENT_TYPE, scrape.get());
    if (!endpoint.secure()) {
      server = ProbeServer.start(endpoint.address(), Optional.empty(), Map.of("/metrics", metrics));
      profile = null;
      LOG.info("metrics on {} over plain HTTP, to anyone", endpoint.address());
      return;
    }
    MetricsAccess access = new MetricsAccess(client, Clock.systemUTC());
    SSLContext context = ServingKeys.of(flags.certDir(), hostname).sslContext();
    HttpsConfigurator https =
        new HttpsConfigurator(context) {
          @Override
          public void configure(HttpsParameters parameters) {
            SSLParameters ssl = context.getDefaultSSLParameters();
            settings.applyTo(ssl);
            parameters.setSSLParameters(ssl);
          }
        };
    server =
        ProbeServer.start(
            endpoint.address(),
            Optional.of(https),
            Map.of(
                "/metrics",
                headers -> {
                  MetricsAccess.Decision decision =
                      access.decide(
                          Optional.ofNullable(headers.getFirst("Authorization")), "/metrics");
                  return decision.allowed()
                      ? metrics.apply(headers)
                      : Response.text(decision.status(), decision.reason() + "\n");
                }));
    LOG.info(
        "metrics on {} over HTTPS ({}), to tokens allowed to get /metrics",
        endpoint.address(),
        flags.certDir().map(d -> "certificate from " + d).orElse("self-signed certificate"));
    boolean flagsDecideAll = flags.minVersion().isPresent() && !flags.cipherSuites().isEmpty();
    profile = flagsDecideAll ? null : ClusterTlsProfile.follow(client, this::useClusterProfile);
  }

  /** Starts serving; the caller closes it. */
  static DiagnosticsServer start(
      MetricsEndpoint endpoint, TlsOptions tls, KubernetesClient client, Supplier<String> scrape)
      throws IOException {
    String hostname = Optional.ofNullable(System.getenv("HOSTNAME")).orElse("localhost");
    return new DiagnosticsServer(endpoint, tls, client, scrape, hostname);
  }

  /** New connections get the cluster's settings, overridden by the command line's. */
  private void useClusterProfile(TlsSettings cluster) {
    settings = cluster.overriddenBy(flags);
  }

  /** The TLS settings new connections get. */
  TlsSettings settings() {
    return settings;
  }

  int port() {
    return server.port();
  }

  @Override
  public void close() {
    if (profile != null) {
      profile.close();
    }
    server.close();
  }
}
