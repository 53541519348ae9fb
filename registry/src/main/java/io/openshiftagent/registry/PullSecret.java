package io.openshiftagent.registry;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import java.util.HexFormat;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The registry credentials of a pull secret ({@code .dockerconfigjson}). Looked up as
 * containers-auth.json says: the most specific key first ({@code registry/namespace/repo}, then
 * shorter paths, then the registry). Nothing here ever prints a credential: errors name the key
 * that is wrong, never its value.
 */
public final class PullSecret {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final PullSecret NONE = new PullSecret(Map.of(), "none");

  private final Map<String, Credential> credentials;
  private final String fingerprint;

  /** A username and password (or token); {@link #toString()} hides both. */
  public record Credential(String username, String password) {
    @Override
    public String toString() {
      return "Credential[redacted]";
    }
  }

  private PullSecret(Map<String, Credential> credentials, String fingerprint) {
    this.credentials = credentials;
    this.fingerprint = fingerprint;
  }

  /** No credentials: every registry is asked anonymously. */
  public static PullSecret none() {
    return NONE;
  }

  /**
   * Reads a {@code .dockerconfigjson} document.
   *
   * @throws IllegalArgumentException saying what is malformed, without any secret content
   */
  public static PullSecret parse(byte[] dockerConfigJson) {
    JsonNode root;
    try {
      root = JSON.readTree(dockerConfigJson);
    } catch (IOException e) {
      throw new IllegalArgumentException("it is not JSON");
    }
    JsonNode auths = root == null ? null : root.get("auths");
    if (auths == null || !auths.isObject()) {
      throw new IllegalArgumentException("it has no \"auths\" object");
    }
    Map<String, Credential> credentials = new LinkedHashMap<>();
    for (Iterator<Map.Entry<String, JsonNode>> it = auths.fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> entry = it.next();
      credentials.put(normalizeKey(entry.getKey()), credential(entry.getKey(), entry.getValue()));
    }
    return new PullSecret(credentials, sha256(dockerConfigJson));
  }

  private static Credential credential(String key, JsonNode entry) {
    JsonNode auth = entry.get("auth");
    if (auth != null && auth.isTextual() && !auth.asText().isEmpty()) {
      String decoded;
      try {
        decoded = new String(Base64.getDecoder().decode(auth.asText()), StandardCharsets.UTF_8);
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("the auth of " + key + " is not base64");
      }
      int colon = decoded.indexOf(':');
      if (colon < 0) {
        throw new IllegalArgumentException("the auth of " + key + " is not username:password");
      }
      return new Credential(decoded.substring(0, colon), decoded.substring(colon + 1));
    }
    JsonNode username = entry.get("username");
    JsonNode password = entry.get("password");
    if (username != null && password != null) {
      return new Credential(username.asText(), password.asText());
    }
    throw new IllegalArgumentException("the entry " + key + " has neither auth nor username");
  }

  /** Docker's legacy keys are URLs ({@code https://quay.io/v1/}); containers use bare names. */
  private static String normalizeKey(String key) {
    String k = key.replaceFirst("^https?://", "");
    if (k.endsWith("/v1/") || k.endsWith("/v2/")) {
      k = k.substring(0, k.length() - 4);
    }
    return k.endsWith("/") ? k.substring(0, k.length() - 1) : k;
  }

  /** The credential for {@code image}, by its most specific key. */
  public Optional<Credential> credentialFor(ImageReference image) {
    String key = image.name();
    while (true) {
      Credential found = credentials.get(key);
      if (found != null) {
        return Optional.of(found);
      }
      int slash = key.lastIndexOf('/');
      if (slash < 0) {
        return Optional.empty();
      }
      key = key.substring(0, slash);
    }
  }

  /** A hash of the whole document: tells two pull secrets apart without holding their content. */
  public String fingerprint() {
    return fingerprint;
  }

  static String sha256(byte[] bytes) {
    return HexFormat.of().formatHex(sha256Bytes(bytes));
  }

  static byte[] sha256Bytes(byte[] bytes) {
    try {
      return MessageDigest.getInstance("SHA-256").digest(bytes);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  @Override
  public String toString() {
    return "PullSecret[" + credentials.size() + " registries]";
  }
}
