package io.openshiftagent.testsupport;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One child process of the tests (a provider's jar, an upstream controller manager,
 * assisted-service, PostgreSQL): its command and environment, its standard output and error
 * appended to one log across restarts, a readiness probe, and the ways it ends (a signal, SIGTERM
 * then SIGKILL, SIGKILL alone). It can be started again, once gone, with the same command.
 */
public final class ChildProcess implements AutoCloseable {
  /** Whether the process is ready (e.g. its health endpoint answers 200); false while starting. */
  @FunctionalInterface
  public interface Probe {
    boolean ready() throws IOException, InterruptedException;
  }

  private static final Pattern VM_HWM = Pattern.compile("(?m)^VmHWM:\\s+(\\d+) kB");
  private static final Duration PROBE_INTERVAL = Duration.ofMillis(50);

  private final String name;
  private final List<String> command;
  private final Map<String, String> environment;
  private final boolean inheritEnvironment;
  private final Path log;
  private final Probe probe;
  private volatile Process process;
  private volatile long startedNanos;

  private ChildProcess(Builder builder) {
    this.name = builder.name;
    this.command = List.copyOf(builder.command);
    this.environment = Map.copyOf(builder.environment);
    this.inheritEnvironment = builder.inheritEnvironment;
    this.log = builder.log;
    this.probe = builder.probe;
  }

  /** How to start {@code command}, named {@code name} in messages, its output in {@code log}. */
  public static Builder builder(String name, List<String> command, Path log) {
    return new Builder(name, command, log);
  }

  /** What a child process is made of; {@link #start()} starts it. */
  public static final class Builder {
    private final String name;
    private final List<String> command;
    private final Path log;
    private final Map<String, String> environment = new LinkedHashMap<>();
    private boolean inheritEnvironment = true;
    private boolean freshLog;
    private Probe probe = () -> true;

    private Builder(String name, List<String> command, Path log) {
      this.name = name;
      this.command = command;
      this.log = log;
    }

    /** A variable added to (or replacing one of) the environment. */
    public Builder env(String variable, String value) {
      environment.put(variable, value);
      return this;
    }

    public Builder env(Map<String, String> variables) {
      environment.putAll(variables);
      return this;
    }

    /** Only the variables given, nothing of the JVM's environment. */
    public Builder onlyGivenEnvironment() {
      inheritEnvironment = false;
      return this;
    }

    /** The log starts empty (else it is appended to). */
    public Builder freshLog() {
      freshLog = true;
      return this;
    }

    public Builder readiness(Probe value) {
      probe = value;
      return this;
    }

    /** Starts the process (without waiting for it to be ready). */
    public ChildProcess start() {
      ChildProcess child = new ChildProcess(this);
      try {
        Files.createDirectories(log.toAbsolutePath().getParent());
        if (freshLog) {
          Files.deleteIfExists(log);
        }
        child.launch();
      } catch (IOException e) {
        throw new UncheckedIOException("cannot start " + name, e);
      }
      return child;
    }
  }

  private void launch() throws IOException {
    ProcessBuilder builder =
        new ProcessBuilder(command)
            .redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
    if (!inheritEnvironment) {
      builder.environment().clear();
    }
    builder.environment().putAll(environment);
    startedNanos = System.nanoTime();
    process = builder.start();
  }

  /**
   * Waits until the probe says ready and returns how long that took from the process's start; fails
   * with the log's end when the process exits first or the timeout passes.
   */
  public Duration awaitReady(Duration timeout) throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (System.nanoTime() < deadline) {
      if (!process.isAlive()) {
        throw new IllegalStateException(
            name + " exited with " + process.exitValue() + " before it was ready\n" + tail(40));
      }
      try {
        if (probe.ready()) {
          return Duration.ofNanos(System.nanoTime() - startedNanos);
        }
      } catch (IOException notYetAnswering) {
        // Still starting.
      }
      Thread.sleep(PROBE_INTERVAL.toMillis());
    }
    throw new IllegalStateException(name + " not ready after " + timeout + "\n" + tail(40));
  }

  /** Starts it again with the same command, environment and log, once the last one is gone. */
  public void restart() throws IOException {
    if (process.isAlive()) {
      throw new IllegalStateException(name + " still runs: stop or kill it first");
    }
    launch();
  }

  /** SIGKILL, and waits until the process is gone. */
  public void kill() throws InterruptedException {
    process.destroyForcibly();
    process.waitFor();
  }

  /** SIGTERM; whether the process exited within {@code grace}. */
  public boolean terminate(Duration grace) throws InterruptedException {
    process.destroy();
    return process.waitFor(grace.toMillis(), TimeUnit.MILLISECONDS);
  }

  /**
   * Sends {@code signal} (e.g. {@code INT}); SIGKILL when the process has not exited within {@code
   * grace}.
   */
  public void stop(String signal, Duration grace) throws InterruptedException {
    if (!process.isAlive()) {
      return;
    }
    try {
      new ProcessBuilder("kill", "-" + signal, Long.toString(process.pid())).start().waitFor();
    } catch (IOException e) {
      process.destroy();
    }
    if (!process.waitFor(grace.toMillis(), TimeUnit.MILLISECONDS)) {
      kill();
    }
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

  public String name() {
    return name;
  }

  /** Its standard output and error, across restarts. */
  public Path log() {
    return log;
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

  /** The last {@code count} lines of the log, headed by its path. */
  public String tail(int count) {
    try {
      List<String> lines = Files.readAllLines(log);
      return "--- last lines of "
          + log
          + "\n"
          + String.join("\n", lines.subList(Math.max(0, lines.size() - count), lines.size()));
    } catch (IOException e) {
      return "(cannot read " + log + ": " + e.getMessage() + ")";
    }
  }

  /** SIGTERM, and SIGKILL when the process has not exited 10 s later. */
  @Override
  public void close() {
    Process running = process;
    if (running == null || !running.isAlive()) {
      return;
    }
    try {
      if (!terminate(Duration.ofSeconds(10))) {
        kill();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      running.destroyForcibly();
    }
  }
}
