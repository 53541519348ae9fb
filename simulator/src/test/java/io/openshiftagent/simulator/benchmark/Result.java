package io.openshiftagent.simulator.benchmark;

import io.openshiftagent.testsupport.ProviderJar;
import io.openshiftagent.testsupport.ProviderRequests;
import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.stream.Stream;

/**
 * One run's figures per Machine, kept (a properties file per size) so that the next run at another
 * size can show how they change with the number of clusters.
 *
 * @param requests each provider's hub requests per Machine
 * @param cpuMillisPerMachine each provider's CPU time per Machine from the first apply to the end
 */
record Result(
    int clusters,
    int workers,
    String when,
    String commit,
    String loadBefore,
    String loadAfter,
    Map<ProviderJar, Double> requests,
    Map<ProviderJar, Long> cpuMillisPerMachine) {

  /**
   * The commit measured, as hack/benchmark.sh passes it ({@code git describe --always --dirty}).
   */
  static final String COMMIT = System.getProperty("benchmark.commit", "unknown");

  static Result of(
      int clusters,
      int workers,
      ProviderRequests requests,
      Map<ProviderJar, Duration> cpu,
      String loadBefore,
      String loadAfter) {
    Map<ProviderJar, Double> perMachine = new EnumMap<>(ProviderJar.class);
    Map<ProviderJar, Long> cpuPerMachine = new EnumMap<>(ProviderJar.class);
    for (ProviderJar jar : ProviderJar.values()) {
      perMachine.put(jar, requests.perMachine(jar));
      cpuPerMachine.put(jar, cpu.get(jar).toMillis() / requests.machines());
    }
    return new Result(
        clusters,
        workers,
        ZonedDateTime.now().withNano(0).toLocalDateTime().toString(),
        COMMIT,
        loadBefore,
        loadAfter,
        perMachine,
        cpuPerMachine);
  }

  String size() {
    return clusters + " x (3+" + workers + ")";
  }

  double requestsPerMachine() {
    return requests.values().stream().mapToDouble(Double::doubleValue).sum();
  }

  /** Writes this run's file in {@code dir} (replacing the last run of the same size). */
  Result save(Path dir) {
    Properties p = new Properties();
    p.setProperty("clusters", Integer.toString(clusters));
    p.setProperty("workers", Integer.toString(workers));
    p.setProperty("when", when);
    p.setProperty("commit", commit);
    p.setProperty("loadBefore", loadBefore);
    p.setProperty("loadAfter", loadAfter);
    for (ProviderJar jar : ProviderJar.values()) {
      p.setProperty("requests." + jar.command, Double.toString(requests.get(jar)));
      p.setProperty("cpuMillis." + jar.command, Long.toString(cpuMillisPerMachine.get(jar)));
    }
    try {
      Files.createDirectories(dir);
      try (Writer out =
          Files.newBufferedWriter(dir.resolve(clusters + "x" + workers + ".properties"))) {
        p.store(out, "openshift-agent scale benchmark, per Machine");
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return this;
  }

  /** The latest run of each size kept in {@code dir}, smallest first. */
  static List<Result> latestOfEachSize(Path dir) {
    List<Result> results = new ArrayList<>();
    try (Stream<Path> files = Files.list(dir)) {
      for (Path file : files.filter(f -> f.toString().endsWith(".properties")).toList()) {
        results.add(load(file));
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    results.sort(Comparator.comparingInt((Result r) -> r.clusters() * (3 + r.workers())));
    return results;
  }

  private static Result load(Path file) throws IOException {
    Properties p = new Properties();
    try (Reader in = Files.newBufferedReader(file)) {
      p.load(in);
    }
    Map<ProviderJar, Double> requests = new EnumMap<>(ProviderJar.class);
    Map<ProviderJar, Long> cpu = new EnumMap<>(ProviderJar.class);
    for (ProviderJar jar : ProviderJar.values()) {
      requests.put(jar, Double.parseDouble(p.getProperty("requests." + jar.command, "0")));
      cpu.put(jar, Long.parseLong(p.getProperty("cpuMillis." + jar.command, "0")));
    }
    return new Result(
        Integer.parseInt(p.getProperty("clusters")),
        Integer.parseInt(p.getProperty("workers")),
        p.getProperty("when"),
        p.getProperty("commit"),
        p.getProperty("loadBefore"),
        p.getProperty("loadAfter"),
        requests,
        cpu);
  }
}
