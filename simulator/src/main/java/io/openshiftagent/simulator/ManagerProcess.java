package io.openshiftagent.simulator;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One upstream controller manager of the world (the Cluster API manager, CAPM3, the
 * baremetal-operator) as a child process: its log (appended to across restarts), its readiness
 * ({@code /readyz} on its health port), SIGKILL and a restart with the same command and ports, as
 * the crash tests need.
 */
final class ManagerProcess implements WorldProcess {
  private static final Logger LOG = LoggerFactory.getLogger(ManagerProcess.class);
  private static final HttpClient HTTP =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
  static final Duration READY_TIMEOUT = Duration.ofSeconds(90);

  private final String name;
  private final List<String> command;
  private final Map<String, String> environment;
  private final Path log;
  private final URI readyz;
  private volatile Process process;
  private volatile long startedNanos;

  private ManagerProcess(
      String name, List<String> command, Map<String, String> environment, Path log, int health) {
    this.name = name;
    this.command = List.copyOf(command);
    this.environment = Map.copyOf(environment);
    this.log = log;
    this.readyz = URI.create("http://127.0.0.1:" + health + "/readyz");
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
    ManagerProcess manager = new ManagerProcess(name, command, environment, log, healthPort);
    try {
      Files.createDirectories(log.getParent());
      Files.deleteIfExists(log);
      manager.launch();
      Duration ready = manager.awaitReady();
      LOG.info("{} ready in {} ms (pid {}, log {})", name, ready.toMillis(), manager.pid(), log);
    } catch (IOException e) {
      manager.close();
      throw new UncheckedIOException("cannot start " + name, e);
    } catch (RuntimeException | Error e) {
      manager.close();
      throw e;
    }
    return manager;
  }

  private void launch() throws IOException {
    ProcessBuilder builder =
        new ProcessBuilder(command)
            .redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
    builder.environment().putAll(environment);
    startedNanos = System.nanoTime();
    process = builder.start();
  }

  /** Waits until {@code /readyz} answers 200; how long that took from the process's start. */
  private Duration awaitReady() {
    long deadline = startedNanos + READY_TIMEOUT.toNanos();
    while (System.nanoTime() < deadline) {
      if (!process.isAlive()) {
        throw new IllegalStateException(
            name + " exited with " + process.exitValue() + " before it was ready; see " + log);
      }
      try {
        HttpResponse<Void> response =
            HTTP.send(
                HttpRequest.newBuilder(readyz).timeout(Duration.ofSeconds(2)).build(),
                HttpResponse.BodyHandlers.discarding());
        if (response.statusCode() == 200) {
          return Duration.ofNanos(System.nanoTime() - startedNanos);
        }
      } catch (IOException notYetListening) {
        // Still starting.
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted waiting for " + name, e);
      }
      try {
        Thread.sleep(100);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted waiting for " + name, e);
      }
    }
    throw new IllegalStateException(name + " is not ready after " + READY_TIMEOUT + "; see " + log);
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public void kill() throws InterruptedException {
    process.destroyForcibly();
    process.waitFor();
  }

  @Override
  public Duration restart() throws IOException {
    if (process.isAlive()) {
      throw new IllegalStateException(name + " still runs: kill it first");
    }
    launch();
    return awaitReady();
  }

  @Override
  public void startWithoutWaiting() throws IOException {
    if (process.isAlive()) {
      throw new IllegalStateException(name + " still runs: kill it first");
    }
    launch();
  }

  @Override
  public boolean isAlive() {
    return process.isAlive();
  }

  @Override
  public long pid() {
    return process.pid();
  }

  @Override
  public Path log() {
    return log;
  }

  /** SIGTERM, and SIGKILL when the process has not exited 10 s later. */
  @Override
  public void close() {
    Process running = process;
    if (running == null) {
      return;
    }
    running.destroy();
    try {
      if (!running.waitFor(10, TimeUnit.SECONDS)) {
        running.destroyForcibly();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      running.destroyForcibly();
    }
  }
}
