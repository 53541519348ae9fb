package io.openshiftagent.provider.runtime;

import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Gives up the leader Lease on a clean stop, as client-go's ReleaseOnCancel does, so that a standby
 * takes over at once instead of after the lease duration. JOSDK's leader elector does not do this
 * itself.
 */
final class LeaseRelease {
  private static final Logger LOG = LoggerFactory.getLogger(LeaseRelease.class);

  private final KubernetesClient client;
  private final String namespace;
  private final String name;
  private final String identity;

  LeaseRelease(KubernetesClient client, String namespace, String name, String identity) {
    this.client = client;
    this.namespace = namespace;
    this.name = name;
    this.identity = identity;
  }

  /**
   * Empties the holder if it is still us; the resourceVersion guard keeps us from clobbering a new
   * leader.
   */
  void release() {
    try {
      Lease lease = client.leases().inNamespace(namespace).withName(name).get();
      if (lease == null || !identity.equals(lease.getSpec().getHolderIdentity())) {
        return;
      }
      lease.getSpec().setHolderIdentity(null);
      lease.getSpec().setLeaseDurationSeconds(1);
      client.resource(lease).update();
      LOG.info("released leader Lease {}/{}", namespace, name);
    } catch (KubernetesClientException e) {
      LOG.warn("could not release leader Lease {}/{}: {}", namespace, name, e.getMessage());
    }
  }
}
