package io.openshiftagent.controlplane;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.openshiftagent.controlplane.cluster.ClusterObjects;
import io.openshiftagent.controlplane.cluster.Kubeconfig;
import io.openshiftagent.controlplane.cluster.StalledInstallStart;
import io.openshiftagent.controlplane.machines.ControlPlaneMachines;
import io.openshiftagent.controlplane.machines.MachineWrites;
import io.openshiftagent.controlplane.release.HubRegistries;
import io.openshiftagent.controlplane.release.ReleaseImagePhase;
import io.openshiftagent.controlplane.release.ReleaseImageResolution;
import io.openshiftagent.controlplane.report.StatusWriter;
import io.openshiftagent.controlplane.scope.InfrastructureTemplates;
import io.openshiftagent.controlplane.upgrade.Upgrades;
import io.openshiftagent.provider.reconcile.EventRecorder;
import java.time.Clock;
import java.util.concurrent.Executor;

/**
 * What the reconciler runs, made with the event sources, once the client is known: the phases, the
 * take-over of a Go provider's control plane and the deletion, each writing through the client and
 * recording its Events; and the client and infrastructure templates a scope reads with.
 */
record Phases(
    KubernetesClient client,
    InfrastructureTemplates infrastructure,
    ReleaseImagePhase releaseImage,
    ClusterObjects clusterObjects,
    StalledInstallStart stalledInstallStart,
    Kubeconfig kubeconfig,
    ControlPlaneMachines machines,
    Upgrades upgrades,
    ControlPlaneCleanup cleanup,
    GoProviderAdoption adoption) {

  /**
   * @param hubRegistries the hub's trusted CA bundle and mirrors, for registries
   * @param caches where a Machine written or created is seen at once
   * @param status the one status writer, the deletion's too
   * @param writers where writes that do not depend on each other are made at once
   */
  static Phases make(
      KubernetesClient client,
      EventRecorder events,
      HubRegistries hubRegistries,
      ControlPlaneCaches caches,
      StatusWriter status,
      Clock clock,
      Executor writers) {
    InfrastructureTemplates infrastructure = new InfrastructureTemplates(client);
    ReleaseImagePhase releaseImage =
        new ReleaseImagePhase(
            ReleaseImageResolution.overRegistries(userAgent(client), hubRegistries), events);
    ClusterObjects clusterObjects = new ClusterObjects(client, writers);
    StalledInstallStart stalledInstallStart = new StalledInstallStart(client, events);
    Kubeconfig kubeconfig = new Kubeconfig(client);
    MachineWrites machineWrites =
        new MachineWrites(
            client,
            infrastructure,
            events,
            clock,
            caches,
            OpenshiftAssistedControlPlaneReconciler.NAME);
    ControlPlaneMachines machines =
        new ControlPlaneMachines(
            client,
            infrastructure,
            machineWrites,
            events,
            // A Machine we create is in our cache at once: the next reconcile sees it.
            caches::created,
            writers);
    Upgrades upgrades = new Upgrades(events);
    ControlPlaneCleanup cleanup =
        new ControlPlaneCleanup(
            caches,
            machineWrites,
            new OwnedDeletions(client, events, caches.watchedNamespaces()),
            status,
            clock);
    GoProviderAdoption adoption = new GoProviderAdoption(client, events);
    return new Phases(
        client,
        infrastructure,
        releaseImage,
        clusterObjects,
        stalledInstallStart,
        kubeconfig,
        machines,
        upgrades,
        cleanup,
        adoption);
  }

  /** Registries see the provider's user agent, as the API server does. */
  private static String userAgent(KubernetesClient client) {
    String agent = client.getConfiguration().getUserAgent();
    return agent == null || agent.isBlank() ? "openshift-agent-controlplane" : agent;
  }
}
