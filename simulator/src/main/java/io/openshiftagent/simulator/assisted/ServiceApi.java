package io.openshiftagent.simulator.assisted;

import io.fabric8.kubernetes.client.utils.Serialization;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

/**
 * JSON calls to assisted-service's REST API ({@code <root>/api/assisted-install/v2...}) as an agent
 * or the installer's controller makes them: authenticated with a token of the service ({@code
 * X-Secret-Key}), bodies in JSON.
 */
final class ServiceApi {
  static final String V2 = "/api/assisted-install/v2";
  private static final Duration TIMEOUT = Duration.ofSeconds(30);

  private final HttpClient http;
  private final String root;
  private final String token;
  private final String userAgent;

  /**
   * @param token the {@code X-Secret-Key}, or null when the service does not authenticate
   */
  ServiceApi(HttpClient http, String root, String token, String userAgent) {
    this.http = http;
    this.root = root.replaceAll("/+$", "");
    this.token = token;
    this.userAgent = userAgent;
  }

  /**
   * @param path below {@link #V2}
   * @param body serialized as JSON, or null for none
   */
  HttpResponse<String> send(String method, String path, Object body)
      throws IOException, InterruptedException {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(URI.create(root + V2 + path))
            .timeout(TIMEOUT)
            // No Accept header: file downloads answer application/octet-stream, and refuse (406) a
            // client that accepts only JSON.
            .header("User-Agent", userAgent);
    if (token != null) {
      request.header("X-Secret-Key", token);
    }
    if (body == null) {
      request.method(method, HttpRequest.BodyPublishers.noBody());
    } else {
      request
          .header("Content-Type", "application/json")
          .method(
              method,
              HttpRequest.BodyPublishers.ofString(
                  Serialization.jsonMapper().writeValueAsString(body), StandardCharsets.UTF_8));
    }
    return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
  }
}
