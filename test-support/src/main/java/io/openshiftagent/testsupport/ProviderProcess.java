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
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A provider started from its runnable jar ({@code java -jar}) as a child process against an API
 * server: its own kubeconfig file and log in a directory of its own, probes and metrics on free
 * ports. It can be stopped with SIGTERM, killed with SIGKILL, and started again on the same ports.
 */
public final class ProviderProcess implements AutoCloseable {
  private static final HttpClient HTTP =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
  private static final Pattern VM_HWM = Pattern.compile("(?m)^VmHWM:\\s+(\\d+) kB");

  private final ProviderJar jar;
  private final List<String> command;
  private final Map<String, String> environment;
  private final Path log;
  private final int healthPort;
  private final int metricsPort;
  private volatile Process process;
  private volatile long startedNanos;

  private ProviderProcess(
      ProviderJar jar,
      List<String> command,
      Map<String, String> environment,
      Path log,
      int healthPort,
      int metricsPort) {
    this.jar = jar;
    this.command = command;
    this.environment = environment;
    this.log = log;
    this.healthPort = healthPort;
    this.metricsPort = metricsPort;
  }

  /**
   * How to start a provider: {@code dir} receives its kubeconfig ({@code kubeconfig}) and its log
   * ({@code provider.log}, started afresh, appended to across restarts).
   */
  public static Builder builder(ProviderJar jar, String kubeconfigYaml, Path dir) {
    return new Builder(jar, kubeconfigYaml, dir);
  }

  /** The options of one provider process; {@link #start()} starts it. */
  public static final class Builder {
    private final ProviderJar jar;
    private final String kubeconfigYaml;
    private final Path dir;
    private final List<String> jvmOptions = new ArrayList<>();
    private final List<String> flags = new ArrayList<>();
    private final Map<String, String> environment = new LinkedHashMap<>();

    private Builder(ProviderJar jar, String kubeconfigYaml, Path dir) {
      this.jar = jar;
      this.kubeconfigYaml = kubeconfigYaml;
      this.dir = dir;
    }

    /** A JVM option on the command line, before {@code -jar}. */
    public Builder jvmOption(String option) {
      jvmOptions.add(option);
      return this;
    }

    /** A provider flag, e.g. {@code --leader-elect=false}. */
    public Builder flag(String flag) {
      flags.add(flag);
      return this;
    }

    public Builder env(String name, String value) {
      environment.put(name, value);
      return this;
    }

    public ProviderProcess start() {
      try {
        Files.createDirectories(dir);
        Path kubeconfig = dir.resolve("kubeconfig");
        Files.writeString(kubeconfig, kubeconfigYaml);
        int healthPort = FreePorts.next();
        int metricsPort = FreePorts.next();
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(jvmOptions);
        command.addAll(
            List.of(
                "-jar",
                jar.path().toString(),
                "--kubeconfig=" + kubeconfig,
                "--health-port=" + healthPort,
                "--metrics-port=" + metricsPort));
        command.addAll(flags);
        ProviderProcess provider =
            new ProviderProcess(
                jar,
                List.copyOf(command),
                Map.copyOf(environment),
                dir.resolve("provider.log"),
                healthPort,
                metricsPort);
        Files.deleteIfExists(provider.log);
        provider.launch();
        return provider;
      } catch (IOException e) {
        throw new UncheckedIOException("cannot start " + jar.command, e);
      }
    }
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

  /**
   * Waits until {@code /readyz} answers 200 and returns how long that took from the process's
   * start; fails with the log's end when the process exits or the timeout passes.
   */
  public Duration awaitReady(Duration timeout) throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (System.nanoTime() < deadline) {
      if (!process.isAlive()) {
        throw new IllegalStateException(
            jar.command
                + " exited with "
                + process.exitValue()
                + " before it was ready\n"
                + tail());
      }
      if (status("/readyz") == 200) {
        return Duration.ofNanos(System.nanoTime() - startedNanos);
      }
      Thread.sleep(50);
    }
    throw new IllegalStateException(jar.command + " not ready after " + timeout + "\n" + tail());
  }

  /** The HTTP status of a probe path ({@code /healthz}, {@code /readyz}), 0 when unreachable. */
  public int status(String path) {
    try {
      return get(healthPort, path).statusCode();
    } catch (IOException notListening) {
      return 0;
    }
  }

  /** The Prometheus text of {@code /metrics}. */
  public String metrics() throws IOException {
    return get(metricsPort, "/metrics").body();
  }

  private static HttpResponse<String> get(int port, String path) throws IOException {
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

  /** Starts the provider again with the same command, ports and log, once the last one is gone. */
  public void restart() throws IOException, InterruptedException {
    if (process.isAlive()) {
      throw new IllegalStateException(jar.command + " still runs: stop or kill it first");
    }
    launch();
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

  public ProviderJar jar() {
    return jar;
  }

  /** The process's standard output and error, across restarts. */
  public Path log() {
    return log;
  }

  public int healthPort() {
    return healthPort;
  }

  public int metricsPort() {
    return metricsPort;
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

  /** SIGTERM, and SIGKILL when the process has not exited 10 s later. */
  @Override
  public void close() {
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
