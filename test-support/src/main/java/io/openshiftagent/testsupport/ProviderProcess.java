package io.openshiftagent.testsupport;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A provider started from its runnable jar ({@code java -jar}) as a child process against an API
 * server: its own kubeconfig file and log in a directory of its own, probes and metrics on free
 * ports. It can be stopped with SIGTERM, killed with SIGKILL, and started again on the same ports.
 */
public final class ProviderProcess extends RestartableProcess {

  private final ProviderJar jar;
  private final int metricsPort;

  /** Done once the class-data archive this process writes at exit, if any, is kept or dropped. */
  private CompletableFuture<Void> classDataKept = CompletableFuture.completedFuture(null);

  private ProviderProcess(
      ProviderJar jar,
      List<String> command,
      Map<String, String> environment,
      Path log,
      int healthPort,
      int metricsPort)
      throws IOException {
    super(jar.command, command, environment, log, healthPort);
    this.jar = jar;
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
    private boolean sharedClassData;

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

    /**
     * Loads the jar's classes from the archive the test JVM shares between its providers ({@link
     * ClassDataArchive}): the same provider, starting on less CPU.
     */
    public Builder sharedClassData() {
      sharedClassData = true;
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
        ClassDataArchive archive = sharedClassData ? ClassDataArchive.of(jar.path()) : null;
        ClassDataArchive.Start classData =
            archive != null ? archive.next() : new ClassDataArchive.Start(List.of(), null);
        command.addAll(classData.jvmOptions());
        command.addAll(
            List.of(
                "-jar",
                jar.path().toString(),
                "--kubeconfig=" + kubeconfig,
                "--health-probe-bind-address=:" + healthPort,
                // Plain HTTP: the tests read the metrics without a token.
                "--metrics-bind-address=:" + metricsPort));
        command.addAll(flags);
        ProviderProcess provider =
            new ProviderProcess(
                jar, command, environment, dir.resolve("provider.log"), healthPort, metricsPort);
        provider.launch();
        if (classData.writes() != null) {
          provider.classDataKept =
              ProcessHandle.of(provider.pid())
                  .map(ProcessHandle::onExit)
                  .orElse(CompletableFuture.completedFuture(null))
                  .thenRun(() -> archive.exited(classData.writes(), environment));
        }
        return provider;
      } catch (IOException e) {
        throw new UncheckedIOException("cannot start " + jar.command, e);
      }
    }
  }

  /** Stops the process, and keeps the class-data archive it wrote before the test JVM may exit. */
  @Override
  public void close() {
    super.close();
    try {
      classDataKept.get(60, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (ExecutionException | TimeoutException notKept) {
      // Only a slower start for the providers after it.
    }
  }

  /** The Prometheus text of {@code /metrics}. */
  public String metrics() throws IOException {
    return get(metricsPort, "/metrics").body();
  }

  /** Starts the provider again with the same command, ports and log, once the last one is gone. */
  public void restart() throws IOException, InterruptedException {
    launch();
  }

  public ProviderJar jar() {
    return jar;
  }

  public int metricsPort() {
    return metricsPort;
  }
}
