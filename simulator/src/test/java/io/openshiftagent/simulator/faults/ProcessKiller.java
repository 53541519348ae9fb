package io.openshiftagent.simulator.faults;

import io.openshiftagent.simulator.WorldProcess;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CopyOnWriteArrayList;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Kills one process of the world (SIGKILL: one of our providers, or CAPM3 or the
 * baremetal-operator) again and again at random moments and starts it again, until told to stop;
 * the process runs when {@link #stop} returns. Each round waits until the restarted provider is
 * ready, then picks a moment: either a random delay, or shortly after the next change in the
 * namespace, when the provider is most likely mid-reconcile. One kill in {@value
 * #STARTUP_KILL_ONE_IN} is followed by another one during the next process's startup.
 */
final class ProcessKiller implements Runnable {
  private static final Logger LOG = LoggerFactory.getLogger(ProcessKiller.class);

  /** The most a kill waits after a change it was told of: providers react within this. */
  private static final int AFTER_CHANGE_MAX_MS = 400;

  /** One in this many kills is followed by a kill of the new process before it is ready. */
  private static final int STARTUP_KILL_ONE_IN = 5;

  /** About how long a provider takes to be ready on a loaded machine. */
  private static final Duration STARTUP_MAX = Duration.ofSeconds(4);

  /**
   * One kill: when, how it was timed, and how long the process started after it took to be ready
   * (null when that process was killed during its startup).
   */
  record Kill(Instant at, String moment, Duration readyAfterRestart) {}

  private final WorldProcess process;
  private final String userAgentPrefix;
  private final Random random;
  private final Duration maxDelay;
  private final int maxKills;
  private final Changes changes;
  private final List<Kill> kills = new CopyOnWriteArrayList<>();
  private final Thread thread;
  private volatile boolean stopping;
  private volatile Throwable failure;

  /**
   * @param userAgentPrefix how the hub's audit log names the process's requests
   * @param maxDelay the longest wait before a kill
   * @param maxKills after this many kills it stops by itself (the process runs on)
   */
  ProcessKiller(
      WorldProcess process,
      String userAgentPrefix,
      long seed,
      Duration maxDelay,
      int maxKills,
      Changes changes) {
    this.process = process;
    this.userAgentPrefix = userAgentPrefix;
    this.maxKills = maxKills;
    this.random = new Random(seed);
    this.maxDelay = maxDelay;
    this.changes = changes;
    this.thread = new Thread(this, "killer-" + process.name());
  }

  void start() {
    thread.start();
  }

  @Override
  public void run() {
    try {
      while (!stopping && kills.size() < maxKills) {
        String moment = waitForAMoment();
        if (stopping) {
          return;
        }
        Instant at = Instant.now();
        process.kill();
        if (random.nextInt(STARTUP_KILL_ONE_IN) == 0) {
          killDuringStartup();
        }
        Duration ready = process.restart();
        kills.add(new Kill(at, moment, ready));
        LOG.info(
            "killed {} ({}), #{}; ready again {} ms after its restart",
            process.name(),
            moment,
            kills.size(),
            ready.toMillis());
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (Throwable e) {
      failure = e;
      LOG.error("killing {} failed", process.name(), e);
    }
  }

  /**
   * Starts the provider and kills it before it is ready (while its informers list and its first
   * reconciles start), at a random instant of its usual startup.
   */
  private void killDuringStartup() throws Exception {
    process.startWithoutWaiting();
    long delay = random.nextLong(STARTUP_MAX.toMillis() + 1);
    Thread.sleep(delay);
    Instant at = Instant.now();
    process.kill();
    kills.add(new Kill(at, "during startup, " + delay + " ms after its start", null));
    LOG.info(
        "killed {} during startup, {} ms after its start, #{}",
        process.name(),
        delay,
        kills.size());
  }

  /**
   * Half the time a random delay up to the maximum; otherwise the next change in the namespace (or
   * the maximum, if none comes) and then a random instant within {@value #AFTER_CHANGE_MAX_MS} ms.
   */
  private String waitForAMoment() throws InterruptedException {
    if (random.nextBoolean()) {
      long delay = random.nextLong(maxDelay.toMillis() + 1);
      sleepUnlessStopping(delay);
      return "after " + delay + " ms";
    }
    long seen = changes.count();
    boolean changed = changes.awaitAfter(seen, maxDelay);
    long delay = random.nextLong(AFTER_CHANGE_MAX_MS + 1);
    sleepUnlessStopping(delay);
    return changed
        ? delay + " ms after a change"
        : "no change, after " + maxDelay.toMillis() + " ms";
  }

  private void sleepUnlessStopping(long millis) throws InterruptedException {
    long until = System.nanoTime() + millis * 1_000_000;
    while (!stopping && System.nanoTime() < until) {
      Thread.sleep(Math.min(50, Math.max(1, (until - System.nanoTime()) / 1_000_000)));
    }
  }

  int killCount() {
    return kills.size();
  }

  int maxKills() {
    return maxKills;
  }

  List<Kill> kills() {
    return List.copyOf(kills);
  }

  String name() {
    return process.name();
  }

  String userAgentPrefix() {
    return userAgentPrefix;
  }

  /** Kills no more; the kill under way, if any, still ends with the provider restarted. */
  void stopKilling() {
    stopping = true;
  }

  /** Stops killing; returns once the provider, started after the last kill, is ready. */
  void stop() throws InterruptedException {
    stopKilling();
    thread.join(Duration.ofMinutes(2).toMillis());
    if (thread.isAlive()) {
      throw new AssertionError("the killer of " + process.name() + " did not stop");
    }
    if (failure != null) {
      throw new AssertionError("killing " + process.name() + " failed", failure);
    }
  }

  /** Why the killer stopped by itself, if it did. */
  Throwable failure() {
    return failure;
  }
}
