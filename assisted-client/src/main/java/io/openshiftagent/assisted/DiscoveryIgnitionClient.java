package io.openshiftagent.assisted;

import io.openshiftagent.assisted.AssistedServiceException.Reason;
import io.openshiftagent.tls.TrustedCertificates;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Downloads the discovery ignition of an InfraEnv from assisted-service: one GET, {@code
 * <root>/v2/infra-envs/<id>/downloads/files?file_name=discovery.ign&api_key=<jwt>}, over the JDK's
 * {@link HttpClient}.
 *
 * <p>Immutable and thread-safe. It owns one HTTP client configured from its {@link Settings}; when
 * the settings change (a rotated CA bundle), build a new one with {@link #create(Settings)} and
 * {@link #close()} the old one. Nothing is shared between instances.
 *
 * <p>Redirects are followed only within the same scheme, host and port: the request carries the
 * api_key, and a redirect elsewhere (or from HTTPS to HTTP) is refused as a bad response.
 *
 * <p>Nothing here logs: not the api_key, not the URL, not the ignition.
 */
public final class DiscoveryIgnitionClient implements AutoCloseable {

  /** How many redirects within the same service are followed. */
  static final int MAX_REDIRECTS = 5;

  /**
   * The JDK's HTTP client logs each request's URL, api_key included, at debug level to this
   * System.Logger (java.util.logging unless another LoggerFinder is installed): switched off, so
   * that turning JUL's levels up never prints the key. Held here: JUL keeps its loggers weakly.
   */
  private static final Logger JDK_HTTP_CLIENT_DEBUG = quiet("jdk.internal.httpclient.debug");

  /**
   * How to reach assisted-service. A value: two equal settings build equivalent clients, so a
   * caller can keep its client while {@code settings().equals(wanted)}.
   *
   * @param caBundlePem PEM certificates trusted in addition to the JVM's default roots; null for
   *     the default roots only
   * @param serviceRootOverride the assisted-service root to use instead of the host in the InfraEnv
   *     status URLs (for example its in-cluster Service); null to use those URLs as they are
   */
  public record Settings(
      String caBundlePem,
      URI serviceRootOverride,
      Duration connectTimeout,
      Duration readTimeout,
      Duration callTimeout) {

    public static final Duration DEFAULT_CONNECT_TIMEOUT = Duration.ofSeconds(10);
    public static final Duration DEFAULT_READ_TIMEOUT = Duration.ofSeconds(30);
    public static final Duration DEFAULT_CALL_TIMEOUT = Duration.ofSeconds(60);

    public Settings {
      requirePositive(connectTimeout, "connectTimeout");
      requirePositive(readTimeout, "readTimeout");
      requirePositive(callTimeout, "callTimeout");
      if (caBundlePem != null && caBundlePem.isBlank()) {
        caBundlePem = null;
      }
    }

    /** JVM default roots, the URLs of the InfraEnv status, 10 s connect, 30 s read, 60 s call. */
    public static Settings defaults() {
      return new Settings(
          null, null, DEFAULT_CONNECT_TIMEOUT, DEFAULT_READ_TIMEOUT, DEFAULT_CALL_TIMEOUT);
    }

    public Settings withCaBundle(String pem) {
      return new Settings(pem, serviceRootOverride, connectTimeout, readTimeout, callTimeout);
    }

    /** The bundle as read from a Secret or ConfigMap: PEM text encoded in UTF-8 (or ASCII). */
    public Settings withCaBundle(byte[] pem) {
      return withCaBundle(pem == null ? null : new String(pem, StandardCharsets.UTF_8));
    }

    public Settings withServiceRootOverride(URI serviceRoot) {
      return new Settings(caBundlePem, serviceRoot, connectTimeout, readTimeout, callTimeout);
    }

    public Settings withTimeouts(Duration connect, Duration read, Duration call) {
      return new Settings(caBundlePem, serviceRootOverride, connect, read, call);
    }

    @Override
    public String toString() {
      return "Settings[caBundle="
          + (caBundlePem == null ? "none" : caBundlePem.length() + " chars")
          + ", serviceRootOverride="
          + (serviceRootOverride == null ? "none" : IgnitionLocation.describe(serviceRootOverride))
          + ", connectTimeout="
          + connectTimeout
          + ", readTimeout="
          + readTimeout
          + ", callTimeout="
          + callTimeout
          + "]";
    }

    private static void requirePositive(Duration timeout, String name) {
      Objects.requireNonNull(timeout, name);
      if (timeout.isNegative() || timeout.isZero()) {
        throw new IllegalArgumentException(name + " must be positive, got " + timeout);
      }
    }
  }

  private final Settings settings;
  private final HttpClient http;

  private static Logger quiet(String name) {
    Logger logger = Logger.getLogger(name);
    logger.setLevel(Level.OFF);
    return logger;
  }

  private DiscoveryIgnitionClient(Settings settings, HttpClient http) {
    this.settings = settings;
    this.http = http;
  }

  /**
   * A client for these settings. Cheap: it parses the CA bundle and builds one HTTP client.
   *
   * @throws AssistedServiceException {@code InvalidCABundle} when the bundle holds no usable
   *     certificate
   */
  public static DiscoveryIgnitionClient create(Settings settings) throws AssistedServiceException {
    HttpClient.Builder http =
        HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(settings.connectTimeout())
            // Followed by hand, and only within the service: see redirectTarget.
            .followRedirects(HttpClient.Redirect.NEVER);
    if (settings.caBundlePem() != null) {
      try {
        http.sslContext(TrustedCertificates.withBundle(settings.caBundlePem()).sslContext());
      } catch (IllegalArgumentException e) {
        throw new AssistedServiceException(Reason.INVALID_CA_BUNDLE, e.getMessage());
      }
    }
    if (settings.serviceRootOverride() != null) {
      // Fail now on a bad override rather than on every download.
      IgnitionLocation.validateServiceRoot(settings.serviceRootOverride());
    }
    return new DiscoveryIgnitionClient(settings, http.build());
  }

  public Settings settings() {
    return settings;
  }

  /**
   * Downloads the discovery ignition of the InfraEnv whose status publishes these URLs: {@code
   * status.bootArtifacts.discoveryIgnitionURL} if not blank, otherwise {@code
   * status.debugInfo.eventsURL}.
   */
  public DiscoveryIgnition download(String discoveryIgnitionUrl, String eventsUrl)
      throws AssistedServiceException {
    return download(IgnitionLocation.fromInfraEnvStatus(discoveryIgnitionUrl, eventsUrl));
  }

  /**
   * Downloads the discovery ignition at {@code location} (or at the same path below the service
   * root override, if configured).
   *
   * @throws AssistedServiceException when the call fails or the body is not an Ignition config
   */
  public DiscoveryIgnition download(IgnitionLocation location) throws AssistedServiceException {
    IgnitionLocation target =
        settings.serviceRootOverride() == null
            ? location
            : location.withServiceRoot(settings.serviceRootOverride());
    URI uri = target.downloadUri();
    long deadline = System.nanoTime() + settings.callTimeout().toNanos();
    for (int redirects = 0; ; redirects++) {
      HttpResponse<String> response = send(uri, target, deadline);
      int status = response.statusCode();
      if (status >= 200 && status < 300) {
        return DiscoveryIgnition.parse(response.body(), target);
      }
      if (status < 300 || status >= 400) {
        throw CallFailures.ofStatus(status, target);
      }
      URI next = redirectTarget(uri, response);
      if (next == null || redirects == MAX_REDIRECTS) {
        throw new AssistedServiceException(
            Reason.BAD_RESPONSE,
            CallFailures.where(target)
                + " answered with a redirect (HTTP "
                + status
                + ") that is not followed: "
                + (next == null
                    ? "it leads out of the service, and the request carries the api_key"
                    : "more than " + MAX_REDIRECTS + " in a row"));
      }
      uri = next;
    }
  }

  /**
   * Nothing to release: on Java 17 the JDK's HTTP client has no close, and its thread ends once the
   * client is unreachable. Kept so that a caller replacing a client says so.
   */
  @Override
  public void close() {}

  /** One request, bounded by the read timeout (until the answer starts) and the call's deadline. */
  private HttpResponse<String> send(URI uri, IgnitionLocation target, long deadline)
      throws AssistedServiceException {
    HttpRequest request =
        HttpRequest.newBuilder(uri)
            .GET()
            .timeout(settings.readTimeout())
            .header("User-Agent", "openshift-agent")
            .header("Accept", "application/octet-stream, application/json")
            .build();
    CompletableFuture<HttpResponse<String>> call =
        http.sendAsync(request, HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
    try {
      return call.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
    } catch (TimeoutException e) {
      call.cancel(true);
      throw CallFailures.timeout(settings, target);
    } catch (InterruptedException e) {
      call.cancel(true);
      Thread.currentThread().interrupt();
      throw new AssistedServiceException(
          Reason.UNREACHABLE, "the call to " + CallFailures.where(target) + " was interrupted");
    } catch (ExecutionException e) {
      throw CallFailures.of(e.getCause(), settings, target);
    }
  }

  /** Where a redirect leads, if it stays within the service (same scheme, host and port). */
  private static URI redirectTarget(URI from, HttpResponse<?> response) {
    URI to;
    try {
      to = response.headers().firstValue("Location").map(from::resolve).orElse(null);
    } catch (IllegalArgumentException malformed) {
      return null;
    }
    boolean sameService =
        to != null
            && from.getScheme().equalsIgnoreCase(to.getScheme())
            && from.getHost().equalsIgnoreCase(Objects.requireNonNullElse(to.getHost(), ""))
            && port(from) == port(to);
    return sameService ? to : null;
  }

  private static int port(URI uri) {
    return uri.getPort() != -1
        ? uri.getPort()
        : uri.getScheme().equalsIgnoreCase("https") ? 443 : 80;
  }
}
