package io.openshiftagent.simulator.benchmark.scale;

import io.openshiftagent.simulator.benchmark.Footprint;
import io.openshiftagent.simulator.benchmark.Percentiles;
import io.openshiftagent.simulator.benchmark.ProviderStages;
import io.openshiftagent.simulator.benchmark.Timeline;
import io.openshiftagent.testsupport.AuditLog;
import io.openshiftagent.testsupport.ProviderJar;
import io.openshiftagent.testsupport.ProviderRequests;
import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Properties;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * What the scale mode prints, phase by phase, and the goals it checks (docs/benchmarks.md, "Hub
 * scale"). Each size's per-Machine figures are kept in {@code <work dir>-results/} so that a run
 * shows how they change from the smallest size run to the largest.
 */
final class ScaleFigures {
  static final String COMMIT = System.getProperty("benchmark.commit", "unknown");

  private static final long HEAP_GOAL = 512L << 20;
  private static final double REQUESTS_GOAL = ProviderRequests.BUDGET_PER_MACHINE;
  private static final long STAGE_P95_GOAL_MS = 1_000;
  private static final long READY_GOAL_MS = 30_000;
  private static final double FLAT = 0.20;

  private final ScaleOptions options;
  private final Path results;
  private final Properties result = new Properties();

  ScaleFigures(ScaleOptions options) {
    this.options = options;
    this.results = options.workDir().resolveSibling(options.workDir().getFileName() + "-results");
    put("clusters", options.clusters());
    put("installing", options.installing());
    put("pace", options.paceName());
    put("commit", COMMIT);
  }

  void header(String now) {
    put("when", now);
    put("loadBefore", loadAverage());
    System.out.printf(
        "openshift-agent hub scale benchmark, %s, commit %s%n"
            + "machine: %d CPUs, %d MiB memory; load average before: %s%n"
            + "%d single-node clusters, at most %d installing at once, pace %s; our providers from"
            + " their jars (one replica each, as their ServiceAccounts, JVM in the chart's limits:"
            + " 512 MiB, 1 CPU); the real hub API server; stand-ins of Cluster API, CAPM3, the"
            + " baremetal-operator, assisted-service and the installed clusters in the benchmark's"
            + " JVM%n%n",
        now,
        COMMIT,
        Runtime.getRuntime().availableProcessors(),
        memoryMiB(),
        result.getProperty("loadBefore"),
        options.clusters(),
        options.installing(),
        options.paceName());
  }

  // ---- the fleet installing ----

  void install(
      Timeline timeline,
      Map<String, Long> applied,
      List<AuditLog.Request> all,
      Map<ProviderJar, Duration> cpu,
      Map<ProviderJar, Footprint> footprints,
      long millis) {
    int machines = options.clusters();
    System.out.printf(
        "%nInstallation: %d clusters in %.0f s (%.0f per minute)%n",
        applied.size(), millis / 1e3, applied.size() * 60_000.0 / millis);
    System.out.printf("  per cluster, from its apply (s)        n     p50     p95     max%n");
    row(
        "control plane Available (ours)",
        since(applied, ns -> mark(timeline, "OpenshiftAssistedControlPlane", ns, "Available")));
    row(
        "Cluster Available (stand-in)",
        since(applied, ns -> ScaleBenchmark.finishedAt(timeline, ns)));

    List<ProviderStages.Stage> stages = ProviderStages.measure(timeline, applied.keySet());
    System.out.printf(
        "%nTime our providers add at each stage, from the last event they wait on to their write"
            + " (ms):%n");
    long worst = 0;
    for (ProviderStages.Stage stage : stages) {
      Percentiles p = Percentiles.of(stage.millis());
      worst = Math.max(worst, p.p95());
      System.out.printf(
          "  %-46s %6d %7d %7d %7d%n",
          stage.provider() + ": " + stage.name(), p.count(), p.p50(), p.p95(), p.max());
    }
    put("stageP95Max", worst);

    ProviderRequests ours = ProviderRequests.of(all, machines);
    System.out.printf(
        "%nHub requests per Machine while installing (%d Machines; audit log):%n", machines);
    System.out.print(ours.table());
    for (ProviderJar jar : ProviderJar.values()) {
      put(jar, "requestsPerMachine", String.format("%.2f", ours.perMachine(jar)));
    }
    clients(all);

    System.out.printf(
        "%nProviders while installing:%n  %-22s %10s %10s %10s %5s %10s %9s %12s%n",
        "", "heap peak", "committed", "live peak", "GCs", "RSS peak", "CPU", "CPU/Machine");
    for (ProviderJar jar : ProviderJar.values()) {
      Footprint f = footprints.get(jar);
      List<String> d = f.describe();
      long cpuMs = cpu.get(jar).toMillis();
      System.out.printf(
          "  %-22s %10s %10s %10s %5s %10s %7.1f s %9d ms%n",
          jar.command,
          d.get(0),
          d.get(1),
          d.get(2),
          d.get(3),
          d.get(4),
          cpuMs / 1e3,
          cpuMs / machines);
      put(jar, "heapPeak", f.peakHeapUsed());
      put(jar, "rssPeak", f.peakRss());
      put(jar, "cpuMsPerMachine", cpuMs / machines);
    }
  }

  // ---- the fleet installed ----

  void steady(
      List<AuditLog.Request> all,
      Map<ProviderJar, Duration> cpu,
      Map<ProviderJar, HeapHistogram> empty,
      Map<ProviderJar, HeapHistogram> steady,
      Map<ProviderJar, Long> rss,
      long looks) {
    int machines = options.clusters();
    double minutes = options.window().toSeconds() / 60.0;
    put("looksPerMinute", String.format("%.1f", looks / minutes));
    System.out.printf(
        "%nThe fleet installed, %.0f minutes (the control plane looks at each installed cluster"
            + " every minute):%n  %-22s %12s %12s %14s %10s %12s %16s%n",
        minutes,
        "",
        "live, empty",
        "live, fleet",
        "per Machine",
        "RSS",
        "CPU/minute",
        "CPU/Machine/min");
    for (ProviderJar jar : ProviderJar.values()) {
      long perMachine = (steady.get(jar).liveBytes() - empty.get(jar).liveBytes()) / machines;
      double cpuPerMinute = cpu.get(jar).toMillis() / minutes;
      System.out.printf(
          "  %-22s %12s %12s %11.1f KiB %10s %9.1f s %13.2f ms%n",
          jar.command,
          Footprint.mib(empty.get(jar).liveBytes()),
          Footprint.mib(steady.get(jar).liveBytes()),
          perMachine / 1024.0,
          Footprint.mib(rss.get(jar)),
          cpuPerMinute / 1e3,
          cpuPerMinute / machines);
      put(jar, "liveSteady", steady.get(jar).liveBytes());
      put(jar, "bytesPerMachine", perMachine);
      put(jar, "cpuMsPerMachineMinute", String.format("%.2f", cpuPerMinute / machines));
    }
    System.out.printf(
        "  the control plane looked at installed clusters %d times (%.1f per minute, %.2f per"
            + " cluster per minute): %.1f ms of its CPU per look, its reconciles included%n",
        looks,
        looks / minutes,
        looks / minutes / machines,
        looks == 0 ? 0 : cpu.get(ProviderJar.CONTROLPLANE).toMillis() / (double) looks);
    ProviderRequests ours = ProviderRequests.of(all, machines);
    System.out.printf("  hub requests in those minutes (per Machine):%n");
    System.out.print(ours.table());
    System.out.printf(
        "%n  What the heap holds with the fleet (jcmd GC.class_histogram, largest first):%n");
    for (ProviderJar jar : ProviderJar.values()) {
      System.out.printf("  %s:%n", jar.command);
      steady.get(jar).top().stream()
          .limit(10)
          .forEach(
              e ->
                  System.out.printf(
                      "    %10s %10d  %s%n",
                      Footprint.mib(e.bytes()), e.instances(), e.className()));
    }
  }

  // ---- a restart with the fleet installed ----

  void restart(
      List<AuditLog.Request> all,
      Map<ProviderJar, Duration> ready,
      Map<ProviderJar, Duration> cpu,
      Map<ProviderJar, Footprint> footprints) {
    int machines = options.clusters();
    System.out.printf(
        "%nRestart of both providers with the fleet installed, then %d minutes:%n"
            + "  %-22s %9s %10s %10s %9s %10s %14s%n",
        options.window().toMinutes(),
        "",
        "ready",
        "heap peak",
        "RSS peak",
        "CPU",
        "writes",
        "max per object");
    ProviderRequests ours = ProviderRequests.of(all, machines);
    for (ProviderJar jar : ProviderJar.values()) {
      Map<String, Long> writes = new TreeMap<>();
      ours.requests().stream()
          .filter(r -> ProviderRequests.provider(r).orElseThrow() == jar && r.isWrite())
          .forEach(
              r ->
                  writes.merge(
                      r.resource().replaceFirst("/.*", "") + " " + r.namespace() + "/" + r.name(),
                      1L,
                      Long::sum));
      long total = writes.values().stream().mapToLong(Long::longValue).sum();
      long max = writes.values().stream().mapToLong(Long::longValue).max().orElse(0);
      Footprint f = footprints.get(jar);
      System.out.printf(
          "  %-22s %7.1f s %10s %10s %7.1f s %10d %14d%n",
          jar.command,
          ready.get(jar).toMillis() / 1e3,
          Footprint.mib(f.peakHeapUsed()),
          Footprint.mib(f.peakRss()),
          cpu.get(jar).toMillis() / 1e3,
          total,
          max);
      put(jar, "readyAfterRestartMs", ready.get(jar).toMillis());
      put(jar, "writesAfterRestart", total);
      put(jar, "maxWritesPerObjectAfterRestart", max);
      put(
          jar,
          "requestsAfterRestart",
          ours.requests().stream()
              .filter(r -> ProviderRequests.provider(r).orElseThrow() == jar)
              .count());
    }
    System.out.printf("  hub requests in those minutes (per Machine):%n");
    System.out.print(ours.table());
  }

  // ---- goals ----

  /** Prints each goal met or missed, and the sizes run so far; whether every goal was met. */
  boolean goals(
      Map<ProviderJar, Footprint> install,
      Map<ProviderJar, HeapHistogram> steady,
      Map<ProviderJar, Duration> ready) {
    put("loadAfter", loadAverage());
    List<Properties> sizes = save();
    System.out.printf(
        "%nPer Machine at each size run (the latest of each, %s):%n", results.toAbsolutePath());
    System.out.printf(
        "  %8s %-22s %-26s %-22s %-18s %-18s%n",
        "clusters",
        "run",
        "requests (boot + cp)",
        "CPU ms (boot, cp)",
        "heap peak MiB",
        "live KiB/Machine");
    for (Properties size : sizes) {
      System.out.printf(
          "  %8s %-22s %-26s %-22s %-18s %-18s%n",
          size.getProperty("clusters"),
          size.getProperty("when", "").replaceAll(":\\d\\d[+-].*|Z$", "")
              + " "
              + size.getProperty("commit"),
          both(size, "requestsPerMachine", " + "),
          both(size, "cpuMsPerMachine", ", "),
          mib(size, ProviderJar.BOOTSTRAP, "heapPeak")
              + ", "
              + mib(size, ProviderJar.CONTROLPLANE, "heapPeak"),
          kib(size, ProviderJar.BOOTSTRAP) + ", " + kib(size, ProviderJar.CONTROLPLANE));
    }
    System.out.println("\nGoals:");
    boolean met = true;
    for (ProviderJar jar : ProviderJar.values()) {
      met &=
          goal(
              install.get(jar).peakHeapUsed() < HEAP_GOAL,
              "%s heap < 512 MiB (peak %s)",
              jar.command,
              Footprint.mib(install.get(jar).peakHeapUsed()));
    }
    double requests =
        Double.parseDouble(result.getProperty("bootstrap-provider.requestsPerMachine"))
            + Double.parseDouble(result.getProperty("controlplane-provider.requestsPerMachine"));
    met &=
        goal(
            requests <= REQUESTS_GOAL,
            "<= 15 hub requests per Machine, both providers (%.1f)",
            requests);
    long stage = Long.parseLong(result.getProperty("stageP95Max"));
    met &=
        goal(
            stage <= STAGE_P95_GOAL_MS,
            "stage p95 <= 1 s with %d installing (highest %d ms)",
            options.installing(),
            stage);
    for (ProviderJar jar : ProviderJar.values()) {
      met &=
          goal(
              ready.get(jar).toMillis() <= READY_GOAL_MS,
              "%s ready <= 30 s after its start with the fleet (%.1f s)",
              jar.command,
              ready.get(jar).toMillis() / 1e3);
      long max =
          Long.parseLong(result.getProperty(jar.command + ".maxWritesPerObjectAfterRestart"));
      met &=
          goal(max <= 1, "%s <= 1 write per object after the restart (most: %d)", jar.command, max);
    }
    if (sizes.size() > 1) {
      Properties smallest = sizes.get(0);
      Properties largest = sizes.get(sizes.size() - 1);
      for (ProviderJar jar : ProviderJar.values()) {
        for (String figure : List.of("requestsPerMachine", "cpuMsPerMachine")) {
          double from = Double.parseDouble(smallest.getProperty(jar.command + "." + figure));
          double to = Double.parseDouble(largest.getProperty(jar.command + "." + figure));
          double change = from == 0 ? 0 : (to - from) / from;
          met &=
              goal(
                  Math.abs(change) <= FLAT,
                  "%s %s flat within 20 %% from %s to %s clusters (%+.0f %%)",
                  jar.command,
                  figure,
                  smallest.getProperty("clusters"),
                  largest.getProperty("clusters"),
                  change * 100);
        }
      }
    }
    System.out.println("load average after: " + result.getProperty("loadAfter"));
    return met;
  }

  private static boolean goal(boolean met, String format, Object... args) {
    System.out.println("  " + (met ? "PASS " : "FAIL ") + String.format(format, args));
    return met;
  }

  // ---- kept results ----

  /** Saves this run's figures; returns the latest of each size, smallest first. */
  private List<Properties> save() {
    try {
      Files.createDirectories(results);
      try (Writer out =
          Files.newBufferedWriter(results.resolve("sno-" + options.clusters() + ".properties"))) {
        result.store(out, "hub scale benchmark");
      }
      List<Properties> sizes = new ArrayList<>();
      try (Stream<Path> files = Files.list(results)) {
        for (Path file : files.filter(f -> f.toString().endsWith(".properties")).toList()) {
          Properties p = new Properties();
          try (Reader in = Files.newBufferedReader(file)) {
            p.load(in);
          }
          sizes.add(p);
        }
      }
      sizes.sort(Comparator.comparingInt(p -> Integer.parseInt(p.getProperty("clusters"))));
      return sizes;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private void put(String key, Object value) {
    result.setProperty(key, String.valueOf(value));
  }

  private void put(ProviderJar jar, String key, Object value) {
    put(jar.command + "." + key, value);
  }

  private static String both(Properties p, String figure, String separator) {
    return p.getProperty(ProviderJar.BOOTSTRAP.command + "." + figure, "?")
        + separator
        + p.getProperty(ProviderJar.CONTROLPLANE.command + "." + figure, "?");
  }

  private static String mib(Properties p, ProviderJar jar, String figure) {
    String value = p.getProperty(jar.command + "." + figure);
    return value == null ? "?" : String.valueOf(Long.parseLong(value) >> 20);
  }

  private static String kib(Properties p, ProviderJar jar) {
    String value = p.getProperty(jar.command + ".bytesPerMachine");
    return value == null ? "?" : String.format("%.1f", Long.parseLong(value) / 1024.0);
  }

  // ---- printing ----

  private static void clients(List<AuditLog.Request> all) {
    System.out.printf(
        "%n  All requests to the hub in that window, by client (user agent up to '/'):%n");
    Map<String, List<AuditLog.Request>> byClient = new TreeMap<>();
    for (AuditLog.Request r : all) {
      byClient
          .computeIfAbsent(r.userAgent().replaceFirst("/.*", ""), k -> new ArrayList<>())
          .add(r);
    }
    System.out.printf("  %-44s %9s %12s %12s%n", "", "requests", "server p50", "server p95");
    byClient.forEach(
        (client, requests) -> {
          Percentiles p =
              Percentiles.of(
                  requests.stream()
                      .filter(r -> !r.verb().equals("watch"))
                      .map(r -> Duration.between(r.received(), r.completed()).toMillis())
                      .toList());
          System.out.printf(
              "  %-44s %9d %9d ms %9d ms%n", client, requests.size(), p.p50(), p.p95());
        });
  }

  private static OptionalLong mark(Timeline timeline, String kind, String ns, String mark) {
    int index = Integer.parseInt(ns.substring(ns.lastIndexOf('-') + 1));
    return timeline.first(kind, ns, SnoFleet.cluster(index), mark);
  }

  private static List<Long> since(
      Map<String, Long> applied, java.util.function.Function<String, OptionalLong> event) {
    List<Long> millis = new ArrayList<>();
    applied.forEach((ns, t) -> event.apply(ns).ifPresent(e -> millis.add(e - t)));
    return millis;
  }

  private static void row(String name, List<Long> millis) {
    Percentiles p = Percentiles.of(millis);
    System.out.printf(
        "  %-36s %6d %7.1f %7.1f %7.1f%n",
        name, p.count(), p.p50() / 1e3, p.p95() / 1e3, p.max() / 1e3);
  }

  private static String loadAverage() {
    try {
      String[] parts = Files.readString(Path.of("/proc/loadavg")).split(" ");
      return parts[0] + " " + parts[1] + " " + parts[2];
    } catch (IOException e) {
      return "unknown";
    }
  }

  private static long memoryMiB() {
    try {
      for (String line : Files.readAllLines(Path.of("/proc/meminfo"))) {
        if (line.startsWith("MemTotal:")) {
          return Long.parseLong(line.replaceAll("\\D", "")) / 1024;
        }
      }
    } catch (IOException e) {
      // not Linux
    }
    return 0;
  }
}
