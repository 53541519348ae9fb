package io.openshiftagent.controlplane.upgrade;

import io.openshiftagent.api.controlplane.v1alpha3.OpenshiftAssistedControlPlane;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * When the workload cluster is due a look: nothing there can be watched from the hub, so it is
 * looked at on a spec change at once, otherwise not more often than every half poll interval
 * (AgentClusterInstall and Machine events come much more often).
 */
public final class WorkloadLooks {
  private WorkloadLooks() {}

  /**
   * @param last when this process last looked at the control plane's cluster
   */
  public static boolean due(
      OpenshiftAssistedControlPlane cp,
      Optional<Instant> last,
      Duration pollInterval,
      Instant now) {
    boolean specChanged =
        cp.getStatus() == null
            || !cp.getMetadata().getGeneration().equals(cp.getStatus().observedGeneration);
    return specChanged
        || last.isEmpty()
        || !now.isBefore(last.get().plus(pollInterval.dividedBy(2)));
  }
}
