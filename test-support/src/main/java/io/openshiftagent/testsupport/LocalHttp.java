package io.openshiftagent.testsupport;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;

/** Plain HTTP GETs to a provider's local endpoints (health, readiness, metrics). */
public final class LocalHttp {
  private static final HttpClient HTTP = HttpClient.newHttpClient();

  private LocalHttp() {}

  /** {@code GET http://127.0.0.1:<port><path>}, its body as text. */
  public static HttpResponse<String> get(int port, String path) {
    try {
      return HTTP.send(
          HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path)).build(),
          HttpResponse.BodyHandlers.ofString());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }
}
