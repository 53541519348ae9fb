package io.openshiftagent.assisted;

import java.util.regex.Pattern;

/** Removes credentials from text that may end up in a log, an event or a condition. */
final class Redaction {

  static final String REDACTED = "REDACTED";

  /** Query parameters that assisted-service uses to carry tokens. */
  private static final Pattern TOKEN_PARAMETER =
      Pattern.compile("(?i)\\b(api_key|image_token|token)=[^&#\\s\"']*");

  /** A JWT anywhere (header.payload.signature, base64url): assisted-service's tokens are JWTs. */
  private static final Pattern JWT =
      Pattern.compile("eyJ[A-Za-z0-9_-]*\\.[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]*");

  private Redaction() {}

  static String redact(String text) {
    if (text == null) {
      return null;
    }
    String withoutParameters = TOKEN_PARAMETER.matcher(text).replaceAll("$1=" + REDACTED);
    return JWT.matcher(withoutParameters).replaceAll(REDACTED);
  }
}
