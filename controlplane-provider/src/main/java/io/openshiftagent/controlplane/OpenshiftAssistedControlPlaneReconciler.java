package io.openshiftagent.controlplane;

import static io.openshiftagent.controlplane.ControlPlaneConditions.AVAILABLE;
import static io.openshiftagent.controlplane.ControlPlaneConditions.CLUSTER_DELETING;
import static io.openshiftagent.controlplane.ControlPlaneConditions.CLUSTER_INSTALL_CONFIGURED;
import static io.openshiftagent.controlplane.ControlPlaneConditions.DELETING;
import static io.openshiftagent.controlplane.ControlPlaneConditions.INFRASTRUCTURE_TEMPLATE_UNAVAILABLE;
import static io.openshiftagent.controlplane.ControlPlaneConditions.INSTALLATION_FAILED;
import static io.openshiftagent.controlplane.ControlPlaneConditions.INSTALLING;
import static io.openshiftagent.controlplane.ControlPlaneConditions.INVALID_CONFIGURATION;
import static io.openshiftagent.controlplane.ControlPlaneConditions.MACHINE_CREATION_FAILED;
import static io.openshiftagent.controlplane.ControlPlaneConditions.NOT_DELETING;
import static io.openshiftagent.controlplane.ControlPlaneConditions.NOT_PAUSED;
import static io.openshiftagent.controlplane.ControlPlaneConditions.PAUSED;
import static io.openshiftagent.controlplane.ControlPlaneConditions.SCALING_UP;
import static io.openshiftagent.controlplane.ControlPlaneConditions.WAITING_FOR_CLUSTER;
import static io.openshiftagent.controlplane.ControlPlaneConditions.WAITING_FOR_CLUSTER_DEPLOYMENT_DELETED;
import static io.openshiftagent.controlplane.ControlPlaneConditions.WAITING_FOR_CLUSTER_INSTALL;
import static io.openshiftagent.controlplane.ControlPlaneConditions.WAITING_FOR_CONTROL_PLANE_ENDPOINT;
import static io.openshiftagent.controlplane.ControlPlaneConditions.WAITING_FOR_INFRASTRUCTURE;
import static io.openshiftagent.controlplane.ControlPlaneConditions.WAITING_FOR_MACHINES_DELETED;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.javaoperatorsdk.operator.api.config.informer.Informer;
import io.javaoperatorsdk.operator.api.config.informer.InformerEventSourceConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.Cleaner;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.ControllerConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.DeleteControl;
import io.javaoperatorsdk.operator.api.reconciler.EventSourceContext;
import io.javaoperatorsdk.operator.api.reconciler.Reconciler;
import io.javaoperatorsdk.operator.api.reconciler.UpdateControl;
import io.javaoperatorsdk.operator.processing.GroupVersionKind;
import io.javaoperatorsdk.operator.processing.event.ResourceID;
import io.javaoperatorsdk.operator.processing.event.source.EventSource;
import io.javaoperatorsdk.operator.processing.event.source.SecondaryToPrimaryMapper;
import io.javaoperatorsdk.operator.processing.event.source.informer.InformerEventSource;
import io.openshiftagent.api.bootstrap.v1alpha2.OpenshiftAssistedConfig;
import io.openshiftagent.api.common.ContractVersionedObjectReference;
import io.openshiftagent.api.controlplane.v1alpha3.ControlPlaneGroup;
import io.openshiftagent.api.controlplane.v1alpha3.OpenshiftAssistedControlPlane;
import io.openshiftagent.api.external.ExternalKinds;
import io.openshiftagent.api.external.assisted.AgentClusterInstall;
import io.openshiftagent.api.external.capi.Cluster;
import io.openshiftagent.api.external.capi.Machine;
import io.openshiftagent.api.external.capi.MachineDeployment;
import io.openshiftagent.api.external.hive.ClusterDeployment;
import io.openshiftagent.api.external.hive.ClusterImageSet;
import io.openshiftagent.provider.EventRecorder;
import io.openshiftagent.provider.OwnerReferences;
import io.openshiftagent.provider.Pause;
import io.openshiftagent.provider.RelevantChange;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * Reconciles an OpenshiftAssistedControlPlane: waits for its Cluster, describes the cluster to
 * assisted-service, creates and scales the control-plane Machines, publishes the kubeconfig,
 * upgrades the installed cluster and reports all of it in status.
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
  static final String KIND = "OpenshiftAssistedControlPlane";
  static final GroupVersionKind MACHINE_POOL =
      new GroupVersionKind(ExternalKinds.CAPI_GROUP, ExternalKinds.CAPI_VERSION, "MachinePool");
  static final String EVENT_CONTROLLER = "openshift-agent.io/controlplane-provider";

  private final Duration workloadPollInterval;
  private final Function<String, WorkloadCluster> connect;
  private final Clock clock = Clock.systemUTC();
  private final String instance;

  /** When each control plane's workload cluster was last looked at. */
  private final Map<ResourceID, Instant> workloadLooks = new ConcurrentHashMap<>();

  /** The ClusterImageSets made or checked by this process (see {@link ClusterObjects}). */
  private final Set<String> imageSetsEnsured = ConcurrentHashMap.newKeySet();

  private InformerEventSource<Cluster, OpenshiftAssistedControlPlane> clusters;
  private InformerEventSource<Machine, OpenshiftAssistedControlPlane> machines;
  private InfrastructureTemplates infrastructure;

  /**
   * @param workloadPollInterval how often the installed cluster is looked at (nothing there can be
   *     watched from the hub)
   */
  public OpenshiftAssistedControlPlaneReconciler(Duration workloadPollInterval, String instance) {
    this.workloadPollInterval = workloadPollInterval;
    this.connect = WorkloadCluster::connect;
    this.instance = instance;
  }

  @Override
  public List<EventSource<?, OpenshiftAssistedControlPlane>> prepareEventSources(
      EventSourceContext<OpenshiftAssistedControlPlane> context) {
    infrastructure = new InfrastructureTemplates(context.getClient());
    clusters =
        new InformerEventSource<>(
            InformerEventSourceConfiguration.from(
                    Cluster.class, OpenshiftAssistedControlPlane.class)
                .withSecondaryToPrimaryMapper(
                    cluster -> controlPlaneOf(cluster).map(Set::of).orElse(Set.of()))
                .withOnUpdateFilter(WatchedChanges::cluster)
                .build(),
            context);
    machines =
        new InformerEventSource<>(
            InformerEventSourceConfiguration.from(
                    Machine.class, OpenshiftAssistedControlPlane.class)
                .withLabelSelector(ExternalKinds.CONTROL_PLANE_LABEL)
                .withSecondaryToPrimaryMapper(ownedBy(true))
                .withOnUpdateFilter(WatchedChanges::machine)
                .build(),
            context);
    return List.of(
        clusters,
        machines,
        new InformerEventSource<>(
            InformerEventSourceConfiguration.from(
                    OpenshiftAssistedConfig.class, OpenshiftAssistedControlPlane.class)
                .withLabelSelector(ExternalKinds.CONTROL_PLANE_LABEL)
                .withSecondaryToPrimaryMapper(ownedBy(false))
                .withOnUpdateFilter(RelevantChange::ofMetadata)
                .build(),
            context),
        new InformerEventSource<>(
            InformerEventSourceConfiguration.from(
                    ClusterDeployment.class, OpenshiftAssistedControlPlane.class)
                .withSecondaryToPrimaryMapper(ownedBy(false))
                .withOnUpdateFilter(RelevantChange::ofMetadata)
                .build(),
            context),
        new InformerEventSource<>(
            InformerEventSourceConfiguration.from(
                    AgentClusterInstall.class, OpenshiftAssistedControlPlane.class)
                .withSecondaryToPrimaryMapper(ownedBy(false))
                .withOnUpdateFilter(WatchedChanges::clusterInstall)
                .build(),
            context),
        new InformerEventSource<>(
            InformerEventSourceConfiguration.from(
                    MachineDeployment.class, OpenshiftAssistedControlPlane.class)
                .withLabelSelector(ExternalKinds.CLUSTER_NAME_LABEL)
                .withSecondaryToPrimaryMapper(this::controlPlaneOfClusterMember)
                .withOnUpdateFilter(RelevantChange::ofMetadata)
                .build(),
            context),
        new InformerEventSource<>(
            InformerEventSourceConfiguration.from(MACHINE_POOL, OpenshiftAssistedControlPlane.class)
                .withLabelSelector(ExternalKinds.CLUSTER_NAME_LABEL)
                .withSecondaryToPrimaryMapper(this::controlPlaneOfClusterMember)
                .withOnUpdateFilter(RelevantChange::ofMetadata)
                .build(),
            context));
  }

  /** The control plane of the Cluster named by the object's cluster-name label. */
  private Set<ResourceID> controlPlaneOfClusterMember(HasMetadata object) {
    String clusterName =
        object.getMetadata().getLabels() == null
            ? null
            : object.getMetadata().getLabels().get(ExternalKinds.CLUSTER_NAME_LABEL);
    if (clusterName == null) {
      return Set.of();
    }
    return clusters
        .get(new ResourceID(clusterName, object.getMetadata().getNamespace()))
        .flatMap(OpenshiftAssistedControlPlaneReconciler::controlPlaneOf)
        .map(Set::of)
        .orElse(Set.of());
  }

  @Override
  public UpdateControl<OpenshiftAssistedControlPlane> reconcile(
      OpenshiftAssistedControlPlane cp, Context<OpenshiftAssistedControlPlane> context) {
    KubernetesClient client = context.getClient();
    StatusBuilder status = new StatusBuilder(cp, clock);
    status.setFalse(DELETING, NOT_DELETING, "the control plane is not being deleted");

    Optional<Cluster> cluster = ownerCluster(cp);
    if (cluster.isEmpty()) {
      status.setFalse(
          AVAILABLE,
          WAITING_FOR_CLUSTER,
          "waiting for Cluster API to set a Cluster as owner of this control plane (the Cluster's"
              + " spec.controlPlaneRef must name it)");
      return UpdateControl.patchStatus(status.toPatch(false));
    }
    if (Pause.isPaused(cluster.get(), cp)) {
      status.setTrue(
          PAUSED, PAUSED, "reconciliation is paused: " + Pause.reason(cluster.get(), cp));
      return UpdateControl.patchStatus(status.toPatch(false));
    }
    status.setFalse(PAUSED, NOT_PAUSED, "reconciliation is not paused");
    if (cluster.get().getMetadata().getDeletionTimestamp() != null) {
      // Cluster API deletes the workers, then this control plane: whatever we made now (cluster
      // objects, Machines, an upgrade) would only have to be deleted again.
      status.setFalse(
          AVAILABLE,
          CLUSTER_DELETING,
          "Cluster "
              + cluster.get().getMetadata().getName()
              + " is being deleted: nothing new is made for it; Cluster API deletes this control"
              + " plane once the workers are gone");
      return UpdateControl.patchStatus(status.toPatch(false));
    }
    Optional<String> notReady = clusterNotReady(cluster.get());
    if (notReady.isPresent()) {
      String reason = notReady.get();
      status.setFalse(
          AVAILABLE,
          reason,
          reason.equals(WAITING_FOR_CONTROL_PLANE_ENDPOINT)
              ? "waiting for Cluster "
                  + cluster.get().getMetadata().getName()
                  + " to have spec.controlPlaneEndpoint (host and port), set by the infrastructure"
                  + " provider"
              : "waiting for the infrastructure of Cluster "
                  + cluster.get().getMetadata().getName()
                  + " to be provisioned (status.initialization.infrastructureProvisioned)");
      return UpdateControl.patchStatus(status.toPatch(false));
    }

    ControlPlaneScope scope = observe(cp, cluster.get(), context);
    new ClusterObjects(client, imageSetsEnsured).reconcile(scope, status);
    Kubeconfig kubeconfig = new Kubeconfig(client);
    boolean workloadLookDue = workloadLookDue(cp);
    // Once published, the kubeconfig is refreshed when the installed cluster is looked at, not at
    // every event: nothing tells us when assisted-service's copy changes.
    if (!status.initialized() || workloadLookDue) {
      kubeconfig.reconcile(scope, status);
    }
    EventRecorder events = new EventRecorder(client, EVENT_CONTROLLER, instance);
    // A Machine we create is in our cache at once: the next reconcile, woken by its config, sees
    // it.
    new ControlPlaneMachines(
            client,
            infrastructure,
            NAME,
            events,
            clock,
            m -> machines.handleRecentResourceCreate(ResourceID.fromResource(m), m))
        .reconcile(scope, status);
    if (status.initialized() && workloadLookDue) {
      new Upgrades(kubeconfig, connect, events).reconcile(scope, status);
      workloadLooks.put(ResourceID.fromResource(cp), clock.instant());
    }
    reportAvailability(scope, status);

    OpenshiftAssistedControlPlane patch = status.toPatch(true);
    UpdateControl<OpenshiftAssistedControlPlane> control =
        Serialization.asJson(patch.getStatus()).equals(Serialization.asJson(cp.getStatus()))
            ? UpdateControl.noUpdate()
            : UpdateControl.patchStatus(patch);
    // The workload cluster, infrastructure templates and admission refusals cannot be watched
    // from here: look again later.
    boolean creationBlocked =
        status.conditions().stream()
            .anyMatch(
                c ->
                    SCALING_UP.equals(c.getType())
                        && (MACHINE_CREATION_FAILED.equals(c.getReason())
                            || INFRASTRUCTURE_TEMPLATE_UNAVAILABLE.equals(c.getReason())));
    return status.initialized() || creationBlocked
        ? control.rescheduleAfter(workloadPollInterval)
        : control;
  }

  /**
   * Whether to look at the workload cluster now: on a spec change at once, otherwise not more often
   * than the poll interval asks (AgentClusterInstall and Machine events come much more often).
   */
  private boolean workloadLookDue(OpenshiftAssistedControlPlane cp) {
    Instant last = workloadLooks.get(ResourceID.fromResource(cp));
    boolean specChanged =
        cp.getStatus() == null
            || !cp.getMetadata().getGeneration().equals(cp.getStatus().observedGeneration);
    return specChanged
        || last == null
        || !clock.instant().isBefore(last.plus(workloadPollInterval.dividedBy(2)));
  }

  private static void reportAvailability(ControlPlaneScope scope, StatusBuilder status) {
    if (status.conditions().stream()
        .anyMatch(
            c -> CLUSTER_INSTALL_CONFIGURED.equals(c.getType()) && "False".equals(c.getStatus()))) {
      status.setFalse(
          AVAILABLE,
          INVALID_CONFIGURATION,
          "the cluster cannot be configured; see condition " + CLUSTER_INSTALL_CONFIGURED);
      return;
    }
    if (scope.clusterInstall().isEmpty()) {
      status.setFalse(
          AVAILABLE,
          WAITING_FOR_CLUSTER_INSTALL,
          "waiting for AgentClusterInstall " + Names.clusterDeployment(scope.cp()));
      return;
    }
    String state = Kubeconfig.describeState(scope);
    if ("error".equals(scope.installerState())) {
      status.setFalse(
          AVAILABLE,
          INSTALLATION_FAILED,
          "assisted-service reports the installation failed: "
              + state
              + "; see the events and logs of AgentClusterInstall "
              + Names.clusterDeployment(scope.cp()));
    } else if (scope.installerReportsAvailable() && status.initialized()) {
      status.setTrue(AVAILABLE, AVAILABLE, "the cluster is installed; installer state: " + state);
    } else {
      status.setFalse(AVAILABLE, INSTALLING, "installer state: " + state);
    }
  }

  @Override
  public DeleteControl cleanup(
      OpenshiftAssistedControlPlane cp, Context<OpenshiftAssistedControlPlane> context) {
    KubernetesClient client = context.getClient();
    Optional<Cluster> cluster = ownerCluster(cp);
    if (cluster.isPresent() && Pause.isPaused(cluster.get(), cp)) {
      return DeleteControl.noFinalizerRemoval();
    }
    String ns = cp.getMetadata().getNamespace();
    List<Machine> machines =
        client
            .resources(Machine.class)
            .inNamespace(ns)
            .withLabel(ExternalKinds.CONTROL_PLANE_NAME_LABEL, Names.controlPlaneLabelValue(cp))
            .list()
            .getItems()
            .stream()
            .filter(m -> OwnerReferences.isOwnedBy(m, cp))
            .toList();
    if (!machines.isEmpty()) {
      machines.stream()
          .filter(m -> m.getMetadata().getDeletionTimestamp() == null)
          .forEach(m -> client.resource(m).delete());
      markDeleting(
          client,
          cp,
          WAITING_FOR_MACHINES_DELETED,
          "waiting for Machines "
              + machines.stream().map(m -> m.getMetadata().getName()).sorted().toList()
              + " to be deleted");
      return DeleteControl.noFinalizerRemoval();
    }
    deleteLeftoverMachineParts(client, infrastructure, cp);
    String cdName = Names.clusterDeployment(cp);
    client.resources(AgentClusterInstall.class).inNamespace(ns).withName(cdName).delete();
    ClusterDeployment cd =
        client.resources(ClusterDeployment.class).inNamespace(ns).withName(cdName).get();
    if (cd != null && OwnerReferences.isOwnedBy(cd, cp)) {
      if (cd.getMetadata().getDeletionTimestamp() == null) {
        client.resource(cd).delete();
      }
      markDeleting(
          client,
          cp,
          WAITING_FOR_CLUSTER_DEPLOYMENT_DELETED,
          "waiting for ClusterDeployment "
              + cdName
              + " to be deleted (Hive deprovisions the cluster)");
      return DeleteControl.noFinalizerRemoval();
    }
    client.resources(ClusterImageSet.class).withName(Names.clusterImageSet(cp)).delete();
    client.configMaps().inNamespace(ns).withName(Names.registryConfigMap(cp)).delete();
    client.secrets().inNamespace(ns).withName(Names.placeholderPullSecret(cp)).delete();
    // The Cluster may be gone already; its name stays in our owner reference.
    OwnerReferences.find(cp, ExternalKinds.CAPI_GROUP, "Cluster")
        .ifPresent(
            owner ->
                client
                    .secrets()
                    .inNamespace(ns)
                    .withName(Names.kubeconfigSecret(owner.getName()))
                    .delete());
    workloadLooks.remove(ResourceID.fromResource(cp));
    return DeleteControl.defaultDelete();
  }

  /** Configs and infrastructure clones Cluster API did not delete with their Machines. */
  private static void deleteLeftoverMachineParts(
      KubernetesClient client,
      InfrastructureTemplates infrastructure,
      OpenshiftAssistedControlPlane cp) {
    String ns = cp.getMetadata().getNamespace();
    ContractVersionedObjectReference template =
        cp.getSpec().machineTemplate.effectiveInfrastructureRef();
    for (OpenshiftAssistedConfig config :
        client
            .resources(OpenshiftAssistedConfig.class)
            .inNamespace(ns)
            .withLabel(ExternalKinds.CONTROL_PLANE_NAME_LABEL, Names.controlPlaneLabelValue(cp))
            .list()
            .getItems()) {
      if (!OwnerReferences.isOwnedBy(config, cp)) {
        continue;
      }
      try {
        infrastructure.delete(
            new ContractVersionedObjectReference(
                template.apiGroup,
                InfrastructureTemplates.machineKind(template.kind),
                config.getMetadata().getName()),
            ns);
      } catch (RuntimeException e) {
        // The infrastructure kind may be gone already; the config is deleted regardless.
      }
      client.resource(config).delete();
    }
  }

  private static void markDeleting(
      KubernetesClient client, OpenshiftAssistedControlPlane cp, String reason, String message) {
    StatusBuilder status = new StatusBuilder(cp, Clock.systemUTC());
    status.setTrue(DELETING, reason, message);
    status.setFalse(AVAILABLE, DELETING, "the control plane is being deleted");
    client
        .resources(OpenshiftAssistedControlPlane.class)
        .inNamespace(cp.getMetadata().getNamespace())
        .withName(cp.getMetadata().getName())
        .subresource("status")
        .patch(
            PatchContext.of(PatchType.JSON_MERGE),
            Serialization.asJson(Map.of("status", Map.of("conditions", status.conditions()))));
  }

  private ControlPlaneScope observe(
      OpenshiftAssistedControlPlane cp,
      Cluster cluster,
      Context<OpenshiftAssistedControlPlane> context) {
    List<Machine> machines =
        context.getSecondaryResources(Machine.class).stream()
            .filter(m -> isControlledBy(m, cp))
            .sorted(Comparator.comparing(m -> m.getMetadata().getName()))
            .toList();
    Map<String, OpenshiftAssistedConfig> configs =
        context.getSecondaryResources(OpenshiftAssistedConfig.class).stream()
            .collect(Collectors.toMap(c -> c.getMetadata().getName(), c -> c));
    return new ControlPlaneScope(
        cp,
        cluster,
        machines,
        configs,
        List.copyOf(context.getSecondaryResources(MachineDeployment.class)),
        List.copyOf(context.getSecondaryResources(GenericKubernetesResource.class)),
        context.getSecondaryResources(ClusterDeployment.class).stream()
            .filter(cd -> cd.getMetadata().getName().equals(Names.clusterDeployment(cp)))
            .findFirst(),
        context.getSecondaryResources(AgentClusterInstall.class).stream()
            .filter(a -> a.getMetadata().getName().equals(Names.clusterDeployment(cp)))
            .findFirst());
  }

  private Optional<Cluster> ownerCluster(OpenshiftAssistedControlPlane cp) {
    return OwnerReferences.find(cp, ExternalKinds.CAPI_GROUP, "Cluster")
        .flatMap(
            ref -> clusters.get(new ResourceID(ref.getName(), cp.getMetadata().getNamespace())));
  }

  /** Why the Cluster is not ready for the control plane yet (a condition reason), if it is not. */
  private static Optional<String> clusterNotReady(Cluster cluster) {
    var endpoint = cluster.getSpec() == null ? null : cluster.getSpec().controlPlaneEndpoint;
    if (endpoint == null
        || endpoint.host == null
        || endpoint.host.isEmpty()
        || endpoint.port == null
        || endpoint.port == 0) {
      return Optional.of(WAITING_FOR_CONTROL_PLANE_ENDPOINT);
    }
    var init = cluster.getStatus() == null ? null : cluster.getStatus().initialization;
    if (init == null || !Boolean.TRUE.equals(init.infrastructureProvisioned)) {
      return Optional.of(WAITING_FOR_INFRASTRUCTURE);
    }
    return Optional.empty();
  }

  private static Optional<ResourceID> controlPlaneOf(Cluster cluster) {
    ContractVersionedObjectReference ref =
        cluster.getSpec() == null ? null : cluster.getSpec().controlPlaneRef;
    if (ref == null || !ControlPlaneGroup.GROUP.equals(ref.apiGroup) || !KIND.equals(ref.kind)) {
      return Optional.empty();
    }
    return Optional.of(new ResourceID(ref.name, cluster.getMetadata().getNamespace()));
  }

  private static <T extends HasMetadata> SecondaryToPrimaryMapper<T> ownedBy(boolean controller) {
    return object ->
        object.getMetadata().getOwnerReferences().stream()
            .filter(
                r ->
                    KIND.equals(r.getKind())
                        && ControlPlaneGroup.GROUP.equals(
                            OwnerReferences.groupOf(r.getApiVersion()))
                        && (!controller || Boolean.TRUE.equals(r.getController())))
            .map(r -> new ResourceID(r.getName(), object.getMetadata().getNamespace()))
            .collect(Collectors.toSet());
  }

  private static boolean isControlledBy(HasMetadata object, OpenshiftAssistedControlPlane cp) {
    return object.getMetadata().getOwnerReferences().stream()
        .anyMatch(
            r ->
                Boolean.TRUE.equals(r.getController())
                    && cp.getMetadata().getUid().equals(r.getUid()));
  }
}
