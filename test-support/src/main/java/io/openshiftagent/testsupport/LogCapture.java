package io.openshiftagent.testsupport;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.IThrowableProxy;
import ch.qos.logback.core.read.ListAppender;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.LogManager;
import java.util.logging.LogRecord;
import org.slf4j.LoggerFactory;

/**
 * Everything logged, at every level, through SLF4J (logback) and java.util.logging (which OkHttp
 * uses) while open: what a test checks for secrets (see {@link SecretScanner}).
 */
public final class LogCapture implements AutoCloseable {

  private final Logger logbackRoot = (Logger) LoggerFactory.getLogger(Logger.ROOT_LOGGER_NAME);
  private final ListAppender<ILoggingEvent> logbackEvents = new ListAppender<>();

  /** Every logger with a level of its own (the root too), and that level, to restore on close. */
  private final Map<Logger, Level> logbackLevels = new LinkedHashMap<>();

  private final java.util.logging.Logger julRoot = LogManager.getLogManager().getLogger("");
  private final java.util.logging.Level julLevel = julRoot.getLevel();
  private final List<String> julMessages = new CopyOnWriteArrayList<>();
  private final Handler julHandler =
      new Handler() {
        @Override
        public void publish(LogRecord record) {
          julMessages.add(
              record.getLoggerName()
                  + " "
                  + record.getMessage()
                  + " "
                  + java.util.Arrays.toString(record.getParameters())
                  + " "
                  + record.getThrown());
        }

        @Override
        public void flush() {}

        @Override
        public void close() {}
      };

  public LogCapture() {
    logbackEvents.start();
    logbackRoot.addAppender(logbackEvents);
    // A logger configured quieter (logback-test.xml keeps io.fabric8 at WARN) would hide its lines.
    for (Logger logger : logbackRoot.getLoggerContext().getLoggerList()) {
      if (logger.getLevel() != null) {
        logbackLevels.put(logger, logger.getLevel());
        logger.setLevel(Level.ALL);
      }
    }
    julHandler.setLevel(java.util.logging.Level.ALL);
    julRoot.addHandler(julHandler);
    julRoot.setLevel(java.util.logging.Level.ALL);
  }

  /** Every captured line, with its arguments and any exception and its causes. */
  public List<String> lines() {
    List<String> lines = new ArrayList<>(julMessages);
    for (ILoggingEvent event : logbackEvents.list) {
      StringBuilder line =
          new StringBuilder(event.getLoggerName()).append(' ').append(event.getFormattedMessage());
      for (IThrowableProxy t = event.getThrowableProxy(); t != null; t = t.getCause()) {
        line.append(" | ").append(t.getClassName()).append(": ").append(t.getMessage());
      }
      lines.add(line.toString());
    }
    return lines;
  }

  /** The captured lines as one text, one per line. */
  public String text() {
    return String.join("\n", lines());
  }

  @Override
  public void close() {
    logbackRoot.detachAppender(logbackEvents);
    logbackLevels.forEach(Logger::setLevel);
    julRoot.removeHandler(julHandler);
    julRoot.setLevel(julLevel);
  }
}
