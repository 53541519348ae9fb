package io.openshiftagent.assisted;

import io.openshiftagent.assisted.AssistedServiceException.Reason;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Where an InfraEnv's discovery ignition is served: the REST root of assisted-service (for example
 * {@code https://assisted.example.com/api/assisted-install}), the InfraEnv's id and the api_key
 * that assisted-service presigned into the URLs of the InfraEnv status. {@link #toString()} never
 * shows the api_key.
 */
public final class IgnitionLocation {

  private static final String DISCOVERY_IGNITION = "discovery.ign";

  /** The REST root below a service root: {@code swagger.yaml}'s basePath. */
  static final String REST_ROOT_PATH = "/api/assisted-install";

  private static final Pattern DISCOVERY_IGNITION_PATH =
      Pattern.compile("^(.*)/v2/infra-envs/([^/]+)/downloads/files/?$");
  private static final Pattern EVENTS_PATH = Pattern.compile("^(.*)/v2/events/?$");
  private static final Pattern UUID =
      Pattern.compile(
          "^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$");

  private final URI restRoot;
  private final String infraEnvId;
  private final String apiKey;

  private IgnitionLocation(URI restRoot, String infraEnvId, String apiKey) {
    this.restRoot = restRoot;
    this.infraEnvId = infraEnvId;
    this.apiKey = apiKey;
  }

  /**
   * The location for an InfraEnv, from the two URLs of its status: {@code
   * status.bootArtifacts.discoveryIgnitionURL} when published (newer assisted-service), otherwise
   * {@code status.debugInfo.eventsURL}. Either may be null or blank.
   *
   * @throws AssistedServiceException {@code InvalidURL} when neither is published or the one used
   *     is not an assisted-service URL
   */
  public static IgnitionLocation fromInfraEnvStatus(String discoveryIgnitionUrl, String eventsUrl)
      throws AssistedServiceException {
    if (isPresent(discoveryIgnitionUrl)) {
      return fromDiscoveryIgnitionUrl(discoveryIgnitionUrl);
    }
    if (isPresent(eventsUrl)) {
      return fromEventsUrl(eventsUrl);
    }
    throw new AssistedServiceException(
        Reason.INVALID_URL,
        "the InfraEnv status publishes neither bootArtifacts.discoveryIgnitionURL nor"
            + " debugInfo.eventsURL yet");
  }

  /**
   * From {@code status.bootArtifacts.discoveryIgnitionURL}: {@code
   * <root>/v2/infra-envs/<id>/downloads/files?file_name=discovery.ign[&api_key=<jwt>]}.
   */
  public static IgnitionLocation fromDiscoveryIgnitionUrl(String url)
      throws AssistedServiceException {
    URI uri = parse(url, "bootArtifacts.discoveryIgnitionURL");
    Matcher path = matchPath(DISCOVERY_IGNITION_PATH, uri, "bootArtifacts.discoveryIgnitionURL");
    Map<String, String> query = queryParameters(uri);
    String fileName = query.get("file_name");
    if (fileName != null && !fileName.equals(DISCOVERY_IGNITION)) {
      throw new AssistedServiceException(
          Reason.INVALID_URL,
          "bootArtifacts.discoveryIgnitionURL " + describe(uri) + " is not for discovery.ign");
    }
    return new IgnitionLocation(
        restRoot(uri, path.group(1)),
        infraEnvId(path.group(2), "bootArtifacts.discoveryIgnitionURL", uri),
        query.get("api_key"));
  }

  /**
   * From {@code status.debugInfo.eventsURL} (older assisted-service): {@code
   * <root>/v2/events?api_key=<jwt>&infra_env_id=<id>}.
   */
  public static IgnitionLocation fromEventsUrl(String url) throws AssistedServiceException {
    URI uri = parse(url, "debugInfo.eventsURL");
    Matcher path = matchPath(EVENTS_PATH, uri, "debugInfo.eventsURL");
    Map<String, String> query = queryParameters(uri);
    String id = query.get("infra_env_id");
    if (!isPresent(id)) {
      throw new AssistedServiceException(
          Reason.INVALID_URL,
          "debugInfo.eventsURL " + describe(uri) + " has no infra_env_id query parameter");
    }
    return new IgnitionLocation(
        restRoot(uri, path.group(1)),
        infraEnvId(id, "debugInfo.eventsURL", uri),
        query.get("api_key"));
  }

  /**
   * The same InfraEnv and api_key, served by another assisted-service endpoint, such as its
   * in-cluster Service ({@code http://assisted-service.<namespace>.svc:8090}). {@code serviceRoot}
   * is the root of the service; the REST root {@value #REST_ROOT_PATH} is appended.
   */
  public IgnitionLocation withServiceRoot(URI serviceRoot) throws AssistedServiceException {
    validateServiceRoot(serviceRoot);
    String path = serviceRoot.getRawPath() == null ? "" : serviceRoot.getRawPath();
    return new IgnitionLocation(
        restRoot(serviceRoot, path.replaceAll("/+$", "") + REST_ROOT_PATH), infraEnvId, apiKey);
  }

  static void validateServiceRoot(URI serviceRoot) throws AssistedServiceException {
    if (!isHttp(serviceRoot)
        || serviceRoot.getHost() == null
        || serviceRoot.getRawQuery() != null) {
      throw new AssistedServiceException(
          Reason.INVALID_URL,
          "the assisted-service root override must be an http(s) URL with a host and no query, got "
              + describe(serviceRoot));
    }
  }

  /**
   * Where the discovery ignition is downloaded: {@code
   * <restRoot>/v2/infra-envs/<id>/downloads/files?file_name=discovery.ign[&api_key=<jwt>]}.
   */
  URI downloadUri() throws AssistedServiceException {
    StringBuilder uri =
        new StringBuilder(restRoot.toString())
            .append("/v2/infra-envs/")
            .append(infraEnvId)
            .append("/downloads/files?file_name=")
            .append(DISCOVERY_IGNITION);
    if (apiKey != null) {
      uri.append("&api_key=").append(URLEncoder.encode(apiKey, StandardCharsets.UTF_8));
    }
    try {
      return URI.create(uri.toString());
    } catch (IllegalArgumentException e) {
      // Its message would repeat the URL, api_key included.
      throw new AssistedServiceException(Reason.INVALID_URL, "cannot call " + describe(restRoot));
    }
  }

  /** For example {@code https://assisted.example.com/api/assisted-install}. */
  public URI restRoot() {
    return restRoot;
  }

  public String infraEnvId() {
    return infraEnvId;
  }

  /** Absent when assisted-service does not sign its URLs (authentication other than local). */
  Optional<String> apiKey() {
    return Optional.ofNullable(apiKey);
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof IgnitionLocation that
        && restRoot.equals(that.restRoot)
        && infraEnvId.equals(that.infraEnvId)
        && Objects.equals(apiKey, that.apiKey);
  }

  @Override
  public int hashCode() {
    return Objects.hash(restRoot, infraEnvId, apiKey);
  }

  @Override
  public String toString() {
    return "IgnitionLocation[" + restRoot + ", InfraEnv " + infraEnvId + "]";
  }

  /** {@code scheme://host[:port]/path}: never the query, the fragment or user info. */
  static String describe(URI uri) {
    if (uri == null) {
      return "(none)";
    }
    StringBuilder text = new StringBuilder();
    if (uri.getScheme() != null) {
      text.append(uri.getScheme()).append("://");
    }
    if (uri.getHost() != null) {
      text.append(uri.getHost());
      if (uri.getPort() != -1) {
        text.append(':').append(uri.getPort());
      }
    }
    if (uri.getRawPath() != null) {
      text.append(uri.getRawPath());
    }
    return Redaction.redact(text.toString());
  }

  private static URI parse(String url, String field) throws AssistedServiceException {
    URI uri;
    try {
      uri = new URI(url.trim());
    } catch (URISyntaxException e) {
      // The exception repeats the input, api_key included: say only which field is broken.
      throw new AssistedServiceException(Reason.INVALID_URL, field + " is not a valid URL");
    }
    if (!isHttp(uri) || uri.getHost() == null) {
      throw new AssistedServiceException(
          Reason.INVALID_URL, field + " " + describe(uri) + " is not an http(s) URL with a host");
    }
    return uri;
  }

  private static Matcher matchPath(Pattern pattern, URI uri, String field)
      throws AssistedServiceException {
    Matcher matcher = pattern.matcher(uri.getRawPath() == null ? "" : uri.getRawPath());
    if (!matcher.matches()) {
      throw new AssistedServiceException(
          Reason.INVALID_URL,
          field + " " + describe(uri) + " does not have the path assisted-service publishes");
    }
    return matcher;
  }

  private static String infraEnvId(String id, String field, URI uri)
      throws AssistedServiceException {
    if (!UUID.matcher(id).matches()) {
      throw new AssistedServiceException(
          Reason.INVALID_URL, field + " " + describe(uri) + " does not name an InfraEnv by UUID");
    }
    return id.toLowerCase(Locale.ROOT);
  }

  private static URI restRoot(URI from, String rawPath) {
    return URI.create(
        from.getScheme().toLowerCase(Locale.ROOT)
            + "://"
            + from.getRawAuthority().replaceFirst("^.*@", "")
            + rawPath);
  }

  private static Map<String, String> queryParameters(URI uri) {
    Map<String, String> parameters = new HashMap<>();
    if (uri.getRawQuery() == null) {
      return parameters;
    }
    for (String pair : uri.getRawQuery().split("&")) {
      int equals = pair.indexOf('=');
      String name = equals < 0 ? pair : pair.substring(0, equals);
      String value = equals < 0 ? "" : pair.substring(equals + 1);
      parameters.putIfAbsent(decode(name), decode(value));
    }
    return parameters;
  }

  private static String decode(String text) {
    try {
      return URLDecoder.decode(text, StandardCharsets.UTF_8);
    } catch (IllegalArgumentException malformedEscape) {
      return text;
    }
  }

  private static boolean isHttp(URI uri) {
    return uri != null
        && uri.getScheme() != null
        && (uri.getScheme().equalsIgnoreCase("https") || uri.getScheme().equalsIgnoreCase("http"));
  }

  private static boolean isPresent(String text) {
    return text != null && !text.isBlank();
  }
}
