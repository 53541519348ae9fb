package io.openshiftagent.provider.runtime;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsParameters;
import com.sun.net.httpserver.HttpsServer;
import io.openshiftagent.provider.reconcile.DaemonThreads;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.function.UnaryOperator;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An HTTPS server of JSON POST hooks, as Cluster API's Runtime SDK calls a Runtime Extension: each
 * path answers a request body with a response body. The certificate is {@code tls.crt} and {@code
 * tls.key} of a directory (a mounted Secret, read again when it changes), else self-signed; the TLS
 * settings are the Intermediate profile's. The JDK's server, as for the metrics: no other server
 * library in the providers.
 */
public final class HookServer implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(HookServer.class);
  private static final int MAX_BODY = 4 << 20;

  private final HttpsServer server;

  private HookServer(HttpsServer server) {
    this.server = server;
  }

  /**
   * Serves {@code routes} (exact path to the handler of a request body) at {@code address}. A
   * handler that throws answers 500 with its message: Cluster API then applies the handler's
   * failure policy.
   */
  public static HookServer start(
      InetSocketAddress address, Optional<Path> certDir, Map<String, UnaryOperator<String>> routes)
      throws IOException {
    String hostname = Optional.ofNullable(System.getenv("HOSTNAME")).orElse("localhost");
    SSLContext context = ServingKeys.of(certDir, hostname).sslContext();
    HttpsServer server = HttpsServer.create(address, 0);
    server.setHttpsConfigurator(
        new HttpsConfigurator(context) {
          @Override
          public void configure(HttpsParameters parameters) {
            SSLParameters ssl = context.getDefaultSSLParameters();
            TlsSettings.INTERMEDIATE.applyTo(ssl);
            parameters.setSSLParameters(ssl);
          }
        });
    server.createContext("/", exchange -> handle(exchange, routes));
    server.setExecutor(
        Executors.newFixedThreadPool(2, DaemonThreads.named("hooks-" + address.getPort())));
    server.start();
    LOG.info(
        "runtime extension hooks on {} over HTTPS ({})",
        server.getAddress(),
        certDir.map(d -> "certificate from " + d).orElse("self-signed certificate"));
    return new HookServer(server);
  }

  /**
   * {@code host:port} or {@code :port} (every interface), as the providers' address flags read it;
   * {@code name} says what was misread.
   */
  public static InetSocketAddress address(String name, String value) {
    return FlagValues.address(name, value)
        .orElseThrow(() -> new IllegalArgumentException(name + " must be HOST:PORT or :PORT"));
  }

  private static void handle(HttpExchange exchange, Map<String, UnaryOperator<String>> routes)
      throws IOException {
    UnaryOperator<String> route = routes.get(exchange.getRequestURI().getPath());
    if (route == null) {
      respond(exchange, 404, "no hook at " + exchange.getRequestURI().getPath() + "\n", false);
      return;
    }
    if (!"POST".equals(exchange.getRequestMethod())) {
      respond(exchange, 405, "POST only\n", false);
      return;
    }
    String request;
    try (InputStream in = exchange.getRequestBody()) {
      byte[] body = in.readNBytes(MAX_BODY + 1);
      if (body.length > MAX_BODY) {
        respond(exchange, 413, "request over " + MAX_BODY + " bytes\n", false);
        return;
      }
      request = new String(body, StandardCharsets.UTF_8);
    }
    String response;
    try {
      response = route.apply(request);
    } catch (RuntimeException e) {
      LOG.warn("hook {} failed: {}", exchange.getRequestURI().getPath(), e.toString());
      respond(exchange, 500, e.getMessage() + "\n", false);
      return;
    }
    respond(exchange, 200, response, true);
  }

  private static void respond(HttpExchange exchange, int status, String body, boolean json)
      throws IOException {
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    exchange
        .getResponseHeaders()
        .set("Content-Type", json ? "application/json" : "text/plain; charset=utf-8");
    exchange.sendResponseHeaders(status, bytes.length);
    try (OutputStream out = exchange.getResponseBody()) {
      out.write(bytes);
    }
  }

  public int port() {
    return server.getAddress().getPort();
  }

  @Override
  public void close() {
    server.stop(0);
  }
}
