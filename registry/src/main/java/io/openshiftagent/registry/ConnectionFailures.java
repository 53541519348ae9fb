package io.openshiftagent.registry;

import io.openshiftagent.registry.LookupFailure.Problem;
import java.io.IOException;
import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.UnknownHostException;
import java.net.http.HttpTimeoutException;
import java.nio.channels.UnresolvedAddressException;
import java.time.Duration;
import java.util.stream.Stream;
import javax.net.ssl.SSLException;

/**
 * What a request that got no answer tells of the registry: the {@link Problem} (TLS, timeout,
 * unreachable, or another error) of the exception java.net.http threw, and a short message of it.
 */
final class ConnectionFailures {
  private ConnectionFailures() {}

  /**
   * @param timeout the lookup's timeout, named when it ran out
   */
  static LookupFailure of(IOException e, ImageReference image, Duration timeout) {
    return LookupFailure.of(problem(e), image, detail(e, timeout));
  }

  private static Problem problem(IOException e) {
    if (causes(e).anyMatch(c -> c instanceof SSLException)) {
      return Problem.TLS;
    }
    if (causes(e).anyMatch(c -> c instanceof HttpTimeoutException)) {
      return Problem.TIMEOUT; // connect and response timeouts
    }
    if (causes(e)
        .anyMatch(
            c ->
                c instanceof ConnectException
                    || c instanceof UnknownHostException
                    || c instanceof UnresolvedAddressException
                    || c instanceof NoRouteToHostException)) {
      return Problem.UNREACHABLE;
    }
    return Problem.ERROR;
  }

  private static String detail(IOException e, Duration timeout) {
    return switch (problem(e)) {
      case TLS -> "TLS failed: " + rootMessage(e);
      case TIMEOUT -> "no answer within " + timeout.toSeconds() + " s";
      case UNREACHABLE -> "cannot connect (" + unreachableCause(e) + ")";
      default -> e.getClass().getSimpleName() + ": " + rootMessage(e);
    };
  }

  /**
   * Why nothing could be reached: java.net.http reports a name that does not resolve as a
   * ConnectException caused by an UnresolvedAddressException, not an UnknownHostException.
   */
  private static String unreachableCause(IOException e) {
    if (causes(e)
        .anyMatch(
            c -> c instanceof UnknownHostException || c instanceof UnresolvedAddressException)) {
      return "unknown host";
    }
    if (causes(e).anyMatch(c -> c instanceof NoRouteToHostException)) {
      return "no route to host";
    }
    return "connection refused";
  }

  private static Stream<Throwable> causes(Throwable e) {
    return Stream.iterate(e, t -> t != null, Throwable::getCause).limit(10);
  }

  private static String rootMessage(Throwable e) {
    Throwable root = causes(e).reduce((a, b) -> b).orElse(e);
    String message =
        root.getMessage() == null ? root.getClass().getSimpleName() : root.getMessage();
    int newline = message.indexOf('\n');
    return (newline < 0 ? message : message.substring(0, newline)).trim();
  }
}
