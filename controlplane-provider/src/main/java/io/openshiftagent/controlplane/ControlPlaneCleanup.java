package io.openshiftagent.controlplane;

import static io.openshiftagent.controlplane.names.ControlPlaneConditions.WAITING_FOR_CLUSTER_DEPLOYMENT_DELETED;
import static io.openshiftagent.controlplane.names.ControlPlaneConditions.WAITING_FOR_MACHINES_DELETED;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.DeleteControl;
import io.openshiftagent.api.bootstrap.v1alpha2.OpenshiftAssistedConfig;
import io.openshiftagent.api.controlplane.v1alpha3.OpenshiftAssistedControlPlane;
import io.openshiftagent.api.external.capi.Cluster;
import io.openshiftagent.api.external.capi.Machine;
import io.openshiftagent.api.external.hive.ClusterDeployment;
import io.openshiftagent.controlplane.machines.DeletionsInFlight;
import io.openshiftagent.controlplane.machines.MachineWrites;
import io.openshiftagent.controlplane.names.Names;
import io.openshiftagent.controlplane.report.ControlPlaneReport;
import io.openshiftagent.controlplane.report.StatusWriter;
import io.openshiftagent.provider.contract.GoProvider;
import io.openshiftagent.provider.reconcile.Finalizers;
import io.openshiftagent.provider.reconcile.Metadata;
import io.openshiftagent.provider.reconcile.OwnerReferences;
import io.openshiftagent.provider.reconcile.Pause;
import java.time.Clock;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Deleting a control plane, from the caches, one stage per call (each stage's deletions bring the
 * next call): its Machines, then what Cluster API left of them, then the ClusterDeployment (Hive
 * deprovisions the cluster) and AgentClusterInstall, then the rest ({@link OwnedDeletions}). Only
 * what is the control plane's is deleted. Each wait is reported in the Deleting condition.
 */
final class ControlPlaneCleanup {
  private final ControlPlaneCaches caches;
  private final MachineWrites machines;
  private final StatusWriter status;
  private final OwnedDeletions deletions;
  private final Clock clock;

  ControlPlaneCleanup(
      ControlPlaneCaches caches,
      MachineWrites machines,
      OwnedDeletions deletions,
      StatusWriter status,
      Clock clock) {
    this.caches = caches;
    this.machines = machines;
    this.deletions = deletions;
    this.status = status;
    this.clock = clock;
  }

  /**
   * Where the deletion stands, and the Machines deleted by us whose deletion the cache may not show
   * yet.
   */
  record Stage(DeleteControl control, Set<String> deletedMachines) {}

  /**
   * @param deletedMachines UIDs of the control plane's Machines this process deleted before
   */
  Stage cleanup(
      OpenshiftAssistedControlPlane cp,
      Context<OpenshiftAssistedControlPlane> context,
      Set<String> deletedMachines) {
    KubernetesClient client = context.getClient();
    Optional<Cluster> cluster = caches.ownerCluster(cp);
    if (cluster.isPresent() && Pause.isPaused(cluster.get(), cp)) {
      return new Stage(DeleteControl.noFinalizerRemoval(), deletedMachines);
    }
    // Taken over from the Go provider while being deleted: its finalizer would hold it forever.
    if (!Finalizers.remove(client, cp, GoProvider.CONTROL_PLANE_FINALIZER)) {
      return new Stage(DeleteControl.noFinalizerRemoval(), deletedMachines);
    }
    List<Machine> owned = Secondaries.machines(cp, context);
    if (!owned.isEmpty()) {
      Set<String> unseen = DeletionsInFlight.unseen(deletedMachines, owned);
      Set<String> deleted = new HashSet<>(unseen);
      owned.stream()
          .filter(m -> !Metadata.isDeleting(m) && !unseen.contains(m.getMetadata().getUid()))
          .forEach(m -> deleted.add(machines.delete(m)));
      machines.releaseHooks(owned);
      markDeleting(
          context,
          cp,
          WAITING_FOR_MACHINES_DELETED,
          "waiting for Machines "
              + owned.stream().map(Metadata::name).sorted().toList()
              + " to be deleted");
      return new Stage(DeleteControl.noFinalizerRemoval(), Set.copyOf(deleted));
    }
    for (OpenshiftAssistedConfig config : Secondaries.configs(context).values()) {
      if (OwnerReferences.isOwnedBy(config, cp)) {
        machines.deleteParts(cp, config);
      }
    }
    String cdName = Names.clusterDeployment(cp);
    Secondaries.clusterInstall(cp, context)
        .filter(a -> OwnerReferences.isOwnedBy(a, cp) && !Metadata.isDeleting(a))
        .ifPresent(a -> client.resource(a).delete());
    Optional<ClusterDeployment> cd =
        Secondaries.clusterDeployment(cp, context).filter(d -> OwnerReferences.isOwnedBy(d, cp));
    if (cd.isPresent()) {
      if (!Metadata.isDeleting(cd.get())) {
        client.resource(cd.get()).delete();
      }
      markDeleting(
          context,
          cp,
          WAITING_FOR_CLUSTER_DEPLOYMENT_DELETED,
          "waiting for ClusterDeployment "
              + cdName
              + " to be deleted (Hive deprovisions the cluster)");
      return new Stage(DeleteControl.noFinalizerRemoval(), Set.of());
    }
    deletions.deleteRest(cp);
    return new Stage(DeleteControl.defaultDelete(), Set.of());
  }

  /**
   * Reports the stage of the deletion, through the one status writer, when it changed: every
   * Machine's deletion event brings a reconcile here.
   */
  private void markDeleting(
      Context<OpenshiftAssistedControlPlane> context,
      OpenshiftAssistedControlPlane cp,
      String reason,
      String message) {
    status.writeNow(cp, ControlPlaneReport.deleting(cp, reason, message, clock.instant()), context);
  }
}
