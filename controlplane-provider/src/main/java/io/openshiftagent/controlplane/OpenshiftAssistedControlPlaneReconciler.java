package io.openshiftagent.controlplane;

import static io.openshiftagent.controlplane.status.ControlPlaneConditions.CLUSTER_INSTALL_CONFIGURED;
import static io.openshiftagent.controlplane.status.ControlPlaneConditions.DELETING;
import static io.openshiftagent.controlplane.status.ControlPlaneConditions.INFRASTRUCTURE_TEMPLATE_UNAVAILABLE;
import static io.openshiftagent.controlplane.status.ControlPlaneConditions.MACHINE_CREATION_FAILED;
import static io.openshiftagent.controlplane.status.ControlPlaneConditions.NOT_DELETING;
import static io.openshiftagent.controlplane.status.ControlPlaneConditions.SCALING_UP;
import static io.openshiftagent.controlplane.status.ControlPlaneConditions.UPGRADE_COMPLETED;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.javaoperatorsdk.operator.api.config.informer.Informer;
import io.javaoperatorsdk.operator.api.reconciler.Cleaner;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.ControllerConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.DeleteControl;
import io.javaoperatorsdk.operator.api.reconciler.EventSourceContext;
import io.javaoperatorsdk.operator.api.reconciler.Reconciler;
import io.javaoperatorsdk.operator.api.reconciler.UpdateControl;
import io.javaoperatorsdk.operator.processing.event.source.EventSource;
import io.openshiftagent.api.controlplane.v1alpha3.OpenshiftAssistedControlPlane;
import io.openshiftagent.api.external.capi.Cluster;
import io.openshiftagent.controlplane.cluster.ClusterObjects;
import io.openshiftagent.controlplane.cluster.Kubeconfig;
import io.openshiftagent.controlplane.cluster.PublishedKubeconfigs;
import io.openshiftagent.controlplane.cluster.StalledInstallStart;
import io.openshiftagent.controlplane.machines.ControlPlaneMachines;
import io.openshiftagent.controlplane.machines.DeletionsInFlight;
import io.openshiftagent.controlplane.machines.InfrastructureTemplates;
import io.openshiftagent.controlplane.machines.Lifecycle;
import io.openshiftagent.controlplane.machines.MachineWrites;
import io.openshiftagent.controlplane.release.HubCaBundle;
import io.openshiftagent.controlplane.release.ReleaseImagePhase;
import io.openshiftagent.controlplane.release.ReleaseImageResolution;
import io.openshiftagent.controlplane.status.Availability;
import io.openshiftagent.controlplane.status.ControlPlaneStatus;
import io.openshiftagent.controlplane.status.StatusDetails;
import io.openshiftagent.controlplane.upgrade.Upgrades;
import io.openshiftagent.controlplane.upgrade.WorkloadLooks;
import io.openshiftagent.provider.reconcile.EventRecorder;
import io.openshiftagent.provider.reconcile.Futures;
import io.openshiftagent.provider.reconcile.StatusCoalescing;
import io.openshiftagent.provider.reconcile.Writes;
import io.openshiftagent.provider.runtime.ControllerScope;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutorService;

/**
 * Reconciles an OpenshiftAssistedControlPlane, as Cluster API's KubeadmControlPlane does: the
 * {@link Preflight} checks of its Cluster, then the scope ({@link ControlPlaneScope}, all reads),
 * then the phases in order, each deciding with pure functions and making its own writes: the
 * objects that describe the cluster to assisted-service ({@code cluster}), the kubeconfig, the
 * Machines ({@code machines}), the upgrade of the installed cluster ({@code upgrade}); then the
 * Available condition, and one status write ({@code status}). {@link ControlPlaneCleanup} runs the
 * deletion.
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
  private final HubCaBundle hubCaBundle;
  private final Clock clock = Clock.systemUTC();
  private final String instance;
  private final ControlPlaneCaches caches;
  private final WorkloadLooks workloadLooks;
  private final DeletionsInFlight deletions = new DeletionsInFlight();
  private final StatusCoalescing statusWrites = new StatusCoalescing(clock::instant);
  private final PublishedKubeconfigs kubeconfigs = new PublishedKubeconfigs(clock::instant);

  /**
   * Makes writes that do not depend on each other at once: the Machines of one scale-up, those of
   * several control planes, a new cluster's ClusterDeployment and AgentClusterInstall. With 4
   * threads, 5 clusters applied together waited for each other's creations (the benchmark's
   * control-plane Machines p95 was 4.4 s). Each thread mostly waits for the API server.
   */
  private final ExecutorService writers = Futures.writers(16);

  // Made with the event sources, once the client is known.
  private KubernetesClient client;
  private InfrastructureTemplates infrastructure;
  private ReleaseImagePhase releaseImage;
  private ClusterObjects clusterObjects;
  private StalledInstallStart stalledInstallStart;
  private Kubeconfig kubeconfig;
  private ControlPlaneMachines machines;
  private Upgrades upgrades;
  private ControlPlaneCleanup cleanup;
  private GoProviderAdoption adoption;

  /**
   * @param workloadPollInterval how often the installed cluster is looked at (nothing there can be
   *     watched from the hub)
   * @param hubCaBundle the hub's trusted CA bundle, for registries
   * @param scope what this process manages: its caches hold that only
   */
  public OpenshiftAssistedControlPlaneReconciler(
      Duration workloadPollInterval,
      HubCaBundle hubCaBundle,
      String instance,
      ControllerScope scope) {
    this.caches = new ControlPlaneCaches(scope);
    this.workloadPollInterval = workloadPollInterval;
    this.hubCaBundle = hubCaBundle;
    this.instance = instance;
    this.workloadLooks = new WorkloadLooks(workloadPollInterval, clock);
  }

  @Override
  public List<EventSource<?, OpenshiftAssistedControlPlane>> prepareEventSources(
      EventSourceContext<OpenshiftAssistedControlPlane> context) {
    client = context.getClient();
    EventRecorder events = new EventRecorder(client, EVENT_CONTROLLER, instance);
    infrastructure = new InfrastructureTemplates(client);
    releaseImage =
        new ReleaseImagePhase(
            ReleaseImageResolution.overRegistries(userAgent(client), hubCaBundle), events);
    clusterObjects = new ClusterObjects(client, writers);
    stalledInstallStart = new StalledInstallStart(client, events, clock);
    kubeconfig = new Kubeconfig(client);
    MachineWrites machineWrites =
        new MachineWrites(
            client,
            infrastructure,
            NAME,
            events,
            clock,
            // A Machine we create is in our cache at once: the next reconcile sees it.
            caches::created,
            deletions,
            writers);
    machines = new ControlPlaneMachines(machineWrites, events, clock);
    upgrades = Upgrades.connecting(events);
    cleanup = new ControlPlaneCleanup(caches, machineWrites, deletions);
    adoption = new GoProviderAdoption(client, events);
    return caches.eventSources(context);
  }

  @Override
  public UpdateControl<OpenshiftAssistedControlPlane> reconcile(
      OpenshiftAssistedControlPlane given, Context<OpenshiftAssistedControlPlane> context) {
    OpenshiftAssistedControlPlane cp = given;
    Optional<Cluster> cluster = caches.ownerCluster(cp);
    Preflight.Result preflight = Preflight.check(cluster, cp);
    if (preflight.proceed()) {
      cp = adoption.adopt(cp);
    }
    ControlPlaneStatus status = new ControlPlaneStatus(cp, clock);
    status.setFalse(DELETING, NOT_DELETING, "the control plane is not being deleted");
    preflight.conditions().forEach(status::set);
    if (!preflight.proceed()) {
      if (preflight.awaitsInfrastructure()) {
        prepare(cp, cluster.get(), status, context);
      }
      UpdateControl<OpenshiftAssistedControlPlane> control = UpdateControl.noUpdate();
      return report(cp, status.toPatch(false), context)
          .map(control::rescheduleAfter)
          .orElse(control);
    }

    try (ControlPlaneScope scope =
        caches.observe(
            cp,
            cluster.get(),
            context,
            client,
            infrastructure,
            deletions.unseen(cp, ControlPlaneCaches.machines(cp, context)))) {
      return reconcile(scope, status, context);
    }
  }

  /**
   * While the Cluster's infrastructure is awaited, what does not depend on it: the release image
   * (resolved and reported, its ClusterImageSet made) and the configs and infrastructure clones of
   * a new control plane's Machines. Once the infrastructure is provisioned, the AgentClusterInstall
   * and the Machines follow without waiting for a registry or those parts.
   */
  private void prepare(
      OpenshiftAssistedControlPlane cp,
      Cluster cluster,
      ControlPlaneStatus status,
      Context<OpenshiftAssistedControlPlane> context) {
    if (cp.getSpec().machineTemplate != null) {
      infrastructure.prepare(cp.getSpec().machineTemplate.effectiveInfrastructureRef());
    }
    try (ControlPlaneScope scope =
        caches.observe(
            cp,
            cluster,
            context,
            client,
            infrastructure,
            deletions.unseen(cp, ControlPlaneCaches.machines(cp, context)))) {
      // The Machines' parts first: they are made in the background while the release is resolved.
      machines.prepare(scope);
      clusterObjects.prepare(scope, releaseImage.reconcile(scope, status));
    }
  }

  private UpdateControl<OpenshiftAssistedControlPlane> reconcile(
      ControlPlaneScope scope,
      ControlPlaneStatus status,
      Context<OpenshiftAssistedControlPlane> context) {
    OpenshiftAssistedControlPlane cp = scope.cp();
    ReleaseImageResolution.Outcome release = releaseImage.reconcile(scope, status);
    ClusterObjects.InFlight clusterObjectsCreated =
        clusterObjects.reconcile(scope, status, release);
    // A release just resolved may be the upgrade the last look could not request yet.
    boolean workloadLookDue =
        workloadLooks.due(cp)
            || release instanceof ReleaseImageResolution.Use use && use.newlyResolved();
    // Once published, the kubeconfig is compared with assisted-service's copy when its
    // AgentClusterInstall changes (it writes a new version with each edit of clusterMetadata) and
    // every PublishedKubeconfigs.REFRESH; in between, a look connects with ours.
    long installGeneration =
        scope.clusterInstall().map(aci -> aci.getMetadata().getGeneration()).orElse(0L);
    Optional<String> known =
        status.initialized() ? kubeconfigs.current(cp, installGeneration) : Optional.empty();
    Optional<String> published =
        known.isEmpty()
            ? kubeconfig.publish(scope, status, kubeconfigs.ours(cp))
            : Optional.empty();
    published.ifPresent(content -> kubeconfigs.published(cp, installGeneration, content));
    Optional<String> current = published.or(() -> known);
    current.ifPresent(scope::knownKubeconfig);
    machines.reconcile(scope, status, Lifecycle.of(scope, status, workloadLookDue));
    clusterObjectsCreated.await();
    Optional<Duration> installStartLook = stalledInstallStart.reconcile(cp, scope.clusterInstall());
    if (status.initialized() && workloadLookDue) {
      upgrades.reconcile(scope, status, current.or(() -> Kubeconfig.read(scope)), release);
      workloadLooks.looked(
          cp,
          status.isTrue(UPGRADE_COMPLETED)
              && Lifecycle.of(scope, status, false).upgrading().isEmpty());
    }
    status.set(
        Availability.of(
            release instanceof ReleaseImageResolution.Wait wait
                && status.hasReason(CLUSTER_INSTALL_CONFIGURED, wait.reason()),
            // Once installing, what the spec cannot change any more does not make it unavailable.
            status.isFalse(CLUSTER_INSTALL_CONFIGURED) && !scope.installationStarted(),
            scope.clusterInstall(),
            status.initialized(),
            Names.clusterDeployment(cp)));

    Optional<Duration> statusLater = report(cp, status.toPatch(true), context);
    UpdateControl<OpenshiftAssistedControlPlane> control = UpdateControl.noUpdate();
    // The workload cluster, infrastructure templates, admission refusals and registries cannot be
    // watched from here: look again later.
    boolean creationBlocked =
        status.hasReason(SCALING_UP, MACHINE_CREATION_FAILED, INFRASTRUCTURE_TEMPLATE_UNAVAILABLE);
    Optional<Duration> again =
        creationBlocked
            ? Optional.of(workloadPollInterval)
            : status.initialized() ? Optional.of(workloadLooks.interval(cp)) : Optional.empty();
    if (release instanceof ReleaseImageResolution.Wait wait) {
      // A registry's failure at its back-off; a missing or bad pull secret or mirror
      // configuration (not watched) at the poll interval.
      Duration retry = wait.retryAfter() != null ? wait.retryAfter() : workloadPollInterval;
      again = Optional.of(again.map(d -> d.compareTo(retry) < 0 ? d : retry).orElse(retry));
    }
    again =
        StatusCoalescing.earliest(StatusCoalescing.earliest(again, statusLater), installStartLook);
    return again.map(control::rescheduleAfter).orElse(control);
  }

  /** Registries see the provider's user agent, as the API server does. */
  private static String userAgent(KubernetesClient client) {
    String agent = client.getConfiguration().getUserAgent();
    return agent == null || agent.isBlank() ? "openshift-agent-controlplane" : agent;
  }

  /**
   * Writes the status when it changed (the one status writer, {@link ControlPlaneStatus}), unless
   * {@link StatusCoalescing} holds back a change of {@link StatusDetails} only: then returns when
   * to look again.
   */
  private Optional<Duration> report(
      OpenshiftAssistedControlPlane cp,
      OpenshiftAssistedControlPlane patch,
      Context<OpenshiftAssistedControlPlane> context) {
    if (Serialization.asJson(patch.getStatus()).equals(Serialization.asJson(cp.getStatus()))) {
      return Optional.empty();
    }
    Optional<Duration> later =
        statusWrites.deferral(
            cp, StatusDetails.onlyDetailsChanged(cp.getStatus(), patch.getStatus()));
    if (later.isEmpty()) {
      Writes.applyPrimaryStatus(context, cp, patch);
      statusWrites.written(cp);
    }
    return later;
  }

  @Override
  public DeleteControl cleanup(
      OpenshiftAssistedControlPlane cp, Context<OpenshiftAssistedControlPlane> context) {
    DeleteControl control = cleanup.cleanup(cp, context);
    if (control.isRemoveFinalizer()) {
      workloadLooks.forget(cp);
      statusWrites.forget(cp);
      kubeconfigs.forget(cp);
      releaseImage.forget(cp);
      clusterObjects.forget(cp);
      stalledInstallStart.forget(cp);
      machines.forget(cp);
    }
    return control;
  }
}
