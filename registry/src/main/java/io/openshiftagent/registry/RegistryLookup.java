package io.openshiftagent.registry;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.openshiftagent.registry.LookupFailure.Problem;
import io.openshiftagent.tls.TrustedCertificates;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Asks one registry for the manifest a tag (or digest) names, over the OCI distribution API: a
 * {@code GET /v2/<repository>/manifests/<tag>}, anonymous first, then with the authentication the
 * registry's {@code WWW-Authenticate} asks for (a bearer token from its token service, or basic),
 * with the pull secret's credential. The digest is the SHA-256 of the bytes received (checked
 * against {@code Docker-Content-Digest}). One try, each request bounded by the timeout: retrying is
 * the caller's business. Credentials go only to the registry and its token service over TLS, and
 * never into a message. An {@code insecure = true} mirror may be asked with unverified TLS, and
 * over plain HTTP only anonymously: neither the credential nor a token issued for it would be
 * anything but readable there.
 *
 * <p>{@link RegistryAuthorization} answers the registry's challenge; {@link ConnectionFailures}
 * tells what a request that got no answer means.
 */
public final class RegistryLookup {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String ACCEPT =
      String.join(
          ", ",
          "application/vnd.oci.image.index.v1+json",
          "application/vnd.docker.distribution.manifest.list.v2+json",
          "application/vnd.oci.image.manifest.v1+json",
          "application/vnd.docker.distribution.manifest.v2+json");
  private static final int MAX_CLIENTS = 64;

  private final Duration timeout;
  private final String userAgent;

  /** One HTTP client (connection pool) per set of trusted CAs; insecure mirrors get their own. */
  private final Map<String, HttpClient> clients = new ConcurrentHashMap<>();

  /**
   * @param timeout how long connecting, or waiting for one response, may take
   */
  public RegistryLookup(Duration timeout, String userAgent) {
    this.timeout = timeout;
    this.userAgent = userAgent;
  }

  /**
   * The manifest {@code image} names at its registry.
   *
   * @param insecure a registries.conf {@code insecure = true} mirror: unverified TLS, then plain
   *     HTTP without credentials
   */
  public Manifest manifest(
      ImageReference image,
      Optional<PullSecret.Credential> credential,
      TrustedCertificates trust,
      boolean insecure)
      throws LookupFailure {
    try {
      try {
        return fetch(image, credential, client(trust, insecure), "https");
      } catch (LookupFailure e) {
        if (!insecure || e.problem() != Problem.TLS) {
          throw e;
        }
        return fetch(image, credential, client(trust, true), "http");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw LookupFailure.of(Problem.ERROR, image, "interrupted");
    }
  }

  private Manifest fetch(
      ImageReference image,
      Optional<PullSecret.Credential> credential,
      HttpClient http,
      String scheme)
      throws LookupFailure, InterruptedException {
    URI uri =
        URI.create(
            scheme
                + "://"
                + image.registry()
                + "/v2/"
                + image.repository()
                + "/manifests/"
                + image.qualifier());
    // Over plain HTTP the registry is asked anonymously: basic credentials, and a token its token
    // service would issue for them, would both cross the network readable.
    boolean withheld = scheme.equals("http") && credential.isPresent();
    Optional<PullSecret.Credential> offered = withheld ? Optional.empty() : credential;
    HttpResponse<byte[]> response = send(http, image, uri, null);
    try {
      if (response.statusCode() == 401) {
        String authorization =
            RegistryAuthorization.answer(
                image,
                offered,
                response.headers().firstValue("WWW-Authenticate").orElse(""),
                (target, auth) -> send(http, image, target, auth));
        response = send(http, image, uri, authorization);
      }
      return switch (response.statusCode()) {
        case 200 -> manifest(image, response);
        case 401 -> throw LookupFailure.of(Problem.UNAUTHORIZED, image, "401 Unauthorized");
        case 403 -> throw LookupFailure.of(Problem.FORBIDDEN, image, "403 Forbidden");
        case 404 ->
            throw LookupFailure.of(
                Problem.NOT_FOUND, image, "manifest unknown (404" + errors(response) + ")");
        default ->
            throw LookupFailure.of(
                Problem.ERROR, image, "answered HTTP " + response.statusCode() + errors(response));
      };
    } catch (LookupFailure refused) {
      if (!withheld
          || (refused.problem() != Problem.UNAUTHORIZED
              && refused.problem() != Problem.FORBIDDEN)) {
        throw refused;
      }
      throw new LookupFailure(
          refused.problem(),
          image,
          refused.detail()
              + ": the pull secret's credentials for "
              + image.registry()
              + " were withheld because it is plain HTTP, where they would travel in the clear"
              + " (insecure = true allows unverified TLS, and plain HTTP only anonymously);"
              + " serve it over TLS, or let it answer anonymous pulls",
          null,
          true);
    }
  }

  private HttpResponse<byte[]> send(
      HttpClient http, ImageReference image, URI uri, String authorization)
      throws LookupFailure, InterruptedException {
    URI target = uri;
    String auth = authorization;
    for (int redirects = 0; ; redirects++) {
      HttpRequest.Builder request =
          HttpRequest.newBuilder(target)
              .timeout(timeout)
              .header("Accept", ACCEPT)
              .header("User-Agent", userAgent);
      if (auth != null) {
        request.header("Authorization", auth);
      }
      HttpResponse<byte[]> response;
      try {
        response = http.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
      } catch (IOException e) {
        throw ConnectionFailures.of(e, image, timeout);
      }
      Optional<String> location = response.headers().firstValue("Location");
      if (response.statusCode() / 100 != 3 || location.isEmpty() || redirects == 3) {
        return response;
      }
      URI next = target.resolve(location.get());
      // Credentials and tokens follow a redirect only to the same host and port over TLS: not to
      // another host (a CDN), nor down to plain HTTP.
      if (!"https".equalsIgnoreCase(next.getScheme())
          || !Objects.equals(next.getAuthority(), target.getAuthority())) {
        auth = null;
      }
      target = next;
    }
  }

  private static Manifest manifest(ImageReference image, HttpResponse<byte[]> response)
      throws LookupFailure {
    byte[] body = response.body();
    String digest = "sha256:" + HexFormat.of().formatHex(PullSecret.sha256Bytes(body));
    Optional<String> announced = response.headers().firstValue("Docker-Content-Digest");
    if (announced.isPresent()
        && announced.get().startsWith("sha256:")
        && !announced.get().equals(digest)) {
      throw LookupFailure.of(
          Problem.ERROR,
          image,
          "sent a manifest whose digest " + digest + " is not the announced " + announced.get());
    }
    if (image.hasDigest() && !image.digest().equals(digest)) {
      throw LookupFailure.of(Problem.ERROR, image, "sent a manifest of another digest, " + digest);
    }
    JsonNode json;
    try {
      json = JSON.readTree(body);
    } catch (IOException e) {
      throw LookupFailure.of(Problem.ERROR, image, "sent a manifest that is not JSON");
    }
    String mediaType =
        json.hasNonNull("mediaType")
            ? json.get("mediaType").asText()
            : response.headers().firstValue("Content-Type").orElse("");
    JsonNode manifests = json.get("manifests");
    if (manifests == null || !manifests.isArray()) {
      return new Manifest(digest, mediaType, List.of(), false);
    }
    List<String> architectures = new ArrayList<>();
    for (JsonNode entry : manifests) {
      JsonNode platform = entry.get("platform");
      if (platform != null && "linux".equals(platform.path("os").asText())) {
        String architecture = platform.path("architecture").asText();
        if (!architecture.isEmpty() && !architectures.contains(architecture)) {
          architectures.add(architecture);
        }
      }
    }
    return new Manifest(digest, mediaType, List.copyOf(architectures), true);
  }

  private HttpClient client(TrustedCertificates trust, boolean insecure) {
    String key = insecure ? "insecure" : trust.fingerprint();
    if (clients.size() > MAX_CLIENTS) {
      clients.clear();
    }
    return clients.computeIfAbsent(
        key,
        k ->
            HttpClient.newBuilder()
                .sslContext(
                    insecure ? TrustedCertificates.trustingAnyCertificate() : trust.sslContext())
                .connectTimeout(timeout)
                .followRedirects(HttpClient.Redirect.NEVER)
                .build());
  }

  /** The registry's own error codes and messages ({@code {"errors":[...]}}), if any. */
  private static String errors(HttpResponse<byte[]> response) {
    try {
      JsonNode errors = JSON.readTree(response.body()).path("errors");
      List<String> parts = new ArrayList<>();
      for (JsonNode error : errors) {
        parts.add(error.path("code").asText() + " " + error.path("message").asText());
      }
      return parts.isEmpty() ? "" : ": " + String.join(", ", parts).trim();
    } catch (IOException | RuntimeException e) {
      return "";
    }
  }
}
