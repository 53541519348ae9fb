package io.openshiftagent.controlplane.upgrade;

import io.javaoperatorsdk.operator.processing.event.ResourceID;
import io.openshiftagent.api.controlplane.v1alpha3.OpenshiftAssistedControlPlane;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * When each control plane's workload cluster was last looked at, and when it is looked at next:
 * nothing there can be watched from the hub, so it is looked at on a spec change at once, otherwise
 * not more often than its interval asks (AgentClusterInstall and Machine events come much more
 * often). The interval is the poll interval while something is under way (an upgrade, versions
 * other than the spec asks); each look at a settled cluster doubles it, up to {@link #SETTLED_MAX}
 * times the poll interval: a hub of thousands of installed clusters looks at each every few
 * minutes, not every minute, and a spec change still brings a look at once.
 */
public final class WorkloadLooks {
  /** How many poll intervals apart the looks at a settled cluster come, at most. */
  public static final int SETTLED_MAX = 16;

  private final Duration pollInterval;
  private final Clock clock;
  private final Map<ResourceID, Look> lastLooks = new ConcurrentHashMap<>();

  private record Look(Instant at, Duration interval) {}

  public WorkloadLooks(Duration pollInterval, Clock clock) {
    this.pollInterval = pollInterval;
    this.clock = clock;
  }

  public boolean due(OpenshiftAssistedControlPlane cp) {
    Look last = lastLooks.get(ResourceID.fromResource(cp));
    boolean specChanged =
        cp.getStatus() == null
            || !cp.getMetadata().getGeneration().equals(cp.getStatus().observedGeneration);
    return specChanged
        || last == null
        || !clock.instant().isBefore(last.at().plus(last.interval().dividedBy(2)));
  }

  /**
   * @param settled whether the look found the cluster settled: no upgrade under way, the versions
   *     as asked
   */
  public void looked(OpenshiftAssistedControlPlane cp, boolean settled) {
    ResourceID id = ResourceID.fromResource(cp);
    Look last = lastLooks.get(id);
    Duration interval =
        !settled || last == null
            ? pollInterval
            : min(last.interval().multipliedBy(2), settledMax());
    lastLooks.put(id, new Look(clock.instant(), interval));
  }

  /** How long until the control plane's next look: when its reconcile is due again. */
  public Duration interval(OpenshiftAssistedControlPlane cp) {
    Look last = lastLooks.get(ResourceID.fromResource(cp));
    return last == null ? pollInterval : last.interval();
  }

  public void forget(OpenshiftAssistedControlPlane cp) {
    lastLooks.remove(ResourceID.fromResource(cp));
  }

  private Duration settledMax() {
    return pollInterval.multipliedBy(SETTLED_MAX);
  }

  private static Duration min(Duration a, Duration b) {
    return a.compareTo(b) <= 0 ? a : b;
  }
}
