package io.openshiftagent.assisted;

import com.google.gson.JsonElement;
import com.google.gson.JsonNull;
import com.google.gson.JsonObject;
import com.google.gson.JsonParseException;
import com.google.gson.JsonParser;
import com.google.gson.Strictness;
import com.google.gson.stream.JsonReader;
import com.google.gson.stream.JsonToken;
import io.openshiftagent.assisted.AssistedServiceException.Reason;
import io.openshiftagent.assisted.generated.ApiClient;
import io.openshiftagent.assisted.generated.ApiException;
import io.openshiftagent.assisted.generated.api.InfraEnvFilesApi;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.StringReader;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Objects;
import javax.net.ssl.SSLException;
import okhttp3.OkHttpClient;

/**
 * Downloads the discovery ignition of an InfraEnv from assisted-service, through the client
 * generated from {@code src/main/openapi/assisted-service.yaml}.
 *
 * <p>Immutable and thread-safe. It owns one HTTP client configured from its {@link Settings}; when
 * the settings change (a rotated CA bundle), build a new one with {@link #create(Settings)} and
 * {@link #close()} the old one. Nothing is shared between instances.
 *
 * <p>Nothing here logs: not the api_key, not the URL, not the ignition.
 */
public final class DiscoveryIgnitionClient implements AutoCloseable {

  static final String DISCOVERY_IGNITION = "discovery.ign";

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
  private final OkHttpClient http;

  private DiscoveryIgnitionClient(Settings settings, OkHttpClient http) {
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
    OkHttpClient.Builder http =
        new OkHttpClient.Builder()
            .connectTimeout(settings.connectTimeout())
            .readTimeout(settings.readTimeout())
            .writeTimeout(settings.readTimeout())
            .callTimeout(settings.callTimeout())
            // Never let a redirect downgrade to plain HTTP.
            .followSslRedirects(false);
    if (settings.caBundlePem() != null) {
      TrustBundle trust = TrustBundle.withDefaultRootsAnd(settings.caBundlePem());
      http.sslSocketFactory(trust.socketFactory, trust.trustManager);
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

  /** For tests: the HTTP client must stay free of interceptors (a logging one would leak). */
  OkHttpClient httpClient() {
    return http;
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
    // A fresh ApiClient per call: it is mutable (base path, api_key) and cheap; the HTTP client,
    // with its connection pool, is shared.
    ApiClient api = new ApiClient(http).setBasePath(target.restRoot().toString());
    api.setUserAgent("openshift-agent");
    target.apiKey().ifPresent(api::setApiKey);
    String body;
    try {
      body =
          new InfraEnvFilesApi(api).downloadInfraEnvFile(target.infraEnvId(), DISCOVERY_IGNITION);
    } catch (ApiException e) {
      throw failure(e, target);
    } catch (IllegalArgumentException e) {
      // OkHttp refuses the URL; its message would repeat it.
      throw new AssistedServiceException(
          Reason.INVALID_URL, "cannot call " + IgnitionLocation.describe(target.restRoot()));
    }
    return ignition(body, target);
  }

  /** Closes pooled idle connections. Calls in flight complete; they are all synchronous. */
  @Override
  public void close() {
    http.connectionPool().evictAll();
  }

  private static DiscoveryIgnition ignition(String body, IgnitionLocation from)
      throws AssistedServiceException {
    String version = null;
    if (body != null) {
      try (JsonReader reader = new JsonReader(new StringReader(body))) {
        // Strict: Gson's default leniency would accept unquoted names and trailing text.
        reader.setStrictness(Strictness.STRICT);
        JsonElement root = JsonParser.parseReader(reader);
        if (reader.peek() != JsonToken.END_DOCUMENT) {
          root = JsonNull.INSTANCE;
        }
        JsonElement ignition = root.isJsonObject() ? root.getAsJsonObject().get("ignition") : null;
        JsonElement versionField =
            ignition != null && ignition.isJsonObject()
                ? ((JsonObject) ignition).get("version")
                : null;
        if (versionField != null
            && versionField.isJsonPrimitive()
            && versionField.getAsJsonPrimitive().isString()
            && !versionField.getAsString().isBlank()) {
          version = versionField.getAsString();
        }
      } catch (JsonParseException | IOException notJson) {
        // Reported below, without the parser's message: it may quote the body.
      }
    }
    if (version == null) {
      throw new AssistedServiceException(
          Reason.BAD_RESPONSE,
          where(from)
              + " answered with a body that is not an Ignition config (JSON with"
              + " ignition.version)");
    }
    return new DiscoveryIgnition(body, version);
  }

  private AssistedServiceException failure(ApiException e, IgnitionLocation from) {
    int status = e.getCode();
    if (status == 0 && e.getCause() instanceof IOException io) {
      return ioFailure(io, from);
    }
    String statusText = " (HTTP " + status + ")";
    if (status == 404) {
      return new AssistedServiceException(
          Reason.NOT_FOUND, where(from) + " has no discovery ignition" + statusText);
    }
    if (status == 401 || status == 403) {
      return new AssistedServiceException(
          Reason.UNAUTHORIZED,
          where(from)
              + " refused the api_key"
              + statusText
              + "; the URL in the InfraEnv status may have expired");
    }
    if (status >= 500 || status == 429 || status == 408) {
      return new AssistedServiceException(
          Reason.SERVER_ERROR,
          where(from) + " failed to serve the discovery ignition" + statusText);
    }
    if (status >= 300 && status < 400) {
      return new AssistedServiceException(
          Reason.BAD_RESPONSE, where(from) + " answered with a redirect" + statusText);
    }
    if (status >= 400) {
      return new AssistedServiceException(
          Reason.REQUEST_REJECTED, where(from) + " rejected the request" + statusText);
    }
    return new AssistedServiceException(
        Reason.BAD_RESPONSE, where(from) + " gave an unusable answer" + statusText);
  }

  private AssistedServiceException ioFailure(IOException io, IgnitionLocation from) {
    for (Throwable cause = io; cause != null; cause = cause.getCause()) {
      if (cause instanceof SSLException) {
        return new AssistedServiceException(
            Reason.TLS_ERROR,
            "TLS with "
                + IgnitionLocation.describe(from.restRoot())
                + " failed: "
                + cause.getMessage()
                + "; is its CA in the configured CA bundle?");
      }
      if (cause instanceof InterruptedIOException) {
        return new AssistedServiceException(
            Reason.TIMEOUT,
            where(from)
                + " did not answer in time (timeouts: connect "
                + seconds(settings.connectTimeout())
                + ", read "
                + seconds(settings.readTimeout())
                + ", whole call "
                + seconds(settings.callTimeout())
                + ")");
      }
    }
    return new AssistedServiceException(
        Reason.UNREACHABLE,
        "cannot reach "
            + IgnitionLocation.describe(from.restRoot())
            + ": "
            + io.getClass().getSimpleName()
            + ": "
            + io.getMessage());
  }

  private static String seconds(Duration duration) {
    return duration.toMillis() / 1000.0 + "s";
  }

  private static String where(IgnitionLocation from) {
    return "assisted-service at "
        + IgnitionLocation.describe(from.restRoot())
        + " (InfraEnv "
        + from.infraEnvId()
        + ")";
  }
}
