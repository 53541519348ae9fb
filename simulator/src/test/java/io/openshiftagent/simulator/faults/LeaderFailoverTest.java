package io.openshiftagent.simulator.faults;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.openshiftagent.simulator.ApiVersions;
import io.openshiftagent.simulator.World;
import io.openshiftagent.simulator.e2e.ClusterScenario;
import io.openshiftagent.simulator.e2e.E2eWorld;
import io.openshiftagent.testsupport.AuditLog;
import io.openshiftagent.testsupport.ProviderJar;
import io.openshiftagent.testsupport.ProviderProcess;
import java.time.Duration;
import java.time.Instant;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Two replicas of each provider, electing their leaders as the chart's replicas do. Mid-flow of an
 * HA cluster, the leader of each provider is killed (SIGKILL, as a node failure does); the standby
 * must take the Lease once it expires and finish the installation. Then, on a second cluster, each
 * leader is stopped cleanly (SIGTERM, as a rolling update does); it releases its Lease and the
 * standby must take over at once. The hub's audit log, where each replica's user agent names it,
 * shows that no standby wrote anything but its Lease before it led, and that no old leader wrote
 * after the new one led.
 */
@Tag(E2eWorld.HUB_OF_ITS_OWN)
// Where it starts among the worlds of their own, two lanes of about equal length (WorldClassOrder).
@Order(4)
class LeaderFailoverTest {
  /** The providers' default Lease names, as the chart leaves them. */
  private static final Map<ProviderJar, String> LEASES =
      Map.of(
          ProviderJar.BOOTSTRAP, "bootstrap-openshift-agent-leader",
          ProviderJar.CONTROLPLANE, "controlplane-openshift-agent-leader");

  /** provider-common's LeaderElection: 15 s lease, acquire tried every 2 s plus up to 120 %. */
  private static final Duration LEASE_DURATION = Duration.ofSeconds(15);

  private static final Duration ACQUIRE_RETRY = Duration.ofMillis(2000 + 2400);

  /** What a loaded 2-core machine may add to a takeover (the process, the API server). */
  private static final Duration SLACK = Duration.ofSeconds(5);

  private enum Stop {
    KILL,
    SIGTERM
  }

  /**
   * One provider's change of leader, as the Lease showed it, and when the API server received the
   * write that took it ({@link #taken}). The Lease's own acquireTime is no measure of that:
   * fabric8's elector stamps it before reading the Lease, so a slow read makes it earlier than the
   * expiry check that preceded the write.
   */
  private record Takeover(
      ProviderJar jar,
      String oldLeader,
      String newLeader,
      Instant oldLeaderLastRenew,
      Instant stopped,
      Duration afterStop) {

    /**
     * The first successful write of the Lease by the new leader after the old one stopped: the one
     * that made it the holder.
     */
    Instant taken(List<AuditLog.Request> audit) {
      return by(audit, newLeader).stream()
          .filter(AuditLog.Request::isWrite)
          .filter(r -> r.resource().equals("leases") && r.name().equals(LEASES.get(jar)))
          .filter(r -> r.code() >= 200 && r.code() < 300)
          .map(AuditLog.Request::received)
          .filter(received -> received.isAfter(stopped))
          .findFirst()
          .orElseThrow(() -> new AssertionError(newLeader + " wrote no Lease " + LEASES.get(jar)));
    }
  }

  @RegisterExtension
  static final E2eWorld e2e = new E2eWorld(options -> options.withProviderReplicas(2));

  @Test
  void aStandbyTakesOverFromAKilledLeaderAndFromAStoppedOne() throws Exception {
    World world = e2e.world();
    try {
      failOverMidFlow(world, Stop.KILL);
      for (ProviderJar jar : ProviderJar.values()) {
        for (ProviderProcess replica : world.replicas(jar).values()) {
          if (!replica.isAlive()) {
            replica.restart();
            replica.awaitReady(Duration.ofSeconds(60));
          }
        }
      }
      failOverMidFlow(world, Stop.SIGTERM);
    } catch (AssertionError | RuntimeException e) {
      throw new AssertionError(withReplicaLogs(e, world), e);
    }
  }

  /**
   * An HA cluster; once the control plane made its Machines and InfraEnvs exist, each provider's
   * leader is stopped, then the standby must lead and the cluster become Available.
   */
  private static void failOverMidFlow(World world, Stop stop) throws Exception {
    ClusterScenario cluster =
        e2e.scenario("failover-" + stop.name().toLowerCase(), "test-multinode");
    cluster.enrolHosts(5);
    Instant applied = Instant.now();
    cluster.apply("/e2e/ha.yaml", Map.of("BOOT_MODE", "LiveISO", "WORKERS", "2"));
    cluster.await(
        "the control plane's 3 Machines and the InfraEnvs of the bootstrap provider",
        () ->
            cluster.controlPlaneMachines().size() == 3
                && !cluster.list(ApiVersions.AGENT_INSTALL, "InfraEnv").isEmpty());
    Instant midFlow = Instant.now();

    Map<ProviderJar, Takeover> takeovers = stopLeaders(world, stop);
    cluster.awaitInstalled(5);
    Duration available = Duration.between(applied, Instant.now());

    List<AuditLog.Request> audit = AuditLog.read(world.hubAuditLog());
    long standbyWrites = 0;
    for (Takeover takeover : takeovers.values()) {
      Instant taken = takeover.taken(audit);
      standbyWrites += assertOneWriterAtATime(audit, takeover, taken);
      if (stop == Stop.KILL) {
        // The standby may take the Lease only once it expired, and takes it soon after.
        Duration free = Duration.between(takeover.oldLeaderLastRenew, taken);
        assertThat(free)
            .as("%s: Lease taken over after the old leader's last renew", takeover.jar)
            .isGreaterThanOrEqualTo(LEASE_DURATION)
            .isLessThan(LEASE_DURATION.plus(ACQUIRE_RETRY).plus(SLACK));
      } else {
        // Released on SIGTERM: no need to wait for the Lease to expire.
        assertThat(takeover.afterStop)
            .as("%s: takeover after SIGTERM", takeover.jar)
            .isLessThan(LEASE_DURATION);
      }
    }
    System.out.printf(
        "leader failover [%s at %.1f s of the flow]: %s; standby writes before leading: %d;"
            + " cluster Available %.1f s after apply%n",
        stop == Stop.KILL ? "SIGKILL" : "SIGTERM",
        seconds(Duration.between(applied, midFlow)),
        takeovers.values().stream()
            .map(takeover -> figures(takeover, takeover.taken(audit)))
            .collect(Collectors.joining("; ")),
        standbyWrites,
        seconds(available));
  }

  /**
   * Stops the current leader of each provider at once, then waits until the other replica holds
   * each Lease.
   */
  private static Map<ProviderJar, Takeover> stopLeaders(World world, Stop stop)
      throws InterruptedException {
    Map<ProviderJar, String> oldLeaders = new EnumMap<>(ProviderJar.class);
    Map<ProviderJar, Instant> stopped = new EnumMap<>(ProviderJar.class);
    Map<ProviderJar, Instant> lastRenew = new EnumMap<>(ProviderJar.class);
    for (ProviderJar jar : ProviderJar.values()) {
      String leader = holder(lease(world, jar));
      assertThat(leader).as("%s has a leader", jar.command).isNotEmpty();
      ProviderProcess process = world.replicas(jar).get(pod(leader));
      stopped.put(jar, Instant.now());
      if (stop == Stop.KILL) {
        process.kill();
      } else {
        assertThat(process.terminate(Duration.ofSeconds(30)))
            .as("%s exits on SIGTERM", leader)
            .isTrue();
      }
      oldLeaders.put(jar, leader);
      // Read after the stop: no renew can follow.
      lastRenew.put(jar, lease(world, jar).getSpec().getRenewTime().toInstant());
    }
    Map<ProviderJar, Takeover> takeovers = new EnumMap<>(ProviderJar.class);
    long deadline =
        System.nanoTime() + LEASE_DURATION.plus(ACQUIRE_RETRY).plus(SLACK).toNanos() * 2;
    while (takeovers.size() < oldLeaders.size()) {
      for (ProviderJar jar : ProviderJar.values()) {
        Lease lease = lease(world, jar);
        String holder = holder(lease);
        if (!takeovers.containsKey(jar)
            && !holder.isEmpty()
            && !pod(holder).equals(pod(oldLeaders.get(jar)))) {
          takeovers.put(
              jar,
              new Takeover(
                  jar,
                  oldLeaders.get(jar),
                  holder,
                  lastRenew.get(jar),
                  stopped.get(jar),
                  Duration.between(stopped.get(jar), Instant.now())));
        }
      }
      assertThat(System.nanoTime())
          .as("the standbys take the Leases (so far: %s)", takeovers.keySet())
          .isLessThan(deadline);
      Thread.sleep(20);
    }
    return takeovers;
  }

  /**
   * From the audit log: the new leader wrote nothing but its Lease before it acquired it, and the
   * old leader nothing but its Lease after that; the new leader did write afterwards (its user
   * agent is found). Returns the standby's writes before leading (zero).
   */
  private static long assertOneWriterAtATime(
      List<AuditLog.Request> audit, Takeover takeover, Instant taken) {
    List<AuditLog.Request> standby = by(audit, takeover.newLeader);
    assertThat(standby.stream().filter(r -> r.received().isBefore(taken)))
        .as("%s's requests before it led (it reads its Lease)", takeover.newLeader)
        .isNotEmpty();
    List<AuditLog.Request> standbyWrites =
        writesApartFromLeases(standby).stream().filter(r -> r.received().isBefore(taken)).toList();
    assertThat(standbyWrites.stream().map(LeaderFailoverTest::describe))
        .as("writes of %s before it led", takeover.newLeader)
        .isEmpty();
    assertThat(writesApartFromLeases(standby))
        .as("writes of %s once it led", takeover.newLeader)
        .isNotEmpty();
    assertThat(
            writesApartFromLeases(by(audit, takeover.oldLeader)).stream()
                .filter(r -> !r.received().isBefore(taken))
                .map(LeaderFailoverTest::describe))
        .as("writes of %s once %s led", takeover.oldLeader, takeover.newLeader)
        .isEmpty();
    return standbyWrites.size();
  }

  /** A replica's requests: its user agent ends with its identity in brackets. */
  private static List<AuditLog.Request> by(List<AuditLog.Request> audit, String identity) {
    return audit.stream().filter(r -> r.userAgent().endsWith("(" + identity + ")")).toList();
  }

  /** Writes of every kind (Events too) but to coordination.k8s.io Leases. */
  private static List<AuditLog.Request> writesApartFromLeases(List<AuditLog.Request> requests) {
    return requests.stream()
        .filter(AuditLog.Request::isWrite)
        .filter(r -> !(r.apiGroup().equals("coordination.k8s.io") && r.resource().equals("leases")))
        .toList();
  }

  private static String describe(AuditLog.Request r) {
    return r.received()
        + " "
        + r.verb()
        + " "
        + r.resource()
        + " "
        + r.namespace()
        + "/"
        + r.name();
  }

  private static String figures(Takeover t, Instant taken) {
    return String.format(
        "%s %s → %s %.1f s after the stop (%.1f s after the old leader's last renew)",
        t.jar.command,
        pod(t.oldLeader),
        pod(t.newLeader),
        seconds(t.afterStop),
        seconds(Duration.between(t.oldLeaderLastRenew, taken)));
  }

  private static Lease lease(World world, ProviderJar jar) {
    return world
        .hub()
        .leases()
        .inNamespace(world.leaseNamespace(jar))
        .withName(LEASES.get(jar))
        .get();
  }

  private static String holder(Lease lease) {
    String holder = lease == null ? null : lease.getSpec().getHolderIdentity();
    return holder == null ? "" : holder;
  }

  /** The pod name in a holder identity ({@code <pod>_<random>}). */
  private static String pod(String identity) {
    return identity.substring(0, identity.lastIndexOf('_'));
  }

  private static double seconds(Duration d) {
    return d.toMillis() / 1000.0;
  }

  /** The failure with every replica's log (E2eWorld adds the clusters' dumps). */
  private static String withReplicaLogs(Throwable e, World world) {
    StringBuilder dump = new StringBuilder(String.valueOf(e.getMessage()));
    for (ProviderJar jar : ProviderJar.values()) {
      world
          .replicas(jar)
          .forEach((pod, p) -> dump.append("\n").append(pod).append(" log: ").append(p.log()));
    }
    return dump.toString();
  }
}
