package io.openshiftagent.bootstrap.hosts;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.openshiftagent.api.external.OwnedFieldsPatch;
import io.openshiftagent.api.external.metal3.BareMetalHost;
import io.openshiftagent.bootstrap.names.Names;
import io.openshiftagent.provider.reconcile.Metadata;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Detaches a host once the installer has written its disk, so that the baremetal-operator never
 * boots the discovery ISO on it again (assisted-service's BMAC does the same), and attaches it
 * again when its Machine goes: Cluster API deletes the Metal3Machine first, and CAPM3 releases it
 * only once the baremetal-operator has deprovisioned the host, which it does not do while detached.
 */
public final class HostDetachment {
  private static final Logger LOG = LoggerFactory.getLogger(HostDetachment.class);

  private final KubernetesClient client;

  public HostDetachment(KubernetesClient client) {
    this.client = client;
  }

  /** Whether an installed host must be detached now: not yet, and its Machine is staying. */
  public static boolean needed(BareMetalHost host, boolean machineDeleting) {
    return !Hosts.isDetached(host) && !machineDeleting;
  }

  /**
   * Detaches the host as {@code host} shows it; false when it changed since (a conflict): someone
   * else's detachment, read from a cache that lagged, must not be overwritten by ours.
   */
  public boolean detach(BareMetalHost host) {
    try {
      new OwnedFieldsPatch()
          .set(Names.DETACHED_BY, "metadata", "annotations", Names.BMH_DETACHED_ANNOTATION)
          .requireResourceVersion(host.getMetadata().getResourceVersion())
          .applyTo(client, host);
    } catch (KubernetesClientException e) {
      if (e.getCode() == 409) {
        return false;
      }
      throw e;
    }
    // No Event: the annotation's value names us.
    LOG.info(
        "detached BareMetalHost {}: the installer wrote its disk, the discovery ISO is not booted"
            + " again",
        Metadata.key(host));
    return true;
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
