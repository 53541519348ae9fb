package io.openshiftagent.provider.runtime;

import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.extended.leaderelection.resourcelock.LeaderElectionRecord;
import io.fabric8.kubernetes.client.extended.leaderelection.resourcelock.LeaseLock;

/**
 * The leader Lease, renewed in one request as client-go renews it. fabric8's elector reads the
 * Lease before each write; a leader whose last write succeeded already knows the Lease as that
 * write left it, so it writes on top of it at once. The write carries that resourceVersion: if
 * anyone changed the Lease meanwhile, the API server refuses it (conflict), and the next attempt
 * reads. Any failed request forgets what was known, as its outcome is unknown. Halving the requests
 * of a renew keeps the leader renewing when a loaded API server takes seconds per request.
 */
final class OptimisticLeaseLock extends LeaseLock {
  private final String namespace;
  private final String name;

  /** The Lease as our own last successful write left it; null: read it first. */
  private Lease written;

  /** The Lease as last read, whose resourceVersion a write after that read carries. */
  private Lease read;

  OptimisticLeaseLock(String namespace, String name, String identity) {
    super(namespace, name, identity);
    this.namespace = namespace;
    this.name = name;
  }

  @Override
  public synchronized LeaderElectionRecord get(KubernetesClient client) {
    if (written != null) {
      return toRecord(written);
    }
    read = remember(() -> client.leases().inNamespace(namespace).withName(name).get());
    return read == null ? null : toRecord(read);
  }

  @Override
  public synchronized void create(KubernetesClient client, LeaderElectionRecord record) {
    Lease lease = toResource(record, getObjectMeta(null));
    written = remember(() -> client.resource(lease).create());
  }

  @Override
  public synchronized void update(KubernetesClient client, LeaderElectionRecord record) {
    Lease base = written != null ? written : read;
    if (base == null) {
      throw new IllegalStateException("the Lease must be read before it is written");
    }
    Lease lease = toResource(record, getObjectMeta(base.getMetadata().getResourceVersion()));
    Lease result =
        remember(() -> client.resource(lease).patch(PatchContext.of(PatchType.JSON_MERGE)));
    // Only a Lease we hold is worth writing on without reading: anyone else's may change any time.
    written = identity().equals(record.getHolderIdentity()) ? result : null;
  }

  /** Runs a request; when it fails, nothing known of the Lease is trusted any more. */
  private Lease remember(java.util.function.Supplier<Lease> request) {
    try {
      return request.get();
    } catch (RuntimeException e) {
      written = null;
      read = null;
      throw e;
    }
  }
}
