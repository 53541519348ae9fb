package io.openshiftagent.simulator;

import io.openshiftagent.testsupport.RestartableProcess;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One upstream controller manager of the world (the Cluster API manager, CAPM3, the
 * baremetal-operator) as a child process: its log (appended to across restarts), its readiness
 * ({@code /readyz} on its health port), SIGKILL and a restart with the same command and ports, as
 * the crash tests need.
 */
public final class ManagerProcess extends RestartableProcess implements WorldProcess {
  private static final Logger LOG = LoggerFactory.getLogger(ManagerProcess.class);
  static final Duration READY_TIMEOUT = Duration.ofSeconds(90);

  private ManagerProcess(
      String name, List<String> command, Map<String, String> environment, Path log, int healthPort)
      throws IOException {
    super(name, command, environment, log, healthPort);
  }

  /**
   * Starts {@code command} (whose health endpoint listens on 127.0.0.1:{@code healthPort}), its
   * output in {@code log} (started afresh), and waits until it is ready.
   */
  static ManagerProcess start(
      String name,
      List<String> command,
      Map<String, String> environment,
      Path log,
      int healthPort) {
    ManagerProcess manager;
    try {
      manager = new ManagerProcess(name, command, environment, log, healthPort);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot start " + name, e);
    }
    try {
      Duration ready = manager.restart();
      LOG.info("{} ready in {} ms (pid {}, log {})", name, ready.toMillis(), manager.pid(), log);
      return manager;
    } catch (IOException e) {
      manager.close();
      throw new UncheckedIOException("cannot start " + name, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      manager.close();
      throw new IllegalStateException("interrupted waiting for " + name, e);
    } catch (RuntimeException | Error e) {
      manager.close();
      throw e;
    }
  }

  @Override
  public Duration restart() throws IOException, InterruptedException {
    launch();
    return awaitReady(READY_TIMEOUT);
  }

  @Override
  public void startWithoutWaiting() throws IOException {
    launch();
  }
}
