package io.openshiftagent.assisted;

import io.openshiftagent.assisted.AssistedServiceException.Reason;
import io.openshiftagent.assisted.DiscoveryIgnitionClient.Settings;
import java.net.ConnectException;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import javax.net.ssl.SSLException;

/**
 * What a failed call to assisted-service means, as an {@link AssistedServiceException}: its reason
 * and a message that names the service and the InfraEnv, never the api_key.
 */
final class CallFailures {
  private CallFailures() {}

  /** An answer with a status other than 2xx or a redirect. */
  static AssistedServiceException ofStatus(int status, IgnitionLocation from) {
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
    if (status >= 400) {
      return new AssistedServiceException(
          Reason.REQUEST_REJECTED, where(from) + " rejected the request" + statusText);
    }
    return new AssistedServiceException(
        Reason.BAD_RESPONSE, where(from) + " gave an unusable answer" + statusText);
  }

  /** The call failed before an answer came (TLS, timeout, connection). */
  static AssistedServiceException of(Throwable failure, Settings settings, IgnitionLocation from) {
    for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
      if (cause instanceof SSLException) {
        return new AssistedServiceException(
            Reason.TLS_ERROR,
            "TLS with "
                + IgnitionLocation.describe(from.restRoot())
                + " failed: "
                + cause.getMessage()
                + "; is its CA in the configured CA bundle?");
      }
      if (cause instanceof HttpTimeoutException) {
        return timeout(settings, from);
      }
      if (cause instanceof ConnectException && cause.getCause() != null) {
        // The JDK wraps the socket's own exception, whose message is the useful one.
        failure = cause.getCause();
      }
    }
    if (failure instanceof IllegalArgumentException) {
      // The JDK refuses the URL; its message would repeat it.
      return new AssistedServiceException(
          Reason.INVALID_URL, "cannot call " + IgnitionLocation.describe(from.restRoot()));
    }
    return new AssistedServiceException(
        Reason.UNREACHABLE,
        "cannot reach "
            + IgnitionLocation.describe(from.restRoot())
            + ": "
            + failure.getClass().getSimpleName()
            + (failure.getMessage() == null ? "" : ": " + failure.getMessage()));
  }

  static AssistedServiceException timeout(Settings settings, IgnitionLocation from) {
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

  private static String seconds(Duration duration) {
    return duration.toMillis() / 1000.0 + "s";
  }

  static String where(IgnitionLocation from) {
    return "assisted-service at "
        + IgnitionLocation.describe(from.restRoot())
        + " (InfraEnv "
        + from.infraEnvId()
        + ")";
  }
}
