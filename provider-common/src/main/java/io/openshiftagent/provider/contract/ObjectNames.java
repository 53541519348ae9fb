package io.openshiftagent.provider.contract;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.regex.Pattern;

/**
 * Kubernetes' naming rules: deterministic names and label values that always fit its length limits,
 * and whether a name given by a user can name an object at all.
 */
public final class ObjectNames {
  /** Longest object name (DNS subdomain). */
  public static final int MAX_NAME = 253;

  /** Longest label value. */
  public static final int MAX_LABEL_VALUE = 63;

  /** A DNS-1123 subdomain: dot-separated lower-case alphanumeric labels, inner dashes allowed. */
  private static final Pattern SUBDOMAIN =
      Pattern.compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*");

  private ObjectNames() {}

  /**
   * Whether {@code name} can name an object such as a Secret or ConfigMap (a DNS-1123 subdomain). A
   * user-given name that cannot is named by no object, and the API server answers a request for it
   * with an error, not a 404.
   */
  public static boolean isObjectName(String name) {
    return name.length() <= MAX_NAME && SUBDOMAIN.matcher(name).matches();
  }

  /**
   * {@code value} itself when it fits in {@code max} characters; otherwise a prefix of it and a
   * hash of all of it, so that two long values sharing a prefix still get different results.
   */
  public static String fit(String value, int max) {
    if (value.length() <= max) {
      return value;
    }
    String hash = sha256(value).substring(0, 10);
    return value.substring(0, max - hash.length() - 1).replaceAll("[^a-zA-Z0-9]+$", "")
        + "-"
        + hash;
  }

  /** A label value naming an object: the name, hashed when longer than a label value may be. */
  public static String labelValue(String name) {
    return fit(name, MAX_LABEL_VALUE);
  }

  /** The hex SHA-256 of {@code value}. */
  public static String sha256(String value) {
    try {
      return HexFormat.of()
          .formatHex(
              MessageDigest.getInstance("SHA-256").digest(value.getBytes(StandardCharsets.UTF_8)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}
