package io.openshiftagent.provider.runtime;

import io.openshiftagent.provider.runtime.ProviderOptions.LogFormat;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The values of {@link ProviderOptions}' flags, read as Go's flags read them, with the reason when
 * bad.
 */
final class FlagValues {
  private FlagValues() {}

  static Optional<InetSocketAddress> address(String flag, String value) {
    return address(flag, value, false);
  }

  /**
   * Go's {@code host:port}, {@code :port} (every interface) or {@code 0} (disabled); with {@code
   * portZeroDisables}, as the old port flags read it, {@code :0} disables too.
   */
  static Optional<InetSocketAddress> address(String flag, String value, boolean portZeroDisables) {
    if (value.equals("0")) {
      return Optional.empty();
    }
    Matcher m = Pattern.compile("^(\\[[^]]*]|[^:\\[\\]]*):(\\d{1,5})$").matcher(value);
    if (!m.matches() || Integer.parseInt(m.group(2)) > 65535) {
      throw new IllegalArgumentException(
          "--" + flag + " must be HOST:PORT, :PORT or 0, not '" + value + "'");
    }
    int port = Integer.parseInt(m.group(2));
    if (port == 0 && portZeroDisables) {
      return Optional.empty();
    }
    String host = m.group(1).replaceAll("^\\[|]$", "");
    return Optional.of(
        host.isEmpty() ? new InetSocketAddress(port) : new InetSocketAddress(host, port));
  }

  /** A Go duration: {@code 15s}, {@code 1m30s}, {@code 500ms}. */
  static Duration duration(String flag, String value) {
    Matcher m = Pattern.compile("(\\d+)(ms|s|m|h)").matcher(value);
    Duration total = Duration.ZERO;
    int end = 0;
    while (m.find() && m.start() == end) {
      long n = Long.parseLong(m.group(1));
      total =
          total.plus(
              switch (m.group(2)) {
                case "ms" -> Duration.ofMillis(n);
                case "s" -> Duration.ofSeconds(n);
                case "m" -> Duration.ofMinutes(n);
                default -> Duration.ofHours(n);
              });
      end = m.end();
    }
    if (end == 0 || end != value.length() || total.isZero()) {
      throw new IllegalArgumentException(
          "--" + flag + " must be a duration such as 15s or 1m30s, not '" + value + "'");
    }
    return total;
  }

  static int parseInt(String flag, String value, int min, int max) {
    try {
      int n = Integer.parseInt(value);
      if (n < min || n > max) {
        throw new NumberFormatException();
      }
      return n;
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(
          "--" + flag + " must be a number from " + min + " to " + max + ", not '" + value + "'");
    }
  }

  /** klog's verbosity as the Go provider uses it: 1 warning, 3 info, 6 debug, 9 trace. */
  static String verbosity(String value) {
    int v;
    try {
      v = Integer.parseInt(value);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("-v must be a number, not '" + value + "'");
    }
    if (v < 0) {
      throw new IllegalArgumentException("-v must be 0 or more, not '" + value + "'");
    }
    return v >= 9 ? "TRACE" : v >= 6 ? "DEBUG" : v >= 3 ? "INFO" : "WARN";
  }

  static String level(String value) {
    String level = value.toUpperCase(Locale.ROOT);
    if (!Set.of("ERROR", "WARN", "INFO", "DEBUG", "TRACE").contains(level)) {
      throw new IllegalArgumentException(
          "--log-level must be ERROR, WARN, INFO, DEBUG or TRACE, not '" + value + "'");
    }
    return level;
  }

  static LogFormat format(String flag, String value) {
    return switch (value.toLowerCase(Locale.ROOT)) {
      case "text" -> LogFormat.TEXT;
      case "json" -> LogFormat.JSON;
      default ->
          throw new IllegalArgumentException(
              "--" + flag + " must be text or json, not '" + value + "'");
    };
  }

  static String tlsVersion(String value) {
    if (!value.equals("VersionTLS12") && !value.equals("VersionTLS13")) {
      throw new IllegalArgumentException(
          "--tls-min-version must be VersionTLS12 or VersionTLS13, not '" + value + "'");
    }
    return value;
  }
}
