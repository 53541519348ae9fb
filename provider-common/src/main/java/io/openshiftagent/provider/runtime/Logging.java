package io.openshiftagent.provider.runtime;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.JsonEncoder;
import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.ConsoleAppender;
import ch.qos.logback.core.encoder.Encoder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Configures logging from the command line: everything to standard output, as text or JSON lines.
 */
public final class Logging {
  /**
   * The Kubernetes client's logger of whole requests and responses (at TRACE): Secrets, kubeconfigs
   * and the tokens in InfraEnv status URLs would all be written out.
   */
  static final String HTTP_BODIES = "io.fabric8.kubernetes.client.http.HttpLoggingInterceptor";

  /**
   * The Kubernetes client's logger that warns, at every informer and operation it sets up, that an
   * alpha or beta API is "unstable": Cluster API's v1beta2, assisted-service's v1beta1 and our own
   * v1alpha2/v1alpha3 are the APIs a user runs, and a WARN nobody can act on hides those that
   * matter (hundreds of lines per installation).
   */
  static final String UNSTABLE_API_WARNINGS =
      "io.fabric8.kubernetes.client.dsl.internal.VersionUsageUtils";

  private Logging() {}

  /** Keeps request and response bodies out of the log at every level (docs/security.md). */
  public static void neverLogHttpBodies() {
    ((LoggerContext) LoggerFactory.getILoggerFactory())
        .getLogger(HTTP_BODIES)
        .setLevel(Level.DEBUG);
  }

  static void configure(String level, ProviderOptions.LogFormat format) {
    LoggerContext context = (LoggerContext) LoggerFactory.getILoggerFactory();
    context.reset();
    Encoder<ILoggingEvent> encoder;
    if (format == ProviderOptions.LogFormat.JSON) {
      // One JSON object per line, with the MDC (JOSDK puts the resource's kind, name and namespace
      // there).
      JsonEncoder json = new JsonEncoder();
      json.setWithSequenceNumber(false);
      json.setWithNanoseconds(false);
      json.setWithContext(false);
      // The message as people read it, not the pattern and its arguments apart.
      json.setWithFormattedMessage(true);
      json.setWithMessage(false);
      json.setWithArguments(false);
      encoder = json;
    } else {
      PatternLayoutEncoder text = new PatternLayoutEncoder();
      text.setPattern(
          "%d{yyyy-MM-dd'T'HH:mm:ss.SSSXXX} %-5level [%thread] %logger{36} %mdc{resource.namespace}/%mdc{resource.name} - %msg%n");
      encoder = text;
    }
    encoder.setContext(context);
    encoder.start();
    ConsoleAppender<ILoggingEvent> stdout = new ConsoleAppender<>();
    stdout.setContext(context);
    stdout.setName("stdout");
    stdout.setEncoder(encoder);
    stdout.start();
    ch.qos.logback.classic.Logger root = context.getLogger(Logger.ROOT_LOGGER_NAME);
    root.setLevel(Level.toLevel(level, Level.INFO));
    root.addAppender(stdout);
    // fabric8 is chatty at INFO about watch reconnects; keep it at WARN unless debugging.
    boolean debugging = level.equals("DEBUG") || level.equals("TRACE");
    context.getLogger("io.fabric8").setLevel(debugging ? Level.toLevel(level) : Level.WARN);
    context
        .getLogger(UNSTABLE_API_WARNINGS)
        .setLevel(debugging ? Level.toLevel(level) : Level.ERROR);
    neverLogHttpBodies();
  }
}
