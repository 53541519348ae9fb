package io.openshiftagent.testsupport;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A command the tests run as a child process, started again with the same command and environment
 * after a kill, its output appended to one log across restarts, ready once {@code /readyz} on its
 * health port answers 200: what a provider's process and an upstream manager's have in common.
 * Optionally started again when it exits by itself, as the kubelet restarts a Deployment's
 * container ({@link #restartWhenItExitsByItself}).
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

  /** The kubelet's back-off between restarts of a container that keeps exiting: 10 s to 5 min. */
  private static final Pattern VM_HWM = Pattern.compile("(?m)^VmHWM:\\s+(\\d+) kB");

  private static final Duration FIRST_BACK_OFF = Duration.ofSeconds(10);

  private static final Duration MAX_BACK_OFF = Duration.ofMinutes(5);

  /** How long a container must run for the kubelet to forget its back-off. */
  private static final Duration BACK_OFF_RESET = Duration.ofMinutes(10);

  private boolean restartWhenExited;
  private boolean stopRequested;
  private Duration backOff = Duration.ZERO;
  private final List<Instant> exitsByItself = new ArrayList<>();

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
    synchronized (this) {
      stopRequested = false;
      startedNanos = System.nanoTime();
      Process started = builder.start();
      process = started;
      started.onExit().thenRun(() -> exited(started));
    }
  }

  /**
   * From now on, when the process exits without being stopped or killed through this object, it is
   * started again as the kubelet restarts a Deployment's container: at once the first time, then
   * after 10 s, doubling up to 5 min, the delay forgotten once a process ran 10 minutes.
   */
  public synchronized void restartWhenItExitsByItself() {
    restartWhenExited = true;
  }

  /**
   * When the process exited by itself (not stopped or killed through this object), oldest first.
   */
  public synchronized List<Instant> exitsByItself() {
    return List.copyOf(exitsByItself);
  }

  private synchronized void exited(Process gone) {
    if (gone != process || stopRequested) {
      return;
    }
    exitsByItself.add(Instant.now());
    if (!restartWhenExited) {
      return;
    }
    if (Duration.ofNanos(System.nanoTime() - startedNanos).compareTo(BACK_OFF_RESET) >= 0) {
      backOff = Duration.ZERO;
    }
    Duration delay = backOff;
    backOff =
        backOff.isZero()
            ? FIRST_BACK_OFF
            : backOff.multipliedBy(2).compareTo(MAX_BACK_OFF) > 0
                ? MAX_BACK_OFF
                : backOff.multipliedBy(2);
    CompletableFuture.runAsync(
        () -> relaunchAfterExit(gone),
        CompletableFuture.delayedExecutor(delay.toMillis(), TimeUnit.MILLISECONDS));
  }

  private synchronized void relaunchAfterExit(Process gone) {
    if (gone != process || stopRequested) {
      return; // stopped, or started again by the test meanwhile
    }
    try {
      launch();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot start " + name + " again", e);
    }
  }

  private synchronized void stopRequested() {
    stopRequested = true;
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
    return statusOf(HTTP, URI.create("http://127.0.0.1:" + healthPort + path));
  }

  /**
   * The status of a GET of {@code uri} through {@code client} (a process that serves its probes
   * over HTTPS brings a client that trusts it), 0 when nothing answers.
   */
  protected static int statusOf(HttpClient client, URI uri) {
    try {
      return client
          .send(
              HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(5)).build(),
              HttpResponse.BodyHandlers.discarding())
          .statusCode();
    } catch (IOException notListening) {
      return 0;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
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
    stopRequested();
    process.destroy();
    return process.waitFor(grace.toMillis(), TimeUnit.MILLISECONDS);
  }

  /** SIGKILL, and waits for the process to be gone. */
  public void kill() throws InterruptedException {
    stopRequested();
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

  /** The peak resident set size of the running process so far (VmHWM), in bytes. */
  public long peakResidentBytes() throws IOException {
    Matcher m = VM_HWM.matcher(Files.readString(Path.of("/proc", Long.toString(pid()), "status")));
    if (!m.find()) {
      throw new IllegalStateException("no VmHWM in /proc/" + pid() + "/status");
    }
    return Long.parseLong(m.group(1)) * 1024;
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
    stopRequested();
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
