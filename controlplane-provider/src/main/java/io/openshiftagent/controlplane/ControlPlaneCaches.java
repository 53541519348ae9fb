package io.openshiftagent.controlplane;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.javaoperatorsdk.operator.api.config.informer.InformerEventSourceConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.EventSourceContext;
import io.javaoperatorsdk.operator.processing.event.ResourceID;
import io.javaoperatorsdk.operator.processing.event.source.EventSource;
import io.javaoperatorsdk.operator.processing.event.source.SecondaryToPrimaryMapper;
import io.javaoperatorsdk.operator.processing.event.source.informer.InformerEventSource;
import io.openshiftagent.api.bootstrap.v1alpha2.OpenshiftAssistedConfig;
import io.openshiftagent.api.bootstrap.v1alpha2.OpenshiftAssistedConfigTemplate;
import io.openshiftagent.api.common.ContractVersionedObjectReference;
import io.openshiftagent.api.controlplane.v1alpha3.ControlPlaneGroup;
import io.openshiftagent.api.controlplane.v1alpha3.OpenshiftAssistedControlPlane;
import io.openshiftagent.api.external.ExternalKinds;
import io.openshiftagent.api.external.assisted.AgentClusterInstall;
import io.openshiftagent.api.external.capi.Cluster;
import io.openshiftagent.api.external.capi.Machine;
import io.openshiftagent.api.external.capi.MachineDeployment;
import io.openshiftagent.api.external.hive.ClusterDeployment;
import io.openshiftagent.controlplane.machines.MachineWrites;
import io.openshiftagent.controlplane.scope.ControlPlaneScope;
import io.openshiftagent.provider.contract.Kinds;
import io.openshiftagent.provider.reconcile.CachedObjects;
import io.openshiftagent.provider.reconcile.ClusterRefs;
import io.openshiftagent.provider.reconcile.Metadata;
import io.openshiftagent.provider.reconcile.OwnerReferences;
import io.openshiftagent.provider.reconcile.RelevantChange;
import io.openshiftagent.provider.runtime.ControllerScope;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.UnaryOperator;
import java.util.stream.Collectors;

/**
 * What the control-plane controller watches, and which control plane each event concerns: the
 * Cluster (through its controlPlaneRef), the Machines and configs we create and the
 * ClusterDeployment and AgentClusterInstall (through their owner references), the cluster's
 * MachineDeployments (through the Cluster their label names) and the
 * OpenshiftAssistedConfigTemplates those MachineDeployments name. {@link #cached} is what a control
 * plane's scope holds of them (its own, through {@link Secondaries}). Each cache keeps what {@link
 * CachedObjects} leaves of its objects.
 */
final class ControlPlaneCaches implements MachineWrites.MachineCache {
  private final ControllerScope scope;
  private InformerEventSource<Cluster, OpenshiftAssistedControlPlane> clusters;
  private InformerEventSource<Machine, OpenshiftAssistedControlPlane> machines;
  private InformerEventSource<MachineDeployment, OpenshiftAssistedControlPlane> machineDeployments;
  private InformerEventSource<OpenshiftAssistedConfigTemplate, OpenshiftAssistedControlPlane>
      workerTemplates;

  /**
   * @param scope what this process manages: with a watch filter, every watch here selects its label
   *     (the user puts it on the Cluster, its MachineDeployments and templates, this provider on
   *     what it makes)
   */
  ControlPlaneCaches(ControllerScope scope) {
    this.scope = scope;
  }

  /** The namespaces this process watches; empty: all. */
  Set<String> watchedNamespaces() {
    return scope.namespaces();
  }

  List<EventSource<?, OpenshiftAssistedControlPlane>> eventSources(
      EventSourceContext<OpenshiftAssistedControlPlane> context) {
    clusters =
        new InformerEventSource<>(
            InformerEventSourceConfiguration.from(
                    Cluster.class, OpenshiftAssistedControlPlane.class)
                .withLabelSelector(scope.selector(null))
                .withSecondaryToPrimaryMapper(
                    cluster -> controlPlaneOf(cluster).map(Set::of).orElse(Set.of()))
                .withOnUpdateFilter(WatchedChanges::cluster)
                .withItemStore(CachedObjects.store())
                .build(),
            context);
    machines =
        new InformerEventSource<>(
            InformerEventSourceConfiguration.from(
                    Machine.class, OpenshiftAssistedControlPlane.class)
                .withLabelSelector(scope.selector(ExternalKinds.CONTROL_PLANE_LABEL))
                .withSecondaryToPrimaryMapper(ownedBy(true))
                .withOnUpdateFilter(WatchedChanges::machine)
                .withItemStore(CachedObjects.store())
                .build(),
            context);
    machineDeployments =
        new InformerEventSource<>(
            InformerEventSourceConfiguration.from(
                    MachineDeployment.class, OpenshiftAssistedControlPlane.class)
                .withLabelSelector(scope.selector(ExternalKinds.CLUSTER_NAME_LABEL))
                .withSecondaryToPrimaryMapper(this::controlPlaneOfClusterMember)
                .withOnUpdateFilter(RelevantChange::ofMetadata)
                .withItemStore(CachedObjects.store())
                .build(),
            context);
    // The workers' architectures (the release image's): rarely changed, so watched, not read.
    workerTemplates =
        new InformerEventSource<>(
            InformerEventSourceConfiguration.from(
                    OpenshiftAssistedConfigTemplate.class, OpenshiftAssistedControlPlane.class)
                .withLabelSelector(scope.selector(null))
                .withSecondaryToPrimaryMapper(this::controlPlanesUsing)
                .withOnUpdateFilter(RelevantChange::ofMetadata)
                .withItemStore(CachedObjects.store())
                .build(),
            context);
    return List.of(
        clusters,
        machines,
        machineDeployments,
        workerTemplates,
        new InformerEventSource<>(
            InformerEventSourceConfiguration.from(
                    OpenshiftAssistedConfig.class, OpenshiftAssistedControlPlane.class)
                .withLabelSelector(scope.selector(ExternalKinds.CONTROL_PLANE_LABEL))
                .withSecondaryToPrimaryMapper(configOwner())
                .withOnUpdateFilter(WatchedChanges::config)
                .withItemStore(CachedObjects.store())
                .build(),
            context),
        new InformerEventSource<>(
            InformerEventSourceConfiguration.from(
                    ClusterDeployment.class, OpenshiftAssistedControlPlane.class)
                .withLabelSelector(scope.selector(null))
                .withSecondaryToPrimaryMapper(ownedBy(false))
                .withOnUpdateFilter(RelevantChange::ofMetadata)
                .withItemStore(CachedObjects.store())
                .build(),
            context),
        new InformerEventSource<>(
            InformerEventSourceConfiguration.from(
                    AgentClusterInstall.class, OpenshiftAssistedControlPlane.class)
                .withLabelSelector(scope.selector(null))
                .withSecondaryToPrimaryMapper(ownedBy(false))
                .withOnUpdateFilter(WatchedChanges::clusterInstall)
                .withItemStore(CachedObjects.store())
                .build(),
            context));
  }

  /** The Cluster owning the control plane (Cluster API sets the owner reference). */
  Optional<Cluster> ownerCluster(OpenshiftAssistedControlPlane cp) {
    return Kinds.owningCluster(cp)
        .flatMap(name -> clusters.get(new ResourceID(name, cp.getMetadata().getNamespace())));
  }

  /** Records a Machine we just created, so the next reconcile sees it before its event. */
  @Override
  public void created(Machine machine) {
    machines.handleRecentResourceCreate(ResourceID.fromResource(machine), machine);
  }

  /**
   * A write of a Machine through java-operator-sdk's read-your-writes cache (what its
   * ResourceOperations do): read back until its event comes, which starts no reconcile.
   */
  @Override
  public Machine write(Machine machine, UnaryOperator<Machine> write) {
    return machines.eventFilteringUpdateAndCacheResource(machine, write);
  }

  /**
   * The OpenshiftAssistedConfigTemplates the cluster's MachineDeployments (not being deleted) make
   * their workers' configs from, as cached; a template not made yet is left out.
   */
  private List<OpenshiftAssistedConfigTemplate> workerTemplates(
      List<MachineDeployment> deployments, String namespace) {
    return deployments.stream()
        .filter(md -> !Metadata.isDeleting(md))
        .map(ControlPlaneCaches::bootstrapConfigRef)
        .filter(Kinds::isOpenshiftAssistedConfigTemplate)
        .map(ref -> ref.name)
        .distinct()
        .flatMap(name -> workerTemplates.get(new ResourceID(name, namespace)).stream())
        .toList();
  }

  private static ContractVersionedObjectReference bootstrapConfigRef(MachineDeployment md) {
    var spec = md.getSpec();
    return spec == null
            || spec.template == null
            || spec.template.spec == null
            || spec.template.spec.bootstrap == null
        ? null
        : spec.template.spec.bootstrap.configRef;
  }

  /** The control planes of the clusters whose MachineDeployments use the template. */
  private Set<ResourceID> controlPlanesUsing(OpenshiftAssistedConfigTemplate template) {
    String namespace = template.getMetadata().getNamespace();
    return machineDeployments
        .list(
            namespace,
            md -> {
              ContractVersionedObjectReference ref = bootstrapConfigRef(md);
              return Kinds.isOpenshiftAssistedConfigTemplate(ref)
                  && template.getMetadata().getName().equals(ref.name);
            })
        .map(this::controlPlaneOfClusterMember)
        .flatMap(Set::stream)
        .collect(Collectors.toSet());
  }

  /**
   * What the caches hold of the control plane's cluster, for its scope.
   *
   * @param deletionsUnseen UIDs of Machines this process deleted whose deletion the cache does not
   *     show yet
   */
  ControlPlaneScope.Cached cached(
      OpenshiftAssistedControlPlane cp,
      Cluster cluster,
      Context<OpenshiftAssistedControlPlane> context,
      Set<String> deletionsUnseen) {
    List<MachineDeployment> deployments =
        List.copyOf(context.getSecondaryResources(MachineDeployment.class));
    return new ControlPlaneScope.Cached(
        cp,
        cluster,
        Secondaries.machines(cp, context),
        Secondaries.configs(context),
        deployments,
        workerTemplates(deployments, cp.getMetadata().getNamespace()),
        Secondaries.clusterDeployment(cp, context),
        Secondaries.clusterInstall(cp, context),
        deletionsUnseen);
  }

  /** The control plane of the Cluster named by the object's cluster-name label. */
  private Set<ResourceID> controlPlaneOfClusterMember(HasMetadata object) {
    String clusterName = Metadata.label(object, ExternalKinds.CLUSTER_NAME_LABEL);
    if (clusterName == null) {
      return Set.of();
    }
    return clusters
        .get(new ResourceID(clusterName, object.getMetadata().getNamespace()))
        .flatMap(ControlPlaneCaches::controlPlaneOf)
        .map(Set::of)
        .orElse(Set.of());
  }

  private static Optional<ResourceID> controlPlaneOf(Cluster cluster) {
    return ClusterRefs.controlPlaneName(cluster)
        .map(name -> new ResourceID(name, cluster.getMetadata().getNamespace()));
  }

  /**
   * A config's control plane: its owner; and, once the config is being deleted, the control plane
   * its control-plane-name label names (Cluster API makes the Machine the config's only owner), so
   * that what the config's deletion waits for reaches the control plane's Deleting report. A name
   * too long for a label value is not found that way: the report then names no config wait.
   */
  private static SecondaryToPrimaryMapper<OpenshiftAssistedConfig> configOwner() {
    SecondaryToPrimaryMapper<OpenshiftAssistedConfig> owners = ownedBy(false);
    return config -> {
      Set<ResourceID> controlPlanes = new HashSet<>(owners.toPrimaryResourceIDs(config));
      String named = Metadata.label(config, ExternalKinds.CONTROL_PLANE_NAME_LABEL);
      if (Metadata.isDeleting(config) && named != null && !named.isEmpty()) {
        controlPlanes.add(new ResourceID(named, config.getMetadata().getNamespace()));
      }
      return controlPlanes;
    };
  }

  private static <T extends HasMetadata> SecondaryToPrimaryMapper<T> ownedBy(boolean controller) {
    return object ->
        object.getMetadata().getOwnerReferences().stream()
            .filter(
                r ->
                    Kinds.OPENSHIFT_ASSISTED_CONTROL_PLANE.equals(r.getKind())
                        && ControlPlaneGroup.GROUP.equals(
                            OwnerReferences.groupOf(r.getApiVersion()))
                        && (!controller || Boolean.TRUE.equals(r.getController())))
            .map(r -> new ResourceID(r.getName(), object.getMetadata().getNamespace()))
            .collect(Collectors.toSet());
  }
}
