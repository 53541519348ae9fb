package io.openshiftagent.registry;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.openshiftagent.registry.LookupFailure.Problem;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The Authorization header a registry's 401 challenge ({@code WWW-Authenticate}) asks for: basic
 * with the pull secret's credential, or a bearer token from the registry's token service, asked for
 * with that credential (over TLS only) or anonymously. The credential never goes into a message.
 */
final class RegistryAuthorization {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Pattern CHALLENGE_PARAMETER =
      Pattern.compile("(\\w+)=\"([^\"]*)\"|(\\w+)=([^\\s,]+)");

  /** One request of the lookup, with its client, timeout and redirect rules. */
  @FunctionalInterface
  interface Send {
    /**
     * @param authorization the Authorization header, or null for none
     */
    HttpResponse<byte[]> send(URI uri, String authorization)
        throws LookupFailure, InterruptedException;
  }

  private RegistryAuthorization() {}

  /** The Authorization header a 401's challenge asks for, or null when we have nothing to offer. */
  static String answer(
      ImageReference image, Optional<PullSecret.Credential> credential, String challenge, Send http)
      throws LookupFailure, InterruptedException {
    String scheme = challenge.trim().split("\\s+", 2)[0];
    Map<String, String> parameters = parameters(challenge.substring(scheme.length()));
    if (scheme.equalsIgnoreCase("Basic")) {
      return credential.map(RegistryAuthorization::basic).orElse(null);
    }
    if (!scheme.equalsIgnoreCase("Bearer") || !parameters.containsKey("realm")) {
      return null;
    }
    URI realm = URI.create(parameters.get("realm"));
    StringBuilder query = new StringBuilder();
    if (parameters.containsKey("service")) {
      query.append("service=").append(encode(parameters.get("service"))).append('&');
    }
    query
        .append("scope=")
        .append(
            encode(parameters.getOrDefault("scope", "repository:" + image.repository() + ":pull")));
    URI tokenUri = URI.create(realm + (realm.getQuery() == null ? "?" : "&") + query);
    boolean sendCredential = credential.isPresent() && realm.getScheme().equals("https");
    HttpResponse<byte[]> response =
        http.send(tokenUri, sendCredential ? basic(credential.get()) : null);
    switch (response.statusCode()) {
      case 200 -> {}
      case 401 ->
          throw LookupFailure.of(
              Problem.UNAUTHORIZED,
              image,
              "its token service "
                  + realm.getHost()
                  + (sendCredential
                      ? " refused the credentials (401)"
                      : " refused an anonymous token (401)"));
      case 403 ->
          throw LookupFailure.of(
              Problem.FORBIDDEN,
              image,
              "its token service " + realm.getHost() + " refused access (403)");
      default ->
          throw LookupFailure.of(
              Problem.ERROR,
              image,
              "its token service " + realm.getHost() + " answered HTTP " + response.statusCode());
    }
    try {
      JsonNode body = JSON.readTree(response.body());
      JsonNode token = body.hasNonNull("token") ? body.get("token") : body.get("access_token");
      if (token == null || !token.isTextual() || token.asText().isEmpty()) {
        throw LookupFailure.of(
            Problem.ERROR, image, "its token service " + realm.getHost() + " sent no token");
      }
      return "Bearer " + token.asText();
    } catch (IOException e) {
      throw LookupFailure.of(
          Problem.ERROR,
          image,
          "its token service " + realm.getHost() + " sent something other than JSON");
    }
  }

  private static Map<String, String> parameters(String challenge) {
    Map<String, String> parameters = new LinkedHashMap<>();
    Matcher m = CHALLENGE_PARAMETER.matcher(challenge);
    while (m.find()) {
      if (m.group(1) != null) {
        parameters.put(m.group(1).toLowerCase(), m.group(2));
      } else {
        parameters.put(m.group(3).toLowerCase(), m.group(4));
      }
    }
    return parameters;
  }

  private static String basic(PullSecret.Credential credential) {
    return "Basic "
        + Base64.getEncoder()
            .encodeToString(
                (credential.username() + ":" + credential.password())
                    .getBytes(StandardCharsets.UTF_8));
  }

  private static String encode(String value) {
    return URLEncoder.encode(value, StandardCharsets.UTF_8);
  }
}
