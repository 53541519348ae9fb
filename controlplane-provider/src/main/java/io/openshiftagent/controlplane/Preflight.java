package io.openshiftagent.controlplane;

import static io.openshiftagent.controlplane.names.ControlPlaneConditions.AVAILABLE;
import static io.openshiftagent.controlplane.names.ControlPlaneConditions.CLUSTER_DELETING;
import static io.openshiftagent.controlplane.names.ControlPlaneConditions.NOT_PAUSED;
import static io.openshiftagent.controlplane.names.ControlPlaneConditions.PAUSED;
import static io.openshiftagent.controlplane.names.ControlPlaneConditions.WAITING_FOR_CLUSTER;
import static io.openshiftagent.controlplane.names.ControlPlaneConditions.WAITING_FOR_CONTROL_PLANE_ENDPOINT;
import static io.openshiftagent.controlplane.names.ControlPlaneConditions.WAITING_FOR_INFRASTRUCTURE;

import io.openshiftagent.api.controlplane.v1alpha3.OpenshiftAssistedControlPlane;
import io.openshiftagent.api.external.capi.Cluster;
import io.openshiftagent.controlplane.names.ConditionUpdate;
import io.openshiftagent.provider.reconcile.ClusterRefs;
import io.openshiftagent.provider.reconcile.Metadata;
import io.openshiftagent.provider.reconcile.Pause;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Whether a control plane may be reconciled at all, in order: it has its Cluster, is not paused,
 * its Cluster is not being deleted, and the Cluster has its endpoint and infrastructure. A pure
 * function of the Cluster; the conditions it returns are reported either way.
 */
final class Preflight {
  private Preflight() {}

  /**
   * @param conditions what to report, in order
   * @param proceed whether the reconcile goes on to the phases
   * @param awaitsInfrastructure the Cluster's endpoint or infrastructure is all that is missing:
   *     what does not depend on them can be prepared
   */
  record Result(List<ConditionUpdate> conditions, boolean proceed, boolean awaitsInfrastructure) {
    Result(List<ConditionUpdate> conditions, boolean proceed) {
      this(conditions, proceed, false);
    }
  }

  static Result check(Optional<Cluster> owner, OpenshiftAssistedControlPlane cp) {
    List<ConditionUpdate> conditions = new ArrayList<>();
    if (owner.isEmpty()) {
      conditions.add(
          ConditionUpdate.isFalse(
              AVAILABLE,
              WAITING_FOR_CLUSTER,
              "waiting for Cluster API to set a Cluster as owner of this control plane (the"
                  + " Cluster's spec.controlPlaneRef must name it)"));
      return new Result(conditions, false);
    }
    Cluster cluster = owner.get();
    if (Pause.isPaused(cluster, cp)) {
      conditions.add(
          ConditionUpdate.isTrue(
              PAUSED, PAUSED, "reconciliation is paused: " + Pause.reason(cluster, cp)));
      return new Result(conditions, false);
    }
    conditions.add(ConditionUpdate.isFalse(PAUSED, NOT_PAUSED, "reconciliation is not paused"));
    String name = Metadata.name(cluster);
    if (Metadata.isDeleting(cluster)) {
      // Cluster API deletes the workers, then this control plane: whatever we made now (cluster
      // objects, Machines, an upgrade) would only have to be deleted again.
      conditions.add(
          ConditionUpdate.isFalse(
              AVAILABLE,
              CLUSTER_DELETING,
              "Cluster "
                  + name
                  + " is being deleted: nothing new is made for it; Cluster API deletes this"
                  + " control plane once the workers are gone"));
      return new Result(conditions, false);
    }
    var endpoint = cluster.getSpec() == null ? null : cluster.getSpec().controlPlaneEndpoint;
    if (endpoint == null
        || endpoint.host == null
        || endpoint.host.isEmpty()
        || endpoint.port == null
        || endpoint.port == 0) {
      conditions.add(
          ConditionUpdate.isFalse(
              AVAILABLE,
              WAITING_FOR_CONTROL_PLANE_ENDPOINT,
              "waiting for Cluster "
                  + name
                  + " to have spec.controlPlaneEndpoint (host and port), set by the"
                  + " infrastructure provider"));
      return new Result(conditions, false, true);
    }
    if (!ClusterRefs.infrastructureProvisioned(cluster)) {
      conditions.add(
          ConditionUpdate.isFalse(
              AVAILABLE,
              WAITING_FOR_INFRASTRUCTURE,
              "waiting for the infrastructure of Cluster "
                  + name
                  + " to be provisioned (status.initialization.infrastructureProvisioned)"));
      return new Result(conditions, false, true);
    }
    return new Result(conditions, true);
  }
}
