package io.openshiftagent.testsupport;

import java.io.IOException;
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

/**
 * A command the tests run as a child process, started again with the same command and environment
 * after a kill, its output appended to one log across restarts, ready once {@code /readyz} on its
 * health port answers 200: what a provider's process and an upstream manager's have in common.
 */
public abstract class RestartableProcess implements AutoCloseable {
  private static final HttpClient HTTP =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

  private final String name;
  private final List<String> command;
  private final Map<String, String> environment;
  private final Path log;
  private final int healthPort;
  private volatile Process process;
  private volatile long startedNanos;

  /**
   * A process of {@code command} whose health endpoint listens on 127.0.0.1:{@code healthPort};
   * {@code log}'s directory is made, the log itself started afresh.
   */
  protected RestartableProcess(
      String name, List<String> command, Map<String, String> environment, Path log, int healthPort)
      throws IOException {
    this.name = name;
    this.command = List.copyOf(command);
    this.environment = Map.copyOf(environment);
    this.log = log;
    this.healthPort = healthPort;
    Files.createDirectories(log.getParent());
    Files.deleteIfExists(log);
  }

  /** Starts the command, the first time or again once the last process is gone. */
  protected void launch() throws IOException {
    if (process != null && process.isAlive()) {
      throw new IllegalStateException(name + " still runs: stop or kill it first");
    }
    ProcessBuilder builder =
        new ProcessBuilder(command)
            .redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
    builder.environment().putAll(environment);
    startedNanos = System.nanoTime();
    process = builder.start();
  }

  /**
   * Waits until {@code /readyz} answers 200 and returns how long that took from the process's
   * start; fails with the log's end when the process exits or the timeout passes.
   */
  public Duration awaitReady(Duration timeout) throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (System.nanoTime() < deadline) {
      if (!process.isAlive()) {
        throw new IllegalStateException(
            name + " exited with " + process.exitValue() + " before it was ready\n" + tail());
      }
      if (status("/readyz") == 200) {
        return Duration.ofNanos(System.nanoTime() - startedNanos);
      }
      Thread.sleep(50);
    }
    throw new IllegalStateException(name + " not ready after " + timeout + "\n" + tail());
  }

  /** The HTTP status of a probe path ({@code /healthz}, {@code /readyz}), 0 when unreachable. */
  public int status(String path) {
    try {
      return get(healthPort, path).statusCode();
    } catch (IOException notListening) {
      return 0;
    }
  }

  /** GET {@code path} on 127.0.0.1:{@code port}. */
  protected static HttpResponse<String> get(int port, String path) throws IOException {
    try {
      return HTTP.send(
          HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
              .timeout(Duration.ofSeconds(5))
              .build(),
          HttpResponse.BodyHandlers.ofString());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException(e);
    }
  }

  /** SIGTERM; whether the process exited within {@code grace}. */
  public boolean terminate(Duration grace) throws InterruptedException {
    process.destroy();
    return process.waitFor(grace.toMillis(), TimeUnit.MILLISECONDS);
  }

  /** SIGKILL, and waits for the process to be gone. */
  public void kill() throws InterruptedException {
    process.destroyForcibly();
    process.waitFor();
  }

  public int healthPort() {
    return healthPort;
  }

  public String name() {
    return name;
  }

  public boolean isAlive() {
    return process.isAlive();
  }

  public int exitValue() {
    return process.exitValue();
  }

  public long pid() {
    return process.pid();
  }

  /** The CPU time the running process has used so far, user and system. */
  public Duration cpuTime() {
    return process.info().totalCpuDuration().orElse(Duration.ZERO);
  }

  /** The process's standard output and error, across restarts. */
  public Path log() {
    return log;
  }

  private String tail() {
    try {
      List<String> lines = Files.readAllLines(log);
      return "--- last lines of "
          + log
          + "\n"
          + String.join("\n", lines.subList(Math.max(0, lines.size() - 40), lines.size()));
    } catch (IOException e) {
      return "(cannot read " + log + ": " + e.getMessage() + ")";
    }
  }

  /**
   * SIGTERM, and SIGKILL when the process has not exited 10 s later; returns once it is gone (at
   * once if it never started).
   */
  @Override
  public void close() {
    if (process == null) {
      return;
    }
    try {
      if (!terminate(Duration.ofSeconds(10))) {
        kill();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      process.destroyForcibly();
    }
  }
}
