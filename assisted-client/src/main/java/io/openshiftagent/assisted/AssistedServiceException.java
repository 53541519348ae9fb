package io.openshiftagent.assisted;

/**
 * A failed call to assisted-service, described so that a reconciler can turn it into a condition
 * without further thought: {@link #reason()} is a short CamelCase code for {@code
 * condition.reason}, {@link #getMessage()} is safe to show (never an api_key, a token or a URL
 * query), and {@link #retryable()} says whether the same request may succeed later without any
 * change to its inputs.
 *
 * <p>No cause is attached on purpose: exceptions from the HTTP stack may carry the request URL, and
 * so the api_key. What they say that is useful is copied, redacted, into the message.
 */
public final class AssistedServiceException extends Exception {

  /** Why the call failed. Each reason decides whether retrying makes sense. */
  public enum Reason {
    /** No connection could be made (DNS, refused, reset). */
    UNREACHABLE("Unreachable", true),
    /** The connection or the whole call took longer than the configured timeout. */
    TIMEOUT("Timeout", true),
    /**
     * The TLS handshake failed (untrusted certificate, wrong host name). Retryable because the
     * server certificate may be rotated, which no watch tells us about.
     */
    TLS_ERROR("TLSError", true),
    /** assisted-service answered 5xx or 429. */
    SERVER_ERROR("ServerError", true),
    /** 404: the InfraEnv is unknown to assisted-service. Wait for its status to change. */
    NOT_FOUND("NotFound", false),
    /** 401 or 403: the api_key is missing, invalid or expired. Wait for a re-signed URL. */
    UNAUTHORIZED("Unauthorized", false),
    /** Another 4xx: the request itself is wrong. */
    REQUEST_REJECTED("RequestRejected", false),
    /**
     * A success status (or a redirect), but the body is not an Ignition config: a service or a
     * proxy in front of it in a bad state, or a body cut short. Retryable: the same request usually
     * succeeds once they recover.
     */
    BAD_RESPONSE("BadResponse", true),
    /** The URL published in the InfraEnv status cannot be used. */
    INVALID_URL("InvalidURL", false),
    /** The configured CA bundle holds no usable PEM certificate. */
    INVALID_CA_BUNDLE("InvalidCABundle", false);

    private final String conditionReason;
    private final boolean retryable;

    Reason(String conditionReason, boolean retryable) {
      this.conditionReason = conditionReason;
      this.retryable = retryable;
    }

    /** The code to put in a Kubernetes condition's {@code reason}. */
    public String conditionReason() {
      return conditionReason;
    }

    public boolean retryable() {
      return retryable;
    }
  }

  private final Reason reason;

  AssistedServiceException(Reason reason, String message) {
    super(Redaction.redact(message), null, false, true);
    this.reason = reason;
  }

  public Reason reason() {
    return reason;
  }

  /** Same as {@code reason().conditionReason()}. */
  public String conditionReason() {
    return reason.conditionReason();
  }

  public boolean retryable() {
    return reason.retryable();
  }

  @Override
  public String toString() {
    return "AssistedServiceException[" + reason.conditionReason() + "]: " + getMessage();
  }
}
