package io.openshiftagent.controlplane.upgrade;

import io.openshiftagent.api.controlplane.v1alpha3.OpenshiftAssistedControlPlane;
import io.openshiftagent.controlplane.scope.ControlPlaneScope;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * When the workload cluster is due a look: nothing there can be watched from the hub, so it is
 * looked at on a spec change at once, otherwise not more often than half its interval
 * (AgentClusterInstall and Machine events come much more often). The interval is the poll interval
 * while something is under way (an upgrade, versions other than the spec asks); each look at a
 * settled cluster doubles it, up to {@link #SETTLED_MAX} poll intervals: a hub of thousands of
 * installed clusters looks at each every few minutes, not every minute, and a spec change still
 * brings a look at once.
 */
public final class WorkloadLooks {
  /** How many poll intervals apart the looks at a settled cluster come, at most. */
  public static final int SETTLED_MAX = 16;

  private WorkloadLooks() {}

  /** A look at the installed cluster: when, and how long until the next. */
  public record Look(Instant at, Duration interval) {}

  /**
   * @param last this process's last look at the control plane's cluster
   */
  public static boolean due(OpenshiftAssistedControlPlane cp, Optional<Look> last, Instant now) {
    return !ControlPlaneScope.statusObservesSpec(cp)
        || last.isEmpty()
        || !now.isBefore(last.get().at().plus(last.get().interval().dividedBy(2)));
  }

  /**
   * The look made {@code now}.
   *
   * @param settled whether it found the cluster settled: no upgrade under way, the versions as
   *     asked
   */
  public static Look looked(
      Optional<Look> last, boolean settled, Duration pollInterval, Instant now) {
    Duration max = pollInterval.multipliedBy(SETTLED_MAX);
    Duration interval =
        !settled || last.isEmpty()
            ? pollInterval
            : last.get().interval().multipliedBy(2).compareTo(max) <= 0
                ? last.get().interval().multipliedBy(2)
                : max;
    return new Look(now, interval);
  }

  /** How long until the next look: when the control plane's reconcile is due again. */
  public static Duration interval(Optional<Look> last, Duration pollInterval) {
    return last.map(Look::interval).orElse(pollInterval);
  }
}
