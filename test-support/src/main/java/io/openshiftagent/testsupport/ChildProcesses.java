package io.openshiftagent.testsupport;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

/** Stopping the child processes tests start. */
public final class ChildProcesses {
  private ChildProcesses() {}

  /** SIGTERM, then SIGKILL if the process still runs after {@code grace}. */
  public static void stop(Process process, Duration grace) {
    process.destroy();
    try {
      if (!process.waitFor(grace.toMillis(), TimeUnit.MILLISECONDS)) {
        process.destroyForcibly();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      process.destroyForcibly();
    }
  }
}
