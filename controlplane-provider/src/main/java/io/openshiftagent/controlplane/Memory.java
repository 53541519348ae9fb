package io.openshiftagent.controlplane;

import io.openshiftagent.api.controlplane.v1alpha3.OpenshiftAssistedControlPlane;
import io.openshiftagent.api.controlplane.v1alpha3.OpenshiftAssistedControlPlaneStatus.ReleaseImage;
import io.openshiftagent.controlplane.cluster.ClusterObjects;
import io.openshiftagent.controlplane.cluster.PublishedKubeconfig;
import io.openshiftagent.controlplane.cluster.StalledInstallStart;
import io.openshiftagent.controlplane.machines.MachinesReport;
import io.openshiftagent.controlplane.release.ReleaseImagePhase;
import io.openshiftagent.controlplane.upgrade.WorkloadLooks;
import io.openshiftagent.provider.reconcile.StatusCoalescing;
import java.util.HashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What this process remembers of each control plane between its reconciles, in one place. A
 * reconcile hands the phases the parts they need as values and keeps what they return, each as soon
 * as the phase returns it. Nothing here must survive a restart (the caches start full, and each
 * part is found or made again); a deleted control plane is forgotten. Reconciles of one control
 * plane never run at once, so what is remembered of it is changed by one at a time.
 */
final class Memory {
  /** What is remembered of one control plane. */
  static final class Remembered {
    /** This process's last look at its installed cluster. */
    Optional<WorkloadLooks.Look> lastWorkloadLook = Optional.empty();

    /** The kubeconfig as this process last published or compared it. */
    Optional<PublishedKubeconfig> kubeconfig = Optional.empty();

    /** A release resolved that the stored status may not hold yet (its write was held back). */
    Optional<ReleaseImage> unwrittenRelease = Optional.empty();

    /**
     * A lookup of its release made ahead, in the background, while its infrastructure is awaited.
     */
    Optional<CompletableFuture<ReleaseImagePhase.Resolved>> releaseLookup = Optional.empty();

    /** What is made ahead of its infrastructure: the ClusterImageSet, the ClusterDeployment. */
    ClusterObjects.Ahead clusterObjects = ClusterObjects.Ahead.NONE;

    /** A stay of its AgentClusterInstall in {@code ready} that assisted-service may miss. */
    Optional<StalledInstallStart.Stay> installStay = Optional.empty();

    /** What its Machines phase keeps: the parts prepared, the lasting warnings. */
    MachinesReport.Memory machines = MachinesReport.Memory.NONE;

    /** This process's last write of its status (a change of details waits a while after). */
    Optional<StatusCoalescing.LastWrite> lastStatusWrite = Optional.empty();

    /** UIDs of its Machines this process deleted whose deletion the cache may not show yet. */
    Set<String> deletedMachines = Set.of();

    /**
     * The lookup made ahead, forgotten here: a reconcile that fails while taking it does not take
     * it again.
     */
    Optional<CompletableFuture<ReleaseImagePhase.Resolved>> takeReleaseLookup() {
      Optional<CompletableFuture<ReleaseImagePhase.Resolved>> lookup = releaseLookup;
      releaseLookup = Optional.empty();
      return lookup;
    }

    void deleted(Set<String> machines) {
      if (!machines.isEmpty()) {
        Set<String> all = new HashSet<>(deletedMachines);
        all.addAll(machines);
        deletedMachines = Set.copyOf(all);
      }
    }
  }

  private final Map<String, Remembered> byUid = new ConcurrentHashMap<>();

  /** What is remembered of {@code cp} (nothing yet: an empty record, remembered from now on). */
  Remembered of(OpenshiftAssistedControlPlane cp) {
    return byUid.computeIfAbsent(cp.getMetadata().getUid(), uid -> new Remembered());
  }

  void forget(OpenshiftAssistedControlPlane cp) {
    byUid.remove(cp.getMetadata().getUid());
  }
}
