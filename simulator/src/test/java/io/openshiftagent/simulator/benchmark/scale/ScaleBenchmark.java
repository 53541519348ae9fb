package io.openshiftagent.simulator.benchmark.scale;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.openshiftagent.simulator.benchmark.Footprint;
import io.openshiftagent.simulator.benchmark.ProviderStages;
import io.openshiftagent.simulator.benchmark.Timeline;
import io.openshiftagent.testsupport.AuditLog;
import io.openshiftagent.testsupport.KubeApiServerEnvironment;
import io.openshiftagent.testsupport.ProviderJar;
import io.openshiftagent.testsupport.ProviderProcess;
import io.openshiftagent.testsupport.ReleaseRegistry;
import java.nio.file.Path;
import java.time.Duration;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

/**
 * The scale mode of the benchmark (docs/benchmarks.md, "Hub scale"): our two providers alone,
 * against the real hub API server, with a fleet of single-node clusters whose Cluster API, Metal3
 * and assisted-service are stand-ins ({@link ScaleWorld}). Applies N clusters, at most K installing
 * at once; then measures the fleet installed (steady), then a restart of both providers with the
 * fleet present. Prints per provider heap and RSS (peak and steady), CPU and hub requests per
 * Machine, the stages' latency, the time until ready and the requests after the restart, and PASS
 * or FAIL per goal. Run it with {@code hack/benchmark.sh --scale N}.
 */
public final class ScaleBenchmark {
  private final ScaleOptions options;
  private final ScaleFigures figures;

  private ScaleBenchmark(ScaleOptions options) {
    this.options = options;
    this.figures = new ScaleFigures(options);
  }

  /**
   * See {@link ScaleOptions#parse}. Exits 0 when every goal is met, 3 when one is missed, 1 when
   * the fleet did not install in time, 2 when the run failed.
   */
  public static void main(String[] args) {
    int exit = 2;
    try {
      exit = new ScaleBenchmark(ScaleOptions.parse(args)).run();
    } catch (Throwable failure) {
      failure.printStackTrace();
    } finally {
      // Whatever happened: the stand-ins' and the gateway's threads must not keep the JVM (and the
      // machine's lock) alive.
      System.out.flush();
      System.exit(exit);
    }
  }

  private int run() throws Exception {
    figures.header(ZonedDateTime.now().withNano(0).toString());
    long starting = System.nanoTime();
    try (ScaleWorld world =
            ScaleWorld.start(
                KubeApiServerEnvironment.shared(),
                options.workDir(),
                options.pace(),
                List.of(Optional.empty()));
        Timeline timeline = new Timeline(world.hub)) {
      System.out.printf(
          "hub, stand-ins and providers started in %.1f s (logs: %s)%n",
          (System.nanoTime() - starting) / 1e9, options.workDir().toAbsolutePath());
      ProviderStages.watch(timeline);
      Map<ProviderJar, HeapHistogram> empty = histograms(world, "empty");

      // ---- the fleet installs ----
      profile(world, null);
      Map<ProviderJar, Duration> cpuBefore = cpu(world);
      long applyStart = System.currentTimeMillis();
      Map<String, Long> applied = apply(world, timeline);
      long installEnd = System.currentTimeMillis();
      boolean finished = applied.size() == options.clusters() && allFinished(timeline, applied);
      Map<ProviderJar, Duration> installCpu = since(cpuBefore, cpu(world));
      Map<ProviderJar, Footprint> installFootprint = footprints(world);
      Thread.sleep(2_000); // the audit log records a request once its response is complete
      List<AuditLog.Request> installRequests = requests(world, applyStart, installEnd);
      figures.install(
          timeline,
          applied,
          installRequests,
          installCpu,
          installFootprint,
          installEnd - applyStart);
      profile(world, "install");
      if (!finished) {
        System.out.printf(
            "%nNOT FINISHED: %d of %d clusters installed within %s%n",
            applied.keySet().stream().filter(ns -> finishedAt(timeline, ns).isPresent()).count(),
            options.clusters(),
            options.timeout());
        return 1;
      }

      // ---- the fleet installed: steady ----
      profile(world, null);
      Map<ProviderJar, Duration> steadyBefore = cpu(world);
      long listsBefore = world.gateway.nodeLists();
      long steadyStart = System.currentTimeMillis();
      Thread.sleep(options.window().toMillis());
      long steadyEnd = System.currentTimeMillis();
      Map<ProviderJar, Duration> steadyCpu = since(steadyBefore, cpu(world));
      long looks = (world.gateway.nodeLists() - listsBefore) / 2;
      Map<ProviderJar, HeapHistogram> steady = histograms(world, "steady");
      Map<ProviderJar, Long> steadyRss = rss(world);
      figures.steady(
          requests(world, steadyStart, steadyEnd), steadyCpu, empty, steady, steadyRss, looks);
      profile(world, "installed");

      // ---- a restart with the fleet installed ----
      long restartStart = System.currentTimeMillis();
      world.restartProviders();
      Map<ProviderJar, Duration> ready = new EnumMap<>(ProviderJar.class);
      for (ProviderJar jar : ProviderJar.values()) {
        ready.put(jar, world.readyAfterStart(jar).values().iterator().next());
      }
      Thread.sleep(options.window().toMillis());
      long restartEnd = System.currentTimeMillis();
      Map<ProviderJar, Duration> restartCpu = cpu(world);
      Map<ProviderJar, Footprint> restartFootprint = footprints(world);
      Thread.sleep(2_000);
      figures.restart(
          requests(world, restartStart, restartEnd), ready, restartCpu, restartFootprint);
      return figures.goals(installFootprint, steady, ready) ? 0 : 3;
    }
  }

  // ---- applying: N clusters, at most K installing ----

  private Map<String, Long> apply(ScaleWorld world, Timeline timeline) throws Exception {
    SnoFleet fleet = new SnoFleet(ReleaseRegistry.shared().ocpRepository(), Optional.empty());
    KubernetesClient hub = world.hub.client();
    Semaphore installing = new Semaphore(options.installing());
    Map<String, Long> applied = new ConcurrentHashMap<>();
    Set<String> inFlight = ConcurrentHashMap.newKeySet();
    ExecutorService appliers = Executors.newFixedThreadPool(4);
    long deadline = System.nanoTime() + options.timeout().toNanos();
    long start = System.currentTimeMillis();
    long nextReport = 0;
    int next = 1;
    while (System.nanoTime() < deadline) {
      // Clusters that finished free their place.
      for (String ns : List.copyOf(inFlight)) {
        if (finishedAt(timeline, ns).isPresent() && inFlight.remove(ns)) {
          installing.release();
        }
      }
      while (next <= options.clusters() && installing.tryAcquire()) {
        int index = next++;
        String ns = SnoFleet.namespace(index);
        inFlight.add(ns);
        appliers.submit(
            () -> {
              fleet.apply(hub, index);
              applied.put(ns, System.currentTimeMillis());
              return null;
            });
      }
      long done = applied.keySet().stream().filter(ns -> !inFlight.contains(ns)).count();
      if (System.currentTimeMillis() >= nextReport || done == options.clusters()) {
        System.out.printf(
            "  %5.0f s: %d applied, %d installed, %d installing%n",
            (System.currentTimeMillis() - start) / 1e3, applied.size(), done, inFlight.size());
        nextReport = System.currentTimeMillis() + 15_000;
      }
      if (done == options.clusters()) {
        break;
      }
      Thread.sleep(500);
    }
    appliers.shutdown();
    appliers.awaitTermination(1, TimeUnit.MINUTES);
    return new TreeMap<>(applied);
  }

  private static boolean allFinished(Timeline timeline, Map<String, Long> applied) {
    return applied.keySet().stream().allMatch(ns -> finishedAt(timeline, ns).isPresent());
  }

  /**
   * When the cluster of the namespace was Available: the Cluster API stand-in reports it once its
   * Machine is Running too.
   */
  static OptionalLong finishedAt(Timeline timeline, String ns) {
    int index = Integer.parseInt(ns.substring(ns.lastIndexOf('-') + 1));
    return timeline.first("Cluster", ns, SnoFleet.cluster(index), "Available");
  }

  // ---- measuring ----

  /**
   * With {@code --profile}: starts recording each provider (phase null), or stops and prints what
   * was recorded over the phase.
   */
  private void profile(ScaleWorld world, String phase) throws Exception {
    if (!options.profile()) {
      return;
    }
    if (phase != null) {
      System.out.printf(
          "%nProfile while %s (Java Flight Recorder):%n",
          phase.equals("install") ? "the fleet installs" : "the fleet is installed");
    }
    for (ProviderJar jar : ProviderJar.values()) {
      ProviderProcess process = world.provider(jar);
      if (phase == null) {
        ProviderProfile.start(process.pid());
      } else {
        ProviderProfile.stopAndPrint(
            process.pid(), process.log().resolveSibling(phase + ".jfr"), jar.command);
      }
    }
  }

  private static Map<ProviderJar, Duration> cpu(ScaleWorld world) {
    Map<ProviderJar, Duration> cpu = new EnumMap<>(ProviderJar.class);
    for (ProviderJar jar : ProviderJar.values()) {
      cpu.put(
          jar,
          world.replicas(jar).values().stream()
              .map(ProviderProcess::cpuTime)
              .reduce(Duration.ZERO, Duration::plus));
    }
    return cpu;
  }

  private static Map<ProviderJar, Duration> since(
      Map<ProviderJar, Duration> before, Map<ProviderJar, Duration> after) {
    Map<ProviderJar, Duration> spent = new EnumMap<>(ProviderJar.class);
    after.forEach((jar, cpu) -> spent.put(jar, cpu.minus(before.get(jar))));
    return spent;
  }

  private static Map<ProviderJar, Footprint> footprints(ScaleWorld world) throws Exception {
    Map<ProviderJar, Footprint> footprints = new EnumMap<>(ProviderJar.class);
    for (ProviderJar jar : ProviderJar.values()) {
      ProviderProcess process = world.provider(jar);
      footprints.put(jar, Footprint.of(process, process.log().resolveSibling("gc.log")));
    }
    return footprints;
  }

  private Map<ProviderJar, HeapHistogram> histograms(ScaleWorld world, String when)
      throws Exception {
    Map<ProviderJar, HeapHistogram> histograms = new EnumMap<>(ProviderJar.class);
    for (ProviderJar jar : ProviderJar.values()) {
      ProviderProcess process = world.provider(jar);
      histograms.put(
          jar,
          HeapHistogram.of(
              process.pid(), process.log().resolveSibling("histogram-" + when + ".txt")));
    }
    return histograms;
  }

  private static Map<ProviderJar, Long> rss(ScaleWorld world) throws Exception {
    Map<ProviderJar, Long> rss = new EnumMap<>(ProviderJar.class);
    for (ProviderJar jar : ProviderJar.values()) {
      String status =
          java.nio.file.Files.readString(
              Path.of("/proc", Long.toString(world.provider(jar).pid()), "status"));
      java.util.regex.Matcher m =
          java.util.regex.Pattern.compile("(?m)^VmRSS:\\s+(\\d+) kB").matcher(status);
      rss.put(jar, m.find() ? Long.parseLong(m.group(1)) * 1024 : 0);
    }
    return rss;
  }

  private static List<AuditLog.Request> requests(ScaleWorld world, long from, long to) {
    List<AuditLog.Request> in = new ArrayList<>();
    for (AuditLog.Request r : AuditLog.read(world.hub.auditLog().orElseThrow())) {
      long received = r.received().toEpochMilli();
      if (received >= from && received <= to) {
        in.add(r);
      }
    }
    return in;
  }
}
