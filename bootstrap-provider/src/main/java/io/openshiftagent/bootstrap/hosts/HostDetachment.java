package io.openshiftagent.bootstrap.hosts;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.openshiftagent.api.external.OwnedFieldsPatch;
import io.openshiftagent.api.external.metal3.BareMetalHost;
import io.openshiftagent.bootstrap.Names;
import io.openshiftagent.provider.reconcile.EventRecorder;

/**
 * Detaches a host once the installer has written its disk, so that the baremetal-operator never
 * boots the discovery ISO on it again (assisted-service's BMAC does the same), and attaches it
 * again when its Machine goes: Cluster API deletes the Metal3Machine first, and CAPM3 releases it
 * only once the baremetal-operator has deprovisioned the host, which it does not do while detached.
 */
public final class HostDetachment {
  private final KubernetesClient client;
  private final EventRecorder events;

  public HostDetachment(KubernetesClient client, EventRecorder events) {
    this.client = client;
    this.events = events;
  }

  /** Whether an installed host must be detached now: not yet, and its Machine is staying. */
  public static boolean needed(BareMetalHost host, boolean machineDeleting) {
    return !Hosts.isDetached(host) && !machineDeleting;
  }

  public void detach(BareMetalHost host) {
    new OwnedFieldsPatch()
        .set(Names.DETACHED_BY, "metadata", "annotations", Names.BMH_DETACHED_ANNOTATION)
        .applyTo(client, host);
    events.normal(
        host,
        "Detached",
        "Detach",
        "the installer wrote the disk; detached so the discovery ISO is not booted again");
  }

  /** Gives a host we detached back to the baremetal-operator; others' detachments stay. */
  public void reattach(BareMetalHost host) {
    if (Hosts.isDetachedByUs(host)) {
      new OwnedFieldsPatch()
          .set(null, "metadata", "annotations", Names.BMH_DETACHED_ANNOTATION)
          .applyTo(client, host);
    }
  }
}
