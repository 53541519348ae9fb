package io.openshiftagent.provider.contract;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/** Deterministic names and label values that always fit Kubernetes' length limits. */
public final class ObjectNames {
  /** Longest object name (DNS subdomain). */
  public static final int MAX_NAME = 253;

  /** Longest label value. */
  public static final int MAX_LABEL_VALUE = 63;

  private ObjectNames() {}

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
