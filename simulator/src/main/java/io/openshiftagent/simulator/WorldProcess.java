package io.openshiftagent.simulator;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;

/**
 * A process of the world that the fault tests may kill (SIGKILL, as a node failure or an OOM kill)
 * and start again: an upstream controller manager, or one of our providers.
 */
public interface WorldProcess extends AutoCloseable {
  /** The process's name, e.g. {@code capm3-manager}. */
  String name();

  /** SIGKILL, and waits until the process is gone. */
  void kill() throws InterruptedException;

  /** Starts it again (once killed) and waits until it is ready; how long that took. */
  Duration restart() throws IOException, InterruptedException;

  /** Starts it again (once killed) without waiting for it to be ready. */
  void startWithoutWaiting() throws IOException;

  boolean isAlive();

  long pid();

  /** Its standard output and error, across restarts. */
  Path log();

  @Override
  void close();
}
