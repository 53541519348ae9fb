package io.openshiftagent.controlplane.upgrade;

import io.javaoperatorsdk.operator.processing.event.ResourceID;
import io.openshiftagent.api.controlplane.v1alpha3.OpenshiftAssistedControlPlane;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * When each control plane's workload cluster was last looked at: nothing there can be watched from
 * the hub, so it is looked at on a spec change at once, otherwise not more often than the poll
 * interval asks (AgentClusterInstall and Machine events come much more often).
 */
public final class WorkloadLooks {
  private final Duration pollInterval;
  private final Clock clock;
  private final Map<ResourceID, Instant> lastLooks = new ConcurrentHashMap<>();

  public WorkloadLooks(Duration pollInterval, Clock clock) {
    this.pollInterval = pollInterval;
    this.clock = clock;
  }

  public boolean due(OpenshiftAssistedControlPlane cp) {
    Instant last = lastLooks.get(ResourceID.fromResource(cp));
    boolean specChanged =
        cp.getStatus() == null
            || !cp.getMetadata().getGeneration().equals(cp.getStatus().observedGeneration);
    return specChanged
        || last == null
        || !clock.instant().isBefore(last.plus(pollInterval.dividedBy(2)));
  }

  public void looked(OpenshiftAssistedControlPlane cp) {
    lastLooks.put(ResourceID.fromResource(cp), clock.instant());
  }

  public void forget(OpenshiftAssistedControlPlane cp) {
    lastLooks.remove(ResourceID.fromResource(cp));
  }
}
