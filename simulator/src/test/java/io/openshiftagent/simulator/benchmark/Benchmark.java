package io.openshiftagent.simulator.benchmark;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.openshiftagent.simulator.SimulatedDurations;
import io.openshiftagent.simulator.World;
import io.openshiftagent.testsupport.AuditLog;
import io.openshiftagent.testsupport.ProviderJar;
import io.openshiftagent.testsupport.ProviderRequests;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * The scale benchmark (docs/benchmarks.md): N HA LiveISO clusters of 3 control-plane Machines and M
 * workers applied at once to a world with zero simulated durations; prints how long each cluster
 * took, the time our providers add at each stage, their API requests per Machine, their memory and
 * start-up time, and PASS or FAIL for each target. Run it with {@code hack/benchmark.sh}.
 */
public final class Benchmark {
  private static final long AVAILABLE_TARGET_MS = 60_000;
  private static final long STAGE_P95_TARGET_MS = 1_000;
  private static final long HEAP_TARGET = 256L << 20;
  private static final long RSS_TARGET = 400L << 20;
  private static final long READY_TARGET_MS = 5_000;

  /** Where each run's per-Machine figures are kept, one file per size, for the comparison. */
  static final Path RESULTS = Path.of("target", "benchmark-results");

  private final int clusters;
  private final int workers;
  private final Duration timeout;
  private final Path workDir;
  private final Pair pair;
  private final List<String> failures = new ArrayList<>();

  /**
   * The provider pair a run installs with, and how its clusters boot.
   *
   * @param goProvider a checkout of the Go provider whose pair runs instead of ours
   * @param bootMode the boot mode the manifests name ({@link ClusterManifests}); none: the demo's
   *     manifests as they are (LiveISO, ours)
   */
  record Pair(Optional<Path> goProvider, Optional<String> bootMode) {
    static final Pair OURS = new Pair(Optional.empty(), Optional.empty());

    String label() {
      return (goProvider.isPresent() ? "the Go pair" : "ours") + ", " + bootMode.orElse("LiveISO");
    }

    /** Each run of a comparison on a hub of its own: nothing of the one before is left. */
    World.Options apply(World.Options options) {
      if (goProvider.isPresent()) {
        return options.withGoProvider(goProvider.get());
      }
      return bootMode.isPresent() ? options.withHubOfItsOwn() : options;
    }
  }

  /** What a run ended with: its exit code, and its figures. */
  record Outcome(int exit, PairRun figures) {}

  Benchmark(int clusters, int workers, Duration timeout, Path workDir, Pair pair) {
    this.clusters = clusters;
    this.workers = workers;
    this.timeout = timeout;
    this.workDir = workDir;
    this.pair = pair;
  }

  /**
   * {@code [--clusters N] [--workers M] [--timeout-minutes T] [--work-dir DIR] [--go-provider
   * CHECKOUT]}. Exits 0 when every target is met, 3 when one is missed, 1 when the clusters did not
   * all finish in time. With a checkout of the Go provider, the same clusters through both pairs
   * instead ({@link AgainstTheGoProvider}).
   */
  public static void main(String[] args) throws Exception {
    Map<String, String> options = new LinkedHashMap<>();
    for (int i = 0; i + 1 < args.length; i += 2) {
      options.put(args[i].replaceFirst("^--", ""), args[i + 1]);
    }
    int clusters = Integer.parseInt(options.getOrDefault("clusters", "5"));
    int workers = Integer.parseInt(options.getOrDefault("workers", "2"));
    Duration timeout =
        Duration.ofMinutes(Long.parseLong(options.getOrDefault("timeout-minutes", "15")));
    Path workDir = Path.of(options.getOrDefault("work-dir", "target/benchmark"));
    int exit =
        options.containsKey("go-provider")
            ? AgainstTheGoProvider.run(
                clusters, workers, timeout, workDir, Path.of(options.get("go-provider")))
            : new Benchmark(clusters, workers, timeout, workDir, Pair.OURS).run().exit();
    System.out.flush();
    System.exit(exit);
  }

  Outcome run() throws Exception {
    int machines = clusters * (3 + workers);
    String loadBefore = loadAverage();
    System.out.printf(
        "openshift-agent scale benchmark, %s, commit %s%n"
            + "machine: %d CPUs, %d MiB memory; load average before: %s%n"
            + "%d clusters x (3 control-plane + %d workers) = %d Machines, %s; real Cluster"
            + " API, CAPM3 and baremetal-operator (one per namespace, test mode); simulated"
            + " durations 0, one shared workload API server%n%n",
        ZonedDateTime.now().withNano(0),
        Result.COMMIT,
        Runtime.getRuntime().availableProcessors(),
        totalMemoryMiB(),
        loadBefore,
        clusters,
        workers,
        machines,
        pair.label());
    long worldStarting = System.nanoTime();
    World.Options options =
        pair.apply(
            World.Options.of(SimulatedDurations.zero(), workDir)
                .withWorkloads(World.Workloads.SHARED)
                // The production default: the benchmark counts the requests a real deployment
                // makes.
                .withWorkloadPollInterval(Duration.ofMinutes(1))
                // Started as the image starts them, without a class-data archive.
                .withSharedClassData(false));
    try (World world = World.start(options);
        Timeline timeline = new Timeline(world.hubEnvironment())) {
      System.out.printf(
          "world started in %.1f s (log: %s)%n",
          (System.nanoTime() - worldStarting) / 1e9, workDir.toAbsolutePath());
      ProviderStages.watch(timeline);

      // CPU from here on is the clusters' (before: the start and the informers' first lists).
      List<PairRun.Measured> measured = PairRun.Measured.of(world);
      Map<PairRun.Measured, Duration> cpuAtApply = new LinkedHashMap<>();
      for (PairRun.Measured m : measured) {
        cpuAtApply.put(m, m.process().cpuTime());
      }
      long applyStart = System.currentTimeMillis();
      Map<String, Long> applied = apply(world);
      System.out.printf(
          "applied %d clusters in %.1f s%n",
          clusters, (System.currentTimeMillis() - applyStart) / 1e3);
      boolean finished = awaitAll(timeline, applied);
      long end = System.currentTimeMillis();
      Map<PairRun.Measured, Duration> cpuRun = new LinkedHashMap<>();
      cpuAtApply.forEach((m, atApply) -> cpuRun.put(m, m.process().cpuTime().minus(atApply)));

      Map<ProviderJar, Footprint> footprints = new EnumMap<>(ProviderJar.class);
      if (world.goProviders().isEmpty()) {
        for (ProviderJar jar : ProviderJar.values()) {
          footprints.put(
              jar,
              Footprint.of(
                  world.provider(jar), world.provider(jar).log().resolveSibling("gc.log")));
        }
      }
      List<PairRun.Process> processes = new ArrayList<>();
      // The API server logs a request once its response is complete: let the last ones land.
      Thread.sleep(2_000);
      List<AuditLog.Request> all =
          AuditLog.read(world.hubAuditLog()).stream()
              .filter(r -> r.received().toEpochMilli() >= applyStart)
              .filter(r -> r.received().toEpochMilli() <= end)
              .toList();
      for (PairRun.Measured m : measured) {
        OptionalLong heap =
            m.jar().map(footprints::get).stream().mapToLong(Footprint::peakHeapUsed).findFirst();
        processes.add(m.figures(all, machines, cpuRun.get(m), heap));
      }

      timeline.write(workDir.resolve("timeline.tsv"));
      printClusters(timeline, applied);
      printWhereTheTimeGoes(timeline, applied);
      printStages(ProviderStages.measure(timeline, applied.keySet()));
      PairRun figures =
          new PairRun(
              pair.label(),
              since(applied, ns -> controlPlaneAvailable(timeline, ns)),
              since(applied, ns -> clusterAvailable(timeline, ns)),
              processes,
              finished);
      if (pair.bootMode().isPresent()) {
        // Side by side with the other pair: what a user sees of the first cluster, and what its
        // deletion leaves (after the figures above, which its deletion does not enter).
        System.out.println();
        System.out.print(WhatAUserSees.of(world, applied.keySet().iterator().next(), "bench-01"));
      }
      if (world.goProviders().isPresent()) {
        printGoPair(measured, all, processes, machines);
        printClients(all);
        System.out.println("logs: " + workDir.toAbsolutePath());
        return new Outcome(finished ? 0 : 1, figures);
      }
      ProviderRequests ours = ProviderRequests.of(all, machines);
      Map<ProviderJar, Duration> cpu = new EnumMap<>(ProviderJar.class);
      cpuRun.forEach((m, run) -> m.jar().ifPresent(jar -> cpu.put(jar, run)));
      printWatchDelay(timeline, ours);
      printServerTime(ours);
      printRequests(ours);
      printClients(all);
      printProviders(world.providersReadyAfterStart(), footprints, cpu, machines);
      System.out.printf("%nload average after: %s%n", loadAverage());
      if (pair.equals(Pair.OURS)) {
        Result result = Result.of(clusters, workers, ours, cpu, loadBefore, loadAverage());
        printScaling(result.save(RESULTS), Result.latestOfEachSize(RESULTS));
      }
      System.out.println(
          "logs: "
              + workDir.toAbsolutePath()
              + " (providers, Cluster API manager, GC), hub audit log: "
              + world.hubAuditLog());
      System.out.println();
      if (!finished) {
        System.out.println(
            "NOT FINISHED: not every cluster was Available with all Machines Running"
                + " within "
                + timeout);
        return new Outcome(1, figures);
      }
      targets(timeline, applied, ours, world.providersReadyAfterStart(), footprints);
      return new Outcome(failures.isEmpty() ? 0 : 3, figures);
    }
  }

  /**
   * The Go pair's managers: their requests by user agent, verb and resource, as ours are printed,
   * then their CPU and memory.
   */
  private static void printGoPair(
      List<PairRun.Measured> measured,
      List<AuditLog.Request> all,
      List<PairRun.Process> processes,
      int machines) {
    System.out.printf(
        "%nThe Go pair's API requests to the hub per Machine, by the ServiceAccount each manager"
            + " runs as (%d Machines; from the audit log):%n",
        machines);
    List<AuditLog.Request> theirs =
        all.stream().filter(r -> measured.stream().anyMatch(m -> m.requests().test(r))).toList();
    System.out.print(new ProviderRequests(theirs, machines).table());
    System.out.printf(
        "%n  %-22s %12s %10s %10s %12s%n", "", "requests/M", "conflicts/M", "RSS peak", "CPU run");
    for (PairRun.Process p : processes) {
      System.out.printf(
          "  %-22s %12.1f %10.2f %10s %10.1f s%n",
          p.name(),
          p.requestsPerMachine(),
          p.conflictsPerMachine(),
          Footprint.mib(p.rssPeak()),
          p.cpuRun().toMillis() / 1e3);
    }
  }

  // ---- applying and waiting ----

  /** Applies every cluster into a namespace of its own; returns when each one's apply ended. */
  private Map<String, Long> apply(World world) throws Exception {
    KubernetesClient hub = world.hub();
    ExecutorService appliers = Executors.newFixedThreadPool(4);
    Map<String, Future<Long>> pending = new TreeMap<>();
    // Each namespace's baremetal-operator runs before its hosts are enrolled (World).
    List<String> namespaces = new ArrayList<>();
    for (int i = 1; i <= clusters; i++) {
      String ns = world.hubEnvironment().createNamespace(String.format("bench-%02d", i));
      world.startBareMetalOperator(ns);
      namespaces.add(ns);
    }
    for (int i = 1; i <= clusters; i++) {
      String cluster = String.format("bench-%02d", i);
      String ns = namespaces.get(i - 1);
      int index = i;
      pending.put(
          ns,
          appliers.submit(
              () -> {
                for (HasMetadata object :
                    ClusterManifests.of(hub, cluster, index, workers, pair.bootMode())) {
                  object.getMetadata().setNamespace(ns);
                  hub.resource(object).create();
                }
                return System.currentTimeMillis();
              }));
    }
    Map<String, Long> applied = new TreeMap<>();
    for (Map.Entry<String, Future<Long>> e : pending.entrySet()) {
      applied.put(e.getKey(), e.getValue().get());
    }
    appliers.shutdown();
    return applied;
  }

  /** Prints progress every 5 s until every cluster is done or the timeout passes. */
  private boolean awaitAll(Timeline timeline, Map<String, Long> applied)
      throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    long nextReport = 0;
    while (System.nanoTime() < deadline) {
      long available =
          applied.keySet().stream()
              .filter(ns -> clusterAvailable(timeline, ns).isPresent())
              .count();
      long running =
          timeline.objects("Machine").stream()
              .filter(m -> applied.containsKey(m.getMetadata().getNamespace()))
              .filter(m -> running(timeline, m).isPresent())
              .count();
      boolean done = applied.keySet().stream().allMatch(ns -> finished(timeline, ns).isPresent());
      if (done || System.nanoTime() > nextReport) {
        System.out.printf(
            "  %5.0f s: %d/%d clusters Available, %d/%d Machines Running%n",
            (System.currentTimeMillis()
                    - applied.values().stream().min(Long::compare).orElseThrow())
                / 1e3,
            available,
            clusters,
            running,
            clusters * (3 + workers));
        nextReport = System.nanoTime() + 5_000_000_000L;
      }
      if (done) {
        return true;
      }
      Thread.sleep(250);
    }
    return false;
  }

  private static OptionalLong clusterAvailable(Timeline timeline, String ns) {
    return timeline.objects("Cluster").stream()
        .filter(c -> ns.equals(c.getMetadata().getNamespace()))
        .map(c -> timeline.first("Cluster", ns, c.getMetadata().getName(), "Available"))
        .findFirst()
        .orElse(OptionalLong.empty());
  }

  private static OptionalLong running(Timeline timeline, GenericKubernetesResource machine) {
    return timeline.first(
        "Machine",
        machine.getMetadata().getNamespace(),
        machine.getMetadata().getName(),
        "Running");
  }

  /** When the last of the cluster's Machines was Running, once all of them are. */
  private OptionalLong allMachinesRunning(Timeline timeline, String ns) {
    List<OptionalLong> times =
        timeline.objects("Machine").stream()
            .filter(m -> ns.equals(m.getMetadata().getNamespace()))
            .map(m -> running(timeline, m))
            .toList();
    if (times.size() < 3 + workers || times.stream().anyMatch(OptionalLong::isEmpty)) {
      return OptionalLong.empty();
    }
    return times.stream().mapToLong(OptionalLong::getAsLong).max();
  }

  private OptionalLong finished(Timeline timeline, String ns) {
    OptionalLong available = clusterAvailable(timeline, ns);
    OptionalLong running = allMachinesRunning(timeline, ns);
    return available.isPresent() && running.isPresent()
        ? OptionalLong.of(Math.max(available.getAsLong(), running.getAsLong()))
        : OptionalLong.empty();
  }

  // ---- the figures ----

  private void printClusters(Timeline timeline, Map<String, Long> applied) {
    System.out.printf("%nPer cluster, from the end of its apply (s):%n");
    header("", "n", "p50", "p95", "max");
    row(
        "control plane Available (control plane)",
        since(applied, ns -> controlPlaneAvailable(timeline, ns)));
    row("Cluster Available (Cluster API)", since(applied, ns -> clusterAvailable(timeline, ns)));
    row("all Machines Running", since(applied, ns -> allMachinesRunning(timeline, ns)));
    row("both", since(applied, ns -> finished(timeline, ns)));
  }

  /**
   * Per cluster, from the end of its apply: when the last of its objects of each kind reached each
   * step, in the order of the flow, with who acts at that step.
   */
  private static void printWhereTheTimeGoes(Timeline t, Map<String, Long> applied) {
    System.out.printf("%nWhere a cluster's time goes, from the end of its apply (s):%n");
    header("", "n", "p50", "p95", "max");
    String[][] steps = {
      {"Cluster", "infrastructureProvisioned", "infrastructure provisioned (CAPM3, Cluster API)"},
      {"Cluster", "controlPlaneEndpoint", "control-plane endpoint set (Cluster API)"},
      {"AgentClusterInstall", "exists", "AgentClusterInstall created (control plane)"},
      {"BareMetalHost", "state:available", "hosts available (baremetal-operator)"},
      {"InfraEnv", "isoDownloadURL", "ISOs published (assisted-service)"},
      {"OpenshiftAssistedConfig", "dataSecretName", "bootstrap data ready (bootstrap)"},
      {"Metal3Machine", "host", "hosts claimed (CAPM3)"},
      {"BareMetalHost", "state:provisioned", "hosts provisioned (baremetal-operator)"},
      {"Agent", "exists", "Agents registered (simulated hosts, assisted-service)"},
      {"Agent", "approved", "Agents approved (bootstrap)"},
      {
        "AgentClusterInstall",
        "adminKubeconfig",
        "installed (assisted-service, simulated installer)"
      },
      {"OpenshiftAssistedControlPlane", "Available", "control plane Available (control plane)"},
      {"Metal3Machine", "providerID", "provider IDs (CAPM3, from the Nodes)"},
      {"Machine", "Running", "Machines Running (Cluster API)"},
      {"Cluster", "Available", "Cluster Available (Cluster API)"},
    };
    for (String[] step : steps) {
      row(step[2], since(applied, ns -> lastOf(t, step[0], ns, step[1])));
    }
  }

  /**
   * When the last object of the kind in the namespace first had the mark; none if one never did.
   */
  private static OptionalLong lastOf(Timeline t, String kind, String ns, String mark) {
    List<GenericKubernetesResource> objects =
        t.objects(kind).stream().filter(o -> ns.equals(o.getMetadata().getNamespace())).toList();
    long last = Long.MIN_VALUE;
    for (GenericKubernetesResource o : objects) {
      OptionalLong first = t.first(kind, ns, o.getMetadata().getName(), mark);
      if (first.isEmpty()) {
        return OptionalLong.empty();
      }
      last = Math.max(last, first.getAsLong());
    }
    return objects.isEmpty() ? OptionalLong.empty() : OptionalLong.of(last);
  }

  private static OptionalLong controlPlaneAvailable(Timeline timeline, String ns) {
    return timeline.objects("OpenshiftAssistedControlPlane").stream()
        .filter(c -> ns.equals(c.getMetadata().getNamespace()))
        .map(
            c ->
                timeline.first(
                    "OpenshiftAssistedControlPlane", ns, c.getMetadata().getName(), "Available"))
        .findFirst()
        .orElse(OptionalLong.empty());
  }

  private static List<Long> since(
      Map<String, Long> applied, java.util.function.Function<String, OptionalLong> event) {
    List<Long> millis = new ArrayList<>();
    applied.forEach((ns, t) -> event.apply(ns).ifPresent(e -> millis.add(e - t)));
    return millis;
  }

  private static void printStages(List<ProviderStages.Stage> stages) {
    System.out.printf(
        "%nTime the providers add at each stage, from the last event ours wait on to the write"
            + " (ms):%n");
    header("", "n", "p50", "p95", "max");
    for (ProviderStages.Stage stage : stages) {
      millisRow(stage.provider() + ": " + stage.name(), Percentiles.of(stage.millis()));
    }
    System.out.println("  (each stage: waits for -> writes)");
    for (ProviderStages.Stage stage : stages) {
      System.out.printf("    %s: %s -> %s%n", stage.name(), stage.waitsFor(), stage.writes());
    }
  }

  /** The kinds whose creation by our providers ends a stage, by their resource name. */
  private static final Map<String, String> CREATIONS_TIMED =
      Map.of(
          "infraenvs", "InfraEnv",
          "clusterdeployments", "ClusterDeployment",
          "agentclusterinstalls", "AgentClusterInstall",
          "machines", "Machine");

  /**
   * How late the timeline saw what our providers created, after the API server completed the
   * request (the audit log): the stages above are timed by that watch, this is their error.
   */
  private static void printWatchDelay(Timeline timeline, ProviderRequests ours) {
    List<Long> delays = new ArrayList<>();
    for (AuditLog.Request r : ours.requests()) {
      String kind = CREATIONS_TIMED.get(r.resource());
      if (kind == null || !r.verb().equals("create") || r.code() != 201) {
        continue;
      }
      timeline
          .first(kind, r.namespace(), r.name(), "exists")
          .ifPresent(seen -> delays.add(seen - r.completed().toEpochMilli()));
    }
    Percentiles p = Percentiles.of(delays);
    System.out.printf(
        "  the timeline's watch saw our creations (%s) after the API server completed them by"
            + " p50 %d, p95 %d, max %d ms (%d objects, from the audit log)%n",
        String.join(", ", new TreeSet<>(CREATIONS_TIMED.values())),
        p.p50(),
        p.p95(),
        p.max(),
        p.count());
  }

  /**
   * How long the API server took to admit and store each creation that ends a stage, which the
   * stages above include, and how much of it went to admission webhooks (Cluster API's on Machines,
   * assisted-service's on AgentClusterInstalls and InfraEnvs): time no provider can save.
   */
  private static void printServerTime(ProviderRequests ours) {
    System.out.printf(
        "  of which in the API server, per creation that ends a stage (ms, from the audit log;"
            + " webhooks as the server records them, for requests over 0.5 s):%n");
    header("", "n", "p50", "p95", "max");
    for (Map.Entry<String, String> timed : new TreeMap<>(CREATIONS_TIMED).entrySet()) {
      List<AuditLog.Request> creations =
          ours.requests().stream()
              .filter(r -> r.resource().equals(timed.getKey()) && r.verb().equals("create"))
              .filter(r -> r.code() == 201)
              .toList();
      Percentiles server =
          Percentiles.of(
              creations.stream()
                  .map(r -> Duration.between(r.received(), r.completed()).toMillis())
                  .toList());
      Percentiles webhooks =
          Percentiles.of(
              creations.stream()
                  .flatMap(r -> r.webhooks().stream())
                  .map(Duration::toMillis)
                  .toList());
      millisRow(timed.getValue() + " created", server);
      if (webhooks.count() > 0) {
        millisRow("  in webhooks, of those over 0.5 s", webhooks);
      }
    }
  }

  private static void printRequests(ProviderRequests ours) {
    System.out.printf(
        "%nAPI requests to the hub per Machine, from the first apply to the end (%d Machines; from"
            + " the audit log):%n",
        ours.machines());
    System.out.print(ours.table());
  }

  /** Who loads the hub: every client's requests in the same window, and the server's time. */
  private static void printClients(List<AuditLog.Request> all) {
    System.out.printf(
        "%nAll requests to the hub in that window, by client (user agent up to '/'):%n");
    Map<String, List<AuditLog.Request>> byClient = new TreeMap<>();
    for (AuditLog.Request r : all) {
      byClient
          .computeIfAbsent(r.userAgent().replaceFirst("/.*", ""), k -> new ArrayList<>())
          .add(r);
    }
    System.out.printf("  %-44s %7s %12s %12s%n", "", "requests", "server p50", "server p95");
    byClient.forEach(
        (client, requests) -> {
          Percentiles p =
              Percentiles.of(
                  requests.stream()
                      .filter(r -> !r.verb().equals("watch"))
                      .map(r -> Duration.between(r.received(), r.completed()).toMillis())
                      .toList());
          System.out.printf(
              "  %-44s %7d %9d ms %9d ms%n", client, requests.size(), p.p50(), p.p95());
        });
  }

  private static void printProviders(
      Map<ProviderJar, Duration> ready,
      Map<ProviderJar, Footprint> footprints,
      Map<ProviderJar, Duration> cpu,
      int machines) {
    System.out.printf("%nProviders (JVM: the image's JAVA_TOOL_OPTIONS in the chart's limits):%n");
    System.out.printf(
        "  %-22s %9s %10s %10s %10s %5s %10s %8s %10s %12s%n",
        "",
        "ready",
        "heap peak",
        "committed",
        "live peak",
        "GCs",
        "RSS peak",
        "CPU",
        "CPU run",
        "CPU/Machine");
    for (ProviderJar jar : ProviderJar.values()) {
      List<String> f = footprints.get(jar).describe();
      System.out.printf(
          "  %-22s %7.1f s %10s %10s %10s %5s %10s %8s %8.1f s %9d ms%n",
          jar.command,
          ready.get(jar).toMillis() / 1e3,
          f.get(0),
          f.get(1),
          f.get(2),
          f.get(3),
          f.get(4),
          f.get(5),
          cpu.get(jar).toMillis() / 1e3,
          cpu.get(jar).toMillis() / machines);
    }
    System.out.println(
        "  (CPU: the process's whole life; CPU run: from the first apply to the end, the clusters'"
            + " share)");
  }

  /**
   * Requests and CPU per Machine at each size run on this machine (the latest run of each, kept in
   * {@link #RESULTS}), and how they change from the smallest to the largest: flat is the goal.
   */
  private static void printScaling(Result current, List<Result> sizes) {
    System.out.printf(
        "%nPer Machine at each size (the latest run of each, %s):%n", RESULTS.toAbsolutePath());
    System.out.printf(
        "  %-14s %-24s %-12s %27s %27s%n",
        "", "run", "load before", "requests (bootstrap+cp)", "CPU ms (bootstrap, cp)");
    for (Result r : sizes) {
      System.out.printf(
          "  %-14s %-24s %-12s %8.1f = %6.1f + %6.1f %13d, %6d%s%n",
          r.size(),
          r.when() + " " + r.commit(),
          r.loadBefore().split(" ")[0],
          r.requestsPerMachine(),
          r.requests().get(ProviderJar.BOOTSTRAP),
          r.requests().get(ProviderJar.CONTROLPLANE),
          r.cpuMillisPerMachine().get(ProviderJar.BOOTSTRAP),
          r.cpuMillisPerMachine().get(ProviderJar.CONTROLPLANE),
          r.size().equals(current.size()) ? "   (this run)" : "");
    }
    if (sizes.size() > 1) {
      Result smallest = sizes.get(0);
      Result largest = sizes.get(sizes.size() - 1);
      System.out.printf(
          "  from %s to %s: requests per Machine %s, CPU per Machine %s (bootstrap), %s (control"
              + " plane)%n",
          smallest.size(),
          largest.size(),
          change(smallest.requestsPerMachine(), largest.requestsPerMachine()),
          change(
              smallest.cpuMillisPerMachine().get(ProviderJar.BOOTSTRAP),
              largest.cpuMillisPerMachine().get(ProviderJar.BOOTSTRAP)),
          change(
              smallest.cpuMillisPerMachine().get(ProviderJar.CONTROLPLANE),
              largest.cpuMillisPerMachine().get(ProviderJar.CONTROLPLANE)));
    }
  }

  private static String change(double from, double to) {
    return String.format("%+.0f %%", from == 0 ? 0 : (to - from) * 100 / from);
  }

  private void targets(
      Timeline timeline,
      Map<String, Long> applied,
      ProviderRequests ours,
      Map<ProviderJar, Duration> ready,
      Map<ProviderJar, Footprint> footprints) {
    System.out.println("Targets:");
    long slowest =
        since(applied, ns -> clusterAvailable(timeline, ns)).stream()
            .mapToLong(Long::longValue)
            .max()
            .orElse(Long.MAX_VALUE);
    target(
        slowest <= AVAILABLE_TARGET_MS,
        "every cluster Available within 60 s of its apply (slowest %.1f s)",
        slowest / 1e3);
    ProviderStages.Stage worst =
        ProviderStages.measure(timeline, applied.keySet()).stream()
            .max(java.util.Comparator.comparingLong(s -> Percentiles.of(s.millis()).p95()))
            .orElseThrow();
    long worstP95 = Percentiles.of(worst.millis()).p95();
    target(
        worstP95 <= STAGE_P95_TARGET_MS,
        "provider-added latency p95 <= 1 s at every stage (highest: %s, %d ms)",
        worst.name(),
        worstP95);
    target(
        ours.perMachine() <= ProviderRequests.BUDGET_PER_MACHINE,
        "<= %.0f API requests per Machine, both providers together (%.1f)",
        ProviderRequests.BUDGET_PER_MACHINE,
        ours.perMachine());
    for (ProviderJar jar : ProviderJar.values()) {
      Footprint f = footprints.get(jar);
      target(
          f.peakHeapUsed() <= HEAP_TARGET,
          "%s heap <= 256 MiB (peak %s)",
          jar.command,
          Footprint.mib(f.peakHeapUsed()));
      target(
          f.peakRss() <= RSS_TARGET,
          "%s RSS <= 400 MiB (peak %s)",
          jar.command,
          Footprint.mib(f.peakRss()));
      target(
          ready.get(jar).toMillis() <= READY_TARGET_MS,
          "%s ready <= 5 s after its start (%.1f s)",
          jar.command,
          ready.get(jar).toMillis() / 1e3);
    }
  }

  private void target(boolean met, String format, Object... args) {
    String line = String.format(format, args);
    System.out.println("  " + (met ? "PASS " : "FAIL ") + line);
    if (!met) {
      failures.add(line);
    }
  }

  // ---- printing ----

  private static void header(String first, String... columns) {
    System.out.printf(
        "  %-46s %5s %7s %7s %7s%n", first, columns[0], columns[1], columns[2], columns[3]);
  }

  /** A row of milliseconds, under {@link #header}. */
  private static void millisRow(String name, Percentiles p) {
    System.out.printf("  %-46s %5d %7d %7d %7d%n", name, p.count(), p.p50(), p.p95(), p.max());
  }

  private static void row(String name, List<Long> millis) {
    Percentiles p = Percentiles.of(millis);
    System.out.printf(
        "  %-46s %5d %7.1f %7.1f %7.1f%n",
        name, p.count(), p.p50() / 1e3, p.p95() / 1e3, p.max() / 1e3);
  }

  private static String loadAverage() {
    try {
      String[] parts = Files.readString(Path.of("/proc/loadavg")).split(" ");
      return parts[0] + " " + parts[1] + " " + parts[2] + " (1, 5, 15 min)";
    } catch (IOException e) {
      return "unknown";
    }
  }

  private static long totalMemoryMiB() {
    try {
      for (String line : Files.readAllLines(Path.of("/proc/meminfo"))) {
        if (line.startsWith("MemTotal:")) {
          return Long.parseLong(line.replaceAll("\\D", "")) / 1024;
        }
      }
    } catch (IOException e) {
      // Not Linux: reported as 0.
    }
    return 0;
  }
}
