package io.openshiftagent.simulator.benchmark;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.ToDoubleFunction;
import java.util.function.ToLongFunction;

/**
 * The same clusters through both provider pairs in one invocation, one pair after the other, each
 * on a world started afresh with a hub of its own: the Go pair in its only boot mode (the disk
 * image booting with the discovery ignition), ours in the same mode, then ours in LiveISO. Each run
 * prints its whole report (where the time goes, requests by verb and resource, every client's share
 * of the hub); then the pairs' figures side by side, with the Go pair's over ours as ratios.
 */
final class AgainstTheGoProvider {
  private static final String DISK_IMAGE = "DiskImage";

  private AgainstTheGoProvider() {}

  /**
   * @return 0 when every run finished, 1 when one did not (its figures still printed)
   */
  static int run(int clusters, int workers, Duration timeout, Path workDir, Path checkout)
      throws Exception {
    List<Benchmark.Pair> pairs =
        List.of(
            new Benchmark.Pair(Optional.of(checkout), Optional.of(DISK_IMAGE)),
            new Benchmark.Pair(Optional.empty(), Optional.of(DISK_IMAGE)),
            new Benchmark.Pair(Optional.empty(), Optional.of("LiveISO")));
    List<PairRun> runs = new ArrayList<>();
    for (Benchmark.Pair pair : pairs) {
      System.out.printf("%n===== %s =====%n", pair.label());
      Path dir = workDir.resolve(pair.label().replaceAll("[^A-Za-z]+", "-"));
      runs.add(new Benchmark(clusters, workers, timeout, dir, pair).run().figures());
    }
    print(clusters, workers, runs);
    return runs.stream().allMatch(PairRun::finished) ? 0 : 1;
  }

  private static void print(int clusters, int workers, List<PairRun> runs) {
    PairRun go = runs.get(0);
    System.out.printf(
        "%n===== Against the Go provider: %d clusters x (3 + %d), the same manifests =====%n",
        clusters, workers);
    System.out.printf("  %-38s", "");
    runs.forEach(r -> System.out.printf(" %11s", column(r)));
    runs.subList(1, runs.size()).forEach(r -> System.out.printf(" %11s", "Go/" + column(r)));
    System.out.println();
    System.out.printf(
        "  (%s)%n",
        String.join("; ", runs.stream().map(r -> column(r) + ": " + r.label()).toList()));
    times(
        runs, "control plane Available p50 (s)", PairRun::controlPlaneAvailable, Percentiles::p50);
    times(
        runs, "control plane Available p95 (s)", PairRun::controlPlaneAvailable, Percentiles::p95);
    times(
        runs, "control plane Available max (s)", PairRun::controlPlaneAvailable, Percentiles::max);
    times(runs, "Cluster Available p50 (s)", PairRun::clusterAvailable, Percentiles::p50);
    times(runs, "Cluster Available p95 (s)", PairRun::clusterAvailable, Percentiles::p95);
    times(runs, "Cluster Available max (s)", PairRun::clusterAvailable, Percentiles::max);
    for (int i = 0; i < go.processes().size(); i++) {
      int manager = i;
      String name = i == 0 ? "bootstrap" : "control plane";
      row(runs, name + ": requests per Machine", r -> process(r, manager).requestsPerMachine());
      row(runs, name + ": conflicts per Machine", r -> process(r, manager).conflictsPerMachine());
      row(runs, name + ": CPU run (s)", r -> process(r, manager).cpuRun().toMillis() / 1e3);
      row(runs, name + ": RSS peak (MiB)", r -> process(r, manager).rssPeak() / 1048576.0);
    }
    row(
        runs,
        "both: requests per Machine",
        r -> r.processes().stream().mapToDouble(PairRun.Process::requestsPerMachine).sum());
    row(
        runs,
        "both, leader-election Leases left out",
        r ->
            r.processes().stream()
                .mapToDouble(p -> p.requestsPerMachine() - p.leasesPerMachine())
                .sum());
    System.out.println(
        "  (times from the end of each cluster's apply; a cluster not Available is left out, n"
            + " below; heap: the Go runtime reports none comparable, RSS is)");
    runs.forEach(
        r ->
            System.out.printf(
                "  %s: %d/%d clusters Available%s%n",
                r.label(),
                r.clusterAvailable().size(),
                clusters,
                r.finished() ? "" : ", NOT FINISHED in time"));
  }

  /** A short column head: the pair and its boot mode, e.g. {@code go-disk}, {@code ours-iso}. */
  private static String column(PairRun run) {
    return (run.label().startsWith("ours") ? "ours" : "go")
        + (run.label().endsWith("LiveISO") ? "-iso" : "-disk");
  }

  private static PairRun.Process process(PairRun run, int manager) {
    return run.processes().get(manager);
  }

  private static void times(
      List<PairRun> runs,
      String name,
      Function<PairRun, List<Long>> millis,
      ToLongFunction<Percentiles> at) {
    row(
        runs,
        name,
        r ->
            millis.apply(r).isEmpty()
                ? Double.NaN
                : at.applyAsLong(Percentiles.of(millis.apply(r))) / 1e3);
  }

  private static void row(List<PairRun> runs, String name, ToDoubleFunction<PairRun> figure) {
    System.out.printf("  %-38s", name);
    double goFigure = figure.applyAsDouble(runs.get(0));
    runs.forEach(r -> System.out.printf(" %11.2f", figure.applyAsDouble(r)));
    for (PairRun r : runs.subList(1, runs.size())) {
      double ours = figure.applyAsDouble(r);
      System.out.printf(ours == 0 ? " %11s" : " %11.2f", ours == 0 ? "-" : goFigure / ours);
    }
    System.out.println();
  }
}
