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
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;

/**
 * Two replicas' leader elections on the real API server: a leader cut off from the API server
 * (requests hang, as in a network partition) gives up before the standby can take its Lease.
 */
@WithKubeApiServer
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
    Config direct = Config.fromKubeconfig(env.kubeConfigYaml());
    URI api = URI.create(direct.getMasterUrl());
    try (PartitionProxy link = PartitionProxy.start(api.getPort())) {
      Config throughLink = Config.fromKubeconfig(env.kubeConfigYaml());
      throughLink.setMasterUrl("https://" + api.getHost() + ":" + link.port());
      try (Replica leader = new Replica(throughLink, namespace, "replica-a")) {
        await("replica-a leads", Duration.ofSeconds(30), () -> leader.ledAt.get() != null);
        try (Replica standby =
            new Replica(Config.fromKubeconfig(env.kubeConfigYaml()), namespace, "replica-b")) {
          // A few renew periods: the standby keeps waiting while the leader renews.
          Thread.sleep(3 * LeaderElection.RETRY_PERIOD.toMillis());
          assertThat(standby.ledAt.get()).as("standby led while the leader renewed").isNull();

          link.cut();
          Instant cut = Instant.now();
          await(
              "replica-b takes the Lease",
              LeaderElection.LEASE_DURATION.multipliedBy(3),
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
              .isLessThan(LeaderElection.RENEW_DEADLINE.plusSeconds(1));
          assertThat(lastRenew.toInstant()).as("the standby renews").isAfter(cut);
        }
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
}
