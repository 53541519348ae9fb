package io.openshiftagent.provider.runtime;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.openshiftagent.provider.reconcile.DaemonThreads;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Executors;
import java.util.function.Supplier;

/** A small HTTP server (the JDK's) for the probes or the metrics endpoint. */
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
  }

  private final HttpServer server;

  private ProbeServer(HttpServer server) {
    this.server = server;
  }

  static ProbeServer start(int port, java.util.Map<String, Supplier<Response>> routes)
      throws IOException {
    HttpServer server = HttpServer.create(new InetSocketAddress(port), 0);
    routes.forEach(
        (path, handler) ->
            server.createContext(path, exchange -> respond(exchange, handler.get())));
    server.setExecutor(Executors.newSingleThreadExecutor(DaemonThreads.named("http-" + port)));
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
