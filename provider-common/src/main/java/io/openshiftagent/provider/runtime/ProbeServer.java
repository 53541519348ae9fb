package io.openshiftagent.provider.runtime;

import com.sun.net.httpserver.Headers;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import io.openshiftagent.provider.reconcile.DaemonThreads;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.function.Function;

/**
 * A small HTTP or HTTPS server (the JDK's; HTTP/1.1 only) for the probes or the metrics endpoint.
 */
final class ProbeServer implements AutoCloseable {
  /** A response: status code and body. */
  record Response(int status, String contentType, String body) {
    private static final String TEXT = "text/plain; charset=utf-8";

    static Response ok(String body) {
      return new Response(200, TEXT, body);
    }

    /** 503: not ready, and why. */
    static Response unavailable(String why) {
      return new Response(503, TEXT, why);
    }

    /** 500: failing, and why. */
    static Response failing(String why) {
      return new Response(500, TEXT, why);
    }

    static Response text(int status, String body) {
      return new Response(status, "text/plain; charset=utf-8", body);
    }
  }

  private final HttpServer server;

  private ProbeServer(HttpServer server) {
    this.server = server;
  }

  /**
   * Serves {@code routes} (path to the response to a request's headers) at {@code address}, over
   * HTTPS when {@code https} is given.
   */
  static ProbeServer start(
      InetSocketAddress address,
      Optional<HttpsConfigurator> https,
      Map<String, Function<Headers, Response>> routes)
      throws IOException {
    HttpServer server;
    if (https.isPresent()) {
      HttpsServer secure = HttpsServer.create(address, 0);
      secure.setHttpsConfigurator(https.get());
      server = secure;
    } else {
      server = HttpServer.create(address, 0);
    }
    routes.forEach(
        (path, handler) ->
            server.createContext(
                path, exchange -> respond(exchange, handler.apply(exchange.getRequestHeaders()))));
    server.setExecutor(
        Executors.newSingleThreadExecutor(DaemonThreads.named("http-" + address.getPort())));
    server.start();
    return new ProbeServer(server);
  }

  int port() {
    return server.getAddress().getPort();
  }

  private static void respond(HttpExchange exchange, Response response) throws IOException {
    byte[] body = response.body().getBytes(StandardCharsets.UTF_8);
    exchange.getResponseHeaders().set("Content-Type", response.contentType());
    exchange.sendResponseHeaders(response.status(), body.length);
    try (OutputStream out = exchange.getResponseBody()) {
      out.write(body);
    }
  }

  @Override
  public void close() {
    server.stop(0);
  }
}
