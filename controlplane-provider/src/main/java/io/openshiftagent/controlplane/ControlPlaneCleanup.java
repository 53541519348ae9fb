package io.openshiftagent.controlplane;

import static io.openshiftagent.controlplane.names.ControlPlaneConditions.DELETING;
import static io.openshiftagent.controlplane.names.ControlPlaneConditions.WAITING_FOR_CLUSTER_DEPLOYMENT_DELETED;
import static io.openshiftagent.controlplane.names.ControlPlaneConditions.WAITING_FOR_MACHINES_DELETED;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.DeleteControl;
import io.openshiftagent.api.bootstrap.v1alpha2.OpenshiftAssistedConfig;
import io.openshiftagent.api.common.Conditions;
import io.openshiftagent.api.controlplane.v1alpha3.OpenshiftAssistedControlPlane;
import io.openshiftagent.api.external.assisted.AgentClusterInstall;
import io.openshiftagent.api.external.capi.Cluster;
import io.openshiftagent.api.external.capi.Machine;
import io.openshiftagent.api.external.hive.ClusterDeployment;
import io.openshiftagent.controlplane.machines.ControlPlaneMachines;
import io.openshiftagent.controlplane.machines.DeletionsInFlight;
import io.openshiftagent.controlplane.machines.MachineWrites;
import io.openshiftagent.controlplane.report.ControlPlaneReport;
import io.openshiftagent.controlplane.report.StatusWriter;
import io.openshiftagent.provider.contract.GoProvider;
import io.openshiftagent.provider.reconcile.Finalizers;
import io.openshiftagent.provider.reconcile.Metadata;
import io.openshiftagent.provider.reconcile.OwnerReferences;
import io.openshiftagent.provider.reconcile.Pause;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Deleting a control plane, from the caches, one stage per call (each stage's deletions bring the
 * next call): its Machines, then what Cluster API left of them, then the ClusterDeployment and
 * AgentClusterInstall (until both are gone: assisted-service's finalizers, and on a hub with Hive
 * Hive's, hold them), then the rest ({@link OwnedDeletions}). Only what is the control plane's is
 * deleted. Each wait is reported in the Deleting condition, with what holds it.
 */
final class ControlPlaneCleanup {
  private static final Comparator<Machine> BY_NAME = Comparator.comparing(Metadata::name);

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
      // Every hook goes before the first deletion: a Machine held by it keeps its Metal3Machine,
      // which can take the host another deleted Machine released and boot it into its own
      // InfraEnv while that host's Agent still exists. assisted-service then keeps a second record
      // of the host that no Agent names, and never lets that InfraEnv go (docs/reliability.md).
      machines.releaseHooks(owned);
      Set<String> unseen = DeletionsInFlight.unseen(deletedMachines, owned);
      Set<String> deleted = new HashSet<>(unseen);
      owned.stream()
          .filter(m -> !Metadata.isDeleting(m) && !unseen.contains(m.getMetadata().getUid()))
          .forEach(m -> deleted.add(machines.delete(m)));
      markDeleting(
          context,
          cp,
          WAITING_FOR_MACHINES_DELETED,
          "waiting for Machines "
              + owned.stream().map(Metadata::name).sorted().toList()
              + " to be deleted"
              + configWaits(owned, Secondaries.configs(context)));
      return new Stage(DeleteControl.noFinalizerRemoval(), Set.copyOf(deleted));
    }
    for (OpenshiftAssistedConfig config : Secondaries.configs(context).values()) {
      if (OwnerReferences.isOwnedBy(config, cp)) {
        machines.deleteParts(cp, config);
      }
    }
    Optional<AgentClusterInstall> install =
        Secondaries.clusterInstall(cp, context).filter(a -> OwnerReferences.isOwnedBy(a, cp));
    install.filter(a -> !Metadata.isDeleting(a)).ifPresent(a -> client.resource(a).delete());
    Optional<ClusterDeployment> cd =
        Secondaries.clusterDeployment(cp, context).filter(d -> OwnerReferences.isOwnedBy(d, cp));
    if (cd.isPresent() && !Metadata.isDeleting(cd.get())) {
      client.resource(cd.get()).delete();
    }
    // Both held by their finalizers (assisted-service's, Hive's): the control plane goes only
    // once neither is left, so that nothing it made outlives it, held by a finalizer.
    List<HasMetadata> held = new ArrayList<>();
    cd.ifPresent(held::add);
    install.ifPresent(held::add);
    if (!held.isEmpty()) {
      markDeleting(
          context,
          cp,
          WAITING_FOR_CLUSTER_DEPLOYMENT_DELETED,
          "waiting for "
              + held.stream().map(ControlPlaneCleanup::heldBy).collect(Collectors.joining(" and "))
              + " to be deleted");
      return new Stage(DeleteControl.noFinalizerRemoval(), Set.of());
    }
    deletions.deleteRest(cp);
    return new Stage(DeleteControl.defaultDelete(), Set.of());
  }

  /**
   * What the deleting Machines wait for, as far as the control plane sees it: their bootstrap
   * configs being deleted, with the reason each gives (assisted-service's finalizers on InfraEnvs
   * and Agents hold them; the config's Deleting message names them).
   */
  private static String configWaits(
      List<Machine> machines, Map<String, OpenshiftAssistedConfig> configs) {
    List<String> waits = new ArrayList<>();
    for (Machine machine : machines.stream().sorted(BY_NAME).toList()) {
      OpenshiftAssistedConfig config = configs.get(ControlPlaneMachines.configName(machine));
      if (config == null || !Metadata.isDeleting(config) || config.getStatus() == null) {
        continue;
      }
      Conditions.find(config.getStatus().conditions, DELETING)
          .filter(c -> Conditions.TRUE.equals(c.getStatus()))
          .ifPresent(c -> waits.add(Metadata.name(config) + " " + c.getReason()));
    }
    return waits.isEmpty()
        ? ""
        : "; their bootstrap configs wait: "
            + String.join(", ", waits)
            + " (each config's Deleting condition says for what)";
  }

  /** {@code ClusterDeployment <name> (finalizers [...])}: the kind, name and what holds it. */
  private static String heldBy(HasMetadata object) {
    List<String> finalizers = object.getMetadata().getFinalizers();
    return object.getKind()
        + " "
        + Metadata.name(object)
        + (finalizers == null || finalizers.isEmpty() ? "" : " (finalizers " + finalizers + ")");
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
