package io.openshiftagent.provider.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.client.Config;
import io.openshiftagent.testsupport.KubeApiServerEnvironment;
import io.openshiftagent.testsupport.WithKubeApiServer;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;

/**
 * Two replicas' leader elections on the real API server: a leader cut off from the API server
 * (requests hang, as in a network partition) gives up before the standby can take its Lease. The
 * tests run side by side, each in a namespace of its own: they mostly wait for the Lease's times.
 */
@WithKubeApiServer
@Execution(ExecutionMode.CONCURRENT)
class LeaderElectionTest {
  private static final String LEASE = "election-test-leader";

  /** One replica's election and when its callbacks ran. */
  private static final class Replica implements AutoCloseable {
    final AtomicReference<Instant> ledAt = new AtomicReference<>();
    final AtomicReference<Instant> gaveUpAt = new AtomicReference<>();
    final LeaderElection election;

    Replica(Config config, String namespace, String identity) {
      election =
          new LeaderElection(
              config,
              namespace,
              LEASE,
              identity,
              LeaseTiming.DEFAULT,
              () -> ledAt.set(Instant.now()),
              () -> gaveUpAt.set(Instant.now()));
      election.start();
    }

    @Override
    public void close() {
      election.close();
    }
  }

  @Test
  void aPartitionedLeaderGivesUpBeforeTheStandbyTakesItsLease(KubeApiServerEnvironment env)
      throws Exception {
    String namespace = env.createNamespace("election");
    URI api = URI.create(Config.fromKubeconfig(env.kubeConfigYaml()).getMasterUrl());
    try (PartitionProxy link = PartitionProxy.start(api.getPort())) {
      Config throughLink = throughLink(env, api, link);
      try (Replica leader = new Replica(throughLink, namespace, "replica-a")) {
        await("replica-a leads", Duration.ofSeconds(30), () -> leader.ledAt.get() != null);
        try (Replica standby =
            new Replica(Config.fromKubeconfig(env.kubeConfigYaml()), namespace, "replica-b")) {
          // A few renew periods: the standby keeps waiting while the leader renews.
          Thread.sleep(3 * LeaseTiming.DEFAULT.retryPeriod().toMillis());
          assertThat(standby.ledAt.get()).as("standby led while the leader renewed").isNull();

          link.cut();
          Instant cut = Instant.now();
          await(
              "replica-b takes the Lease",
              LeaseTiming.DEFAULT.leaseDuration().multipliedBy(3),
              () -> standby.ledAt.get() != null);
          ZonedDateTime lastRenew = lease(env, namespace).getSpec().getRenewTime();
          await("replica-a gives up", Duration.ofSeconds(5), () -> leader.gaveUpAt.get() != null);

          // Only the leader's renew time we can still read: the standby wrote a new one.
          Instant gaveUp = leader.gaveUpAt.get();
          Instant led = standby.ledAt.get();
          System.out.printf(
              "partitioned leader: gave up %d ms after the link was cut, the standby led %d ms after"
                  + " it (%d ms after the cut)%n",
              Duration.between(cut, gaveUp).toMillis(),
              Duration.between(gaveUp, led).toMillis(),
              Duration.between(cut, led).toMillis());
          assertThat(gaveUp).as("the leader gives up before the standby leads").isBefore(led);
          assertThat(Duration.between(cut, gaveUp))
              .as("the leader gives up within the renew deadline of its last renew before the cut")
              .isLessThan(LeaseTiming.DEFAULT.renewDeadline().plusSeconds(1));
          assertThat(lastRenew.toInstant()).as("the standby renews").isAfter(cut);
        }
      }
    }
  }

  /**
   * Longer than the 2.5 s Lease request timeout the providers had, with which a loaded hub (each
   * request 2–3 s) made a leader halt itself in LeastPrivilegeTest; shorter than today's.
   */
  private static final Duration SLOW_ANSWERS = Duration.ofMillis(2700);

  @Test
  void aLeaderKeepsItsLeaseWhileTheApiServerAnswersEachRequestInSeconds(
      KubeApiServerEnvironment env) throws Exception {
    String namespace = env.createNamespace("election-slow");
    URI api = URI.create(Config.fromKubeconfig(env.kubeConfigYaml()).getMasterUrl());
    try (PartitionProxy link = PartitionProxy.start(api.getPort())) {
      Config throughLink = throughLink(env, api, link);
      try (Replica leader = new Replica(throughLink, namespace, "replica-a")) {
        await("replica-a leads", Duration.ofSeconds(30), () -> leader.ledAt.get() != null);
        link.delayResponses(SLOW_ANSWERS);
        Instant slowed = Instant.now();
        List<Instant> renewals = new ArrayList<>();
        Duration watched = LeaseTiming.DEFAULT.leaseDuration().plusSeconds(5);
        while (Instant.now().isBefore(slowed.plus(watched)) && leader.gaveUpAt.get() == null) {
          Instant renewed = lease(env, namespace).getSpec().getRenewTime().toInstant();
          if (renewed.isAfter(slowed) && (renewals.isEmpty() || !renewals.contains(renewed))) {
            renewals.add(renewed);
          }
          Thread.sleep(200);
        }
        System.out.printf(
            "slow API server (answers %d ms late): %d renewals in %d s%n",
            SLOW_ANSWERS.toMillis(), renewals.size(), watched.toSeconds());
        assertThat(leader.gaveUpAt.get()).as("the leader gave up").isNull();
        assertThat(renewals)
            .as("renewals while every answer came late")
            .hasSizeGreaterThanOrEqualTo(3);
      }
    }
  }

  private static Lease lease(KubeApiServerEnvironment env, String namespace) {
    return env.client().leases().inNamespace(namespace).withName(LEASE).get();
  }

  private static void await(String what, Duration timeout, BooleanSupplier condition)
      throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError(what + ": not within " + timeout);
      }
      Thread.sleep(50);
    }
  }

  /** The API server's client configuration, pointed at {@code link} in front of it. */
  private static Config throughLink(KubeApiServerEnvironment env, URI api, PartitionProxy link) {
    Config config = Config.fromKubeconfig(env.kubeConfigYaml());
    config.setMasterUrl("https://" + api.getHost() + ":" + link.port());
    return config;
  }
}
