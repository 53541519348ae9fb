package io.openshiftagent.testsupport;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLContext;

/**
 * assisted-service as the client sees it: a real HTTPS server on 127.0.0.1 that answers every
 * request with the configured status and body, and remembers what it was asked.
 */
public final class FakeAssistedService implements AutoCloseable {

  private final HttpsServer server;
  private final ExecutorService executor = Executors.newCachedThreadPool();
  private final List<URI> requests = new CopyOnWriteArrayList<>();
  private final List<Instant> requestTimes = new CopyOnWriteArrayList<>();
  private final CountDownLatch released = new CountDownLatch(1);
  private volatile int status = 200;
  private volatile String contentType = "application/octet-stream";
  private volatile String body = "";
  private volatile boolean stalls;
  private volatile String location;
  private volatile int redirectStatus;
  private volatile boolean redirectsAll;

  public FakeAssistedService(SSLContext tls) throws IOException {
    server = HttpsServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.setHttpsConfigurator(new HttpsConfigurator(tls));
    server.setExecutor(executor);
    server.createContext("/", this::answer);
    server.start();
  }

  /** {@code https://127.0.0.1:<port>}, the root of the service. */
  public String root() {
    return "https://127.0.0.1:" + server.getAddress().getPort();
  }

  public FakeAssistedService answers(int status, String contentType, String body) {
    this.status = status;
    this.contentType = contentType;
    this.body = body;
    return this;
  }

  /**
   * Answers with {@code status} and a Location header of {@code location} (absolute or relative)
   * every request but one for {@code location} itself, which gets the configured answer.
   */
  public FakeAssistedService redirects(int status, String location) {
    this.location = location;
    this.redirectStatus = status;
    return this;
  }

  /** Answers every request with {@code status} and a Location header of {@code location}. */
  public FakeAssistedService redirectsEveryRequest(int status, String location) {
    redirectsAll = true;
    return redirects(status, location);
  }

  /** Accepts requests but sends nothing back until closed. */
  public FakeAssistedService stalls() {
    this.stalls = true;
    return this;
  }

  /** Path and query of every request received, in order. */
  public List<URI> requests() {
    return requests;
  }

  /** When each request of {@link #requests} arrived. */
  public List<Instant> requestTimes() {
    return requestTimes;
  }

  private void answer(HttpExchange exchange) throws IOException {
    requestTimes.add(Instant.now());
    requests.add(exchange.getRequestURI());
    try (exchange) {
      if (stalls) {
        released.await(30, TimeUnit.SECONDS);
        return;
      }
      String redirect = location;
      if (redirect != null
          && (redirectsAll || !redirect.endsWith(exchange.getRequestURI().toString()))) {
        exchange.getResponseHeaders().set("Location", redirect);
        exchange.sendResponseHeaders(redirectStatus, -1);
        return;
      }
      byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
      exchange.getResponseHeaders().set("Content-Type", contentType);
      exchange.sendResponseHeaders(status, bytes.length == 0 ? -1 : bytes.length);
      try (OutputStream out = exchange.getResponseBody()) {
        out.write(bytes);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  @Override
  public void close() {
    released.countDown();
    server.stop(0);
    executor.shutdownNow();
  }
}
