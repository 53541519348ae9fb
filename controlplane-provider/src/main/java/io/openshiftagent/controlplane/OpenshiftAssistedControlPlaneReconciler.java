package io.openshiftagent.controlplane;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.javaoperatorsdk.operator.api.config.informer.Informer;
import io.javaoperatorsdk.operator.api.reconciler.Cleaner;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.ControllerConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.DeleteControl;
import io.javaoperatorsdk.operator.api.reconciler.EventSourceContext;
import io.javaoperatorsdk.operator.api.reconciler.Reconciler;
import io.javaoperatorsdk.operator.api.reconciler.UpdateControl;
import io.javaoperatorsdk.operator.processing.event.source.EventSource;
import io.openshiftagent.api.common.Conditions;
import io.openshiftagent.api.controlplane.v1alpha3.OpenshiftAssistedControlPlane;
import io.openshiftagent.api.controlplane.v1alpha3.OpenshiftAssistedControlPlaneStatus;
import io.openshiftagent.api.external.capi.Cluster;
import io.openshiftagent.controlplane.cluster.ClusterObjects;
import io.openshiftagent.controlplane.cluster.Kubeconfig;
import io.openshiftagent.controlplane.cluster.StalledInstallStart;
import io.openshiftagent.controlplane.machines.DeletionsInFlight;
import io.openshiftagent.controlplane.machines.Lifecycle;
import io.openshiftagent.controlplane.machines.MachinesReport;
import io.openshiftagent.controlplane.release.HubRegistries;
import io.openshiftagent.controlplane.release.ReleaseImagePhase;
import io.openshiftagent.controlplane.release.ReleaseImageResolution;
import io.openshiftagent.controlplane.report.ControlPlaneReport;
import io.openshiftagent.controlplane.report.StatusWriter;
import io.openshiftagent.controlplane.scope.ControlPlaneScope;
import io.openshiftagent.controlplane.upgrade.Upgrades;
import io.openshiftagent.controlplane.upgrade.WorkloadLooks;
import io.openshiftagent.provider.reconcile.EventRecorder;
import io.openshiftagent.provider.reconcile.Futures;
import io.openshiftagent.provider.reconcile.StatusCoalescing;
import io.openshiftagent.provider.runtime.ControllerScope;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutorService;

/**
 * Reconciles an OpenshiftAssistedControlPlane, as Cluster API's KubeadmControlPlane does, and as
 * the bootstrap config controller does: observe ({@link Preflight} checks the Cluster, {@link
 * ControlPlaneScope} reads the rest), then each phase decides with pure functions, makes its writes
 * and returns what it decided and found: the release image ({@code release}), the objects that
 * describe the cluster to assisted-service and the kubeconfig ({@code cluster}), the Machines
 * ({@code machines}), the upgrade of the installed cluster ({@code upgrade}); then one report
 * ({@link ControlPlaneReport}) and one status write ({@link StatusWriter}). While the
 * infrastructure is awaited, {@link Preparation} makes what does not depend on it. The phases are
 * made together ({@link Phases}); what it remembers between reconciles is in {@link Memory}; {@link
 * ControlPlaneCleanup} runs the deletion.
 */
@ControllerConfiguration(
    name = OpenshiftAssistedControlPlaneReconciler.NAME,
    // CAPI core and users change our metadata (pause annotation, overrides) without a new
    // generation; our own status writes are no reason to look again.
    generationAwareEventProcessing = false,
    informer = @Informer(onUpdateFilter = WatchedChanges.ControlPlane.class))
public class OpenshiftAssistedControlPlaneReconciler
    implements Reconciler<OpenshiftAssistedControlPlane>, Cleaner<OpenshiftAssistedControlPlane> {
  public static final String NAME = "openshiftassistedcontrolplane";
  static final String EVENT_CONTROLLER = "openshift-agent.io/controlplane-provider";

  private final Duration workloadPollInterval;
  private final HubRegistries hubRegistries;
  private final Clock clock = Clock.systemUTC();
  private final String instance;
  private final ControlPlaneCaches caches;
  private final Memory memory = new Memory();
  private final StatusWriter status = new StatusWriter(clock);

  /**
   * Makes writes that do not depend on each other at once: the Machines of one scale-up, those of
   * several control planes, a new cluster's ClusterDeployment and AgentClusterInstall. Each thread
   * mostly waits for the API server, and several clusters applied together must not wait for each
   * other's creations.
   */
  private final ExecutorService writers = Futures.writers(16);

  // Made with the event sources, once the client is known.
  private Phases phases;
  private Preparation preparation;

  /**
   * @param workloadPollInterval how often the installed cluster is looked at (nothing there can be
   *     watched from the hub)
   * @param hubRegistries the hub's trusted CA bundle and mirrors, for registries
   * @param scope what this process manages: its caches hold that only
   */
  public OpenshiftAssistedControlPlaneReconciler(
      Duration workloadPollInterval,
      HubRegistries hubRegistries,
      String instance,
      ControllerScope scope) {
    this.caches = new ControlPlaneCaches(scope);
    this.workloadPollInterval = workloadPollInterval;
    this.hubRegistries = hubRegistries;
    this.instance = instance;
  }

  @Override
  public List<EventSource<?, OpenshiftAssistedControlPlane>> prepareEventSources(
      EventSourceContext<OpenshiftAssistedControlPlane> context) {
    KubernetesClient client = context.getClient();
    EventRecorder events = new EventRecorder(client, EVENT_CONTROLLER, instance);
    phases = Phases.make(client, events, hubRegistries, caches, status, clock, writers);
    preparation = new Preparation(phases);
    List<EventSource<?, OpenshiftAssistedControlPlane>> sources =
        new ArrayList<>(caches.eventSources(context));
    sources.add(preparation.lookedUp());
    return sources;
  }

  @Override
  public UpdateControl<OpenshiftAssistedControlPlane> reconcile(
      OpenshiftAssistedControlPlane given, Context<OpenshiftAssistedControlPlane> context) {
    Optional<Cluster> cluster = caches.ownerCluster(given);
    Preflight.Result preflight = Preflight.check(cluster, given);
    if (!preflight.proceed()) {
      Optional<ReleaseImageResolution.Outcome> release =
          preflight.awaitsInfrastructure()
              ? Optional.of(prepare(given, cluster.get(), context))
              : Optional.empty();
      return again(
          write(
              given,
              ControlPlaneReport.waiting(given, preflight.conditions(), release, clock.instant()),
              context));
    }
    OpenshiftAssistedControlPlane cp = phases.adoption().adopt(given);
    try (ControlPlaneScope scope = observe(cp, cluster.get(), context)) {
      return reconcile(scope, preflight, context);
    }
  }

  /**
   * While the Cluster's infrastructure is awaited, what does not depend on it ({@link
   * Preparation}).
   */
  private ReleaseImageResolution.Outcome prepare(
      OpenshiftAssistedControlPlane cp,
      Cluster cluster,
      Context<OpenshiftAssistedControlPlane> context) {
    try (ControlPlaneScope scope = observe(cp, cluster, context)) {
      return preparation.prepare(scope, memory.of(cp));
    }
  }

  private UpdateControl<OpenshiftAssistedControlPlane> reconcile(
      ControlPlaneScope observed,
      Preflight.Result preflight,
      Context<OpenshiftAssistedControlPlane> context) {
    OpenshiftAssistedControlPlane cp = observed.cp();
    Memory.Remembered remembered = memory.of(cp);
    ReleaseImagePhase.Resolved release =
        phases
            .releaseImage()
            .resolve(observed, remembered.unwrittenRelease, remembered.takeReleaseLookup());
    remembered.unwrittenRelease = release.unwritten();
    remembered.releaseLookup = release.lookup();
    ClusterObjects.Started cluster =
        phases.clusterObjects().describe(observed, release.outcome(), remembered.clusterObjects);
    // A release just resolved may be the upgrade the last look could not request yet.
    boolean lookDue =
        WorkloadLooks.due(cp, remembered.lastWorkloadLook, observed.now())
            || release.outcome() instanceof ReleaseImageResolution.Use use && use.newlyResolved();
    Kubeconfig.Result published =
        phases.kubeconfig().reconcile(cluster.scope(), remembered.kubeconfig);
    remembered.kubeconfig = published.copy();
    ControlPlaneScope scope = cluster.scope().withKubeconfig(published.kubeconfig());
    boolean initialized = scope.initialized() || published.found() instanceof Kubeconfig.Published;
    Lifecycle lifecycle = Lifecycle.of(scope, initialized, lookDue);
    MachinesReport machineReport =
        phases.machines().reconcile(scope, lifecycle, remembered.machines);
    remembered.machines = machineReport.memory();
    remembered.deleted(machineReport.deleted());
    ClusterObjects.Described described = cluster.await();
    remembered.clusterObjects = described.ahead();
    scope = described.created().map(scope::withClusterInstall).orElse(scope);
    StalledInstallStart.Looked installStart =
        phases
            .stalledInstallStart()
            .reconcile(cp, scope.clusterInstall(), remembered.installStay, scope.now());
    remembered.installStay = installStart.stay();
    Optional<Upgrades.Looked> upgrade = Optional.empty();
    // Before assisted-service reports the API server serving, a look would only fail.
    if (initialized && lookDue && scope.installedClusterServes()) {
      upgrade = phases.upgrades().reconcile(scope, release.outcome());
      boolean settled =
          lifecycle.upgrading().isEmpty()
              && machineReport.settled()
              && upgrade
                  .filter(u -> Conditions.TRUE.equals(u.upgradeCompleted().status()))
                  .isPresent();
      remembered.lastWorkloadLook =
          Optional.of(
              WorkloadLooks.looked(
                  remembered.lastWorkloadLook, settled, workloadPollInterval, scope.now()));
    }

    Optional<Duration> statusLater =
        write(
            cp,
            ControlPlaneReport.reconciled(
                scope,
                new ControlPlaneReport.Facts(
                    preflight.conditions(),
                    release.outcome(),
                    described.configured(),
                    published.found(),
                    machineReport,
                    upgrade)),
            context);
    // The workload cluster, infrastructure templates, admission refusals and registries cannot be
    // watched from here: look again later.
    Optional<Duration> later =
        machineReport.creationBlocked()
            ? Optional.of(workloadPollInterval)
            : initialized
                ? Optional.of(
                    WorkloadLooks.interval(remembered.lastWorkloadLook, workloadPollInterval))
                : Optional.empty();
    if (release.outcome() instanceof ReleaseImageResolution.Wait wait) {
      // A registry's failure at its back-off; a missing or bad pull secret or mirror
      // configuration (not watched) at the poll interval.
      Duration retry = wait.retryAfter() != null ? wait.retryAfter() : workloadPollInterval;
      later = StatusCoalescing.earliest(later, Optional.of(retry));
    }
    return again(
        StatusCoalescing.earliest(
            StatusCoalescing.earliest(later, statusLater), installStart.lookAgain()));
  }

  /** Writes the status through the one writer; returns when to look again, if a write waits. */
  private Optional<Duration> write(
      OpenshiftAssistedControlPlane cp,
      OpenshiftAssistedControlPlaneStatus desired,
      Context<OpenshiftAssistedControlPlane> context) {
    Memory.Remembered remembered = memory.of(cp);
    StatusWriter.Written written = status.write(cp, desired, context, remembered.lastStatusWrite);
    written.write().ifPresent(write -> remembered.lastStatusWrite = Optional.of(write));
    return written.later();
  }

  /** The scope of one reconcile, read from the caches; its other reads are made when asked. */
  private ControlPlaneScope observe(
      OpenshiftAssistedControlPlane cp,
      Cluster cluster,
      Context<OpenshiftAssistedControlPlane> context) {
    Memory.Remembered remembered = memory.of(cp);
    Set<String> unseen =
        DeletionsInFlight.unseen(remembered.deletedMachines, Secondaries.machines(cp, context));
    remembered.deletedMachines = unseen;
    return ControlPlaneScope.observe(
        caches.cached(cp, cluster, context, unseen),
        phases.client(),
        phases.infrastructure(),
        clock.instant());
  }

  private static UpdateControl<OpenshiftAssistedControlPlane> again(Optional<Duration> after) {
    UpdateControl<OpenshiftAssistedControlPlane> control = UpdateControl.noUpdate();
    return after.map(control::rescheduleAfter).orElse(control);
  }

  @Override
  public DeleteControl cleanup(
      OpenshiftAssistedControlPlane cp, Context<OpenshiftAssistedControlPlane> context) {
    Memory.Remembered remembered = memory.of(cp);
    ControlPlaneCleanup.Stage stage =
        phases.cleanup().cleanup(cp, context, remembered.deletedMachines);
    remembered.deletedMachines = stage.deletedMachines();
    if (stage.control().isRemoveFinalizer()) {
      memory.forget(cp);
    }
    return stage.control();
  }
}
