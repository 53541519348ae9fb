package io.openshiftagent.simulator.benchmark;

import io.openshiftagent.simulator.GoProviders;
import io.openshiftagent.simulator.World;
import io.openshiftagent.testsupport.AuditLog;
import io.openshiftagent.testsupport.ProviderJar;
import io.openshiftagent.testsupport.ProviderRequests;
import io.openshiftagent.testsupport.RestartableProcess;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.function.Predicate;

/**
 * What one benchmark run measured of the provider pair it ran, for setting pairs side by side
 * ({@link AgainstTheGoProvider}).
 *
 * @param label the pair and its boot mode
 * @param controlPlaneAvailable per cluster, from the end of its apply to its control plane's {@code
 *     Available} (ms)
 * @param clusterAvailable per cluster, from the end of its apply to the Cluster's {@code Available}
 *     (ms)
 * @param finished whether every cluster was Available with all its Machines Running in time
 */
record PairRun(
    String label,
    List<Long> controlPlaneAvailable,
    List<Long> clusterAvailable,
    List<Process> processes,
    boolean finished) {

  /**
   * One of the pair's two managers.
   *
   * @param requestsPerMachine its requests the hub carried out from the first apply to the end (the
   *     audit log), per Machine; as the budget counts them, without those refused as conflicts
   * @param conflictsPerMachine its requests refused with 409 Conflict, per Machine
   * @param leasesPerMachine of the requests carried out, those to its leader-election Lease (the Go
   *     pair elects a leader as its Deployment asks; ours in the benchmark do not)
   * @param cpuRun its CPU time from the first apply to the end
   * @param heapPeak the most heap it used, where its GC log tells (ours only)
   */
  record Process(
      String name,
      double requestsPerMachine,
      double conflictsPerMachine,
      double leasesPerMachine,
      Duration cpuRun,
      long rssPeak,
      OptionalLong heapPeak) {}

  /**
   * A manager as the run measures it: its process, which of the hub's requests are its own, and the
   * provider it is when it is one of ours (whose GC log tells its heap).
   */
  record Measured(
      String name,
      RestartableProcess process,
      Predicate<AuditLog.Request> requests,
      Optional<ProviderJar> jar) {

    /** Ours by their user agents; the Go pair's by the ServiceAccounts they run as. */
    static List<Measured> of(World world) {
      List<Measured> measured = new ArrayList<>();
      if (world.goProviders().isPresent()) {
        GoProviders go = world.goProviders().get();
        for (GoProviders.Manager manager : GoProviders.Manager.values()) {
          String user = go.serviceAccount(manager).username();
          measured.add(
              new Measured(
                  "go " + manager.directory,
                  go.process(manager),
                  r -> user.equals(r.user()),
                  Optional.empty()));
        }
      } else {
        for (ProviderJar jar : ProviderJar.values()) {
          measured.add(
              new Measured(
                  jar.command,
                  world.provider(jar),
                  r -> ProviderRequests.provider(r).equals(Optional.of(jar)),
                  Optional.of(jar)));
        }
      }
      return measured;
    }

    List<AuditLog.Request> own(List<AuditLog.Request> window) {
      return window.stream().filter(requests).toList();
    }

    /**
     * @param cpuRun its CPU time from the first apply to the end
     */
    Process figures(
        List<AuditLog.Request> window, int machines, Duration cpuRun, OptionalLong heapPeak)
        throws IOException {
      List<AuditLog.Request> own = own(window);
      long conflicts = own.stream().filter(r -> r.code() == 409).count();
      long leases =
          own.stream().filter(r -> r.code() != 409 && "leases".equals(r.resource())).count();
      return new Process(
          name,
          (double) (own.size() - conflicts) / machines,
          (double) conflicts / machines,
          (double) leases / machines,
          cpuRun,
          process.peakResidentBytes(),
          heapPeak);
    }
  }
}
