package io.openshiftagent.provider.runtime;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.extended.leaderelection.LeaderCallbacks;
import io.fabric8.kubernetes.client.extended.leaderelection.LeaderElectionConfig;
import io.fabric8.kubernetes.client.extended.leaderelection.LeaderElectorBuilder;
import io.fabric8.kubernetes.client.extended.leaderelection.resourcelock.LeaderElectionRecord;
import io.fabric8.kubernetes.client.extended.leaderelection.resourcelock.Lock;
import io.openshiftagent.provider.reconcile.DaemonThreads;
import java.time.Duration;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Holds the leader Lease for this process and guarantees that the leader stops before a standby can
 * take the Lease over, as client-go's leader election does.
 *
 * <p>A standby takes the Lease once the lease duration has passed since the leader's last renew
 * time (the time the leader wrote into the Lease). The leader therefore gives up at the renew
 * deadline after that same renew time, earlier, whatever its requests are doing: a fence checks the
 * deadline every {@link #FENCE_PERIOD} and calls {@code lost} (the runtime halts the process) once
 * it has passed. fabric8's elector alone does not guarantee this: it looks at its deadline only
 * between two renew attempts, and one attempt could last about 19 s in the client's request retries
 * (docs/reliability.md). The Lease requests also go through a client of their own that never
 * retries and gives up after {@link LeaseTiming#requestTimeout()}, so that the elector tries again
 * instead of waiting on one stuck request; a leader renews with one request ({@link
 * OptimisticLeaseLock}).
 *
 * <p>Only the leader runs the operator: {@code leading} starts it, on a thread of its own so that
 * renewing goes on while its informers fill.
 */
final class LeaderElection implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(LeaderElection.class);

  static final Duration FENCE_PERIOD = Duration.ofMillis(200);

  private final KubernetesClient client;
  private final String namespace;
  private final String name;
  private final String identity;
  private final Runnable leading;
  private final Runnable lost;
  private final LeaseTiming timing;
  private final ScheduledExecutorService fence;
  private volatile ZonedDateTime renewedAt;
  private volatile boolean leader;
  private volatile boolean closing;
  private CompletableFuture<?> election;

  /**
   * @param config a configuration of its own for the Lease requests (its timeouts are changed)
   * @param leading called once this process holds the Lease
   * @param lost called when the Lease is lost, or may be, without {@link #close()}: the caller must
   *     stop writing at once
   */
  LeaderElection(
      Config config,
      String namespace,
      String name,
      String identity,
      LeaseTiming timing,
      Runnable leading,
      Runnable lost) {
    config.setRequestRetryBackoffLimit(0);
    config.setRequestTimeout((int) timing.requestTimeout().toMillis());
    config.setConnectionTimeout((int) timing.requestTimeout().toMillis());
    this.timing = timing;
    this.client = new KubernetesClientBuilder().withConfig(config).build();
    this.namespace = namespace;
    this.name = name;
    this.identity = identity;
    this.leading = leading;
    this.lost = lost;
    this.fence = Executors.newSingleThreadScheduledExecutor(DaemonThreads.named("leader-fence"));
  }

  /** Starts trying to take the Lease; returns at once. */
  void start() {
    LeaderElectionConfig config =
        new LeaderElectionConfig(
            new RenewRecordingLock(new OptimisticLeaseLock(namespace, name, identity)),
            timing.leaseDuration(),
            timing.renewDeadline(),
            timing.retryPeriod(),
            new LeaderCallbacks(this::startedLeading, this::stoppedLeading, this::newLeader),
            false, // released by close(), once the operator has stopped
            name);
    election =
        new LeaderElectorBuilder(
                client, Executors.newCachedThreadPool(DaemonThreads.named("leader-election")))
            .withConfig(config)
            .build()
            .start();
    fence.scheduleAtFixedRate(
        this::checkDeadline,
        FENCE_PERIOD.toMillis(),
        FENCE_PERIOD.toMillis(),
        TimeUnit.MILLISECONDS);
  }

  boolean isLeader() {
    return leader;
  }

  String identity() {
    return identity;
  }

  private void startedLeading() {
    leader = true;
    LOG.info("became leader as {}", identity);
    DaemonThreads.named("leader-start").newThread(leading).start();
  }

  private void stoppedLeading() {
    if (leader) {
      leader = false;
      giveUp("lost the leader Lease");
    }
  }

  private void newLeader(String holder) {
    LOG.info("leader is {}", holder);
  }

  /** Gives up once the renew deadline has passed since the last renew time we wrote. */
  private void checkDeadline() {
    ZonedDateTime renewed = renewedAt;
    if (leader
        && renewed != null
        && ZonedDateTime.now(ZoneOffset.UTC).isAfter(renewed.plus(timing.renewDeadline()))) {
      leader = false;
      giveUp("could not renew the leader Lease within " + timing.renewDeadline());
    }
  }

  private void giveUp(String why) {
    if (!closing) {
      LOG.error("{}; stopping so that only the new leader writes", why);
      lost.run();
    }
  }

  /** Stops renewing and empties the Lease's holder if it is still us. */
  @Override
  public void close() {
    closing = true;
    fence.shutdownNow();
    if (election != null) {
      stopElecting(election);
    }
    new LeaseRelease(client, namespace, name, identity).release();
    client.close();
  }

  /**
   * Cancels the elector, waiting at most a request timeout. The cancellation runs fabric8's
   * stopLeading, which takes the elector's monitor; a renew in flight holds it for as long as its
   * write waits for an answer, and a write through a link that went dead was seen to outlast the
   * client's request timeout. Then the Lease is released anyway: a renew that lands after the
   * release only makes the standby wait for the Lease to expire.
   */
  private void stopElecting(CompletableFuture<?> running) {
    Thread canceller =
        DaemonThreads.named("leader-election-stop").newThread(() -> running.cancel(false));
    canceller.start();
    try {
      canceller.join(timing.requestTimeout().toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    if (canceller.isAlive()) {
      LOG.warn(
          "the leader election did not stop within {}: a renew is still in flight; releasing the"
              + " Lease regardless",
          timing.requestTimeout());
    }
  }

  /** The Lease lock, noting the renew time of each write that made or kept us the holder. */
  private final class RenewRecordingLock implements Lock {
    private final Lock lease;

    RenewRecordingLock(Lock lease) {
      this.lease = lease;
    }

    @Override
    public LeaderElectionRecord get(KubernetesClient client) {
      return lease.get(client);
    }

    @Override
    public void create(KubernetesClient client, LeaderElectionRecord record) {
      lease.create(client, record);
      written(record);
    }

    @Override
    public void update(KubernetesClient client, LeaderElectionRecord record) {
      lease.update(client, record);
      written(record);
    }

    private void written(LeaderElectionRecord record) {
      if (identity.equals(record.getHolderIdentity())) {
        renewedAt = record.getRenewTime();
      }
    }

    @Override
    public String identity() {
      return lease.identity();
    }

    @Override
    public String describe() {
      return lease.describe();
    }
  }
}
