package io.openshiftagent.bootstrap.config;

import static io.openshiftagent.provider.reconcile.Informers.cached;
import static io.openshiftagent.provider.reconcile.Informers.indexed;
import static io.openshiftagent.provider.reconcile.Informers.informer;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.client.informers.cache.ItemStore;
import io.javaoperatorsdk.operator.api.config.informer.InformerEventSourceConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.EventSourceContext;
import io.javaoperatorsdk.operator.processing.event.ResourceID;
import io.javaoperatorsdk.operator.processing.event.source.EventSource;
import io.javaoperatorsdk.operator.processing.event.source.IndexerResourceCache;
import io.javaoperatorsdk.operator.processing.event.source.filter.OnUpdateFilter;
import io.javaoperatorsdk.operator.processing.event.source.informer.InformerEventSource;
import io.javaoperatorsdk.operator.processing.event.source.informer.Mappers;
import io.openshiftagent.api.bootstrap.v1alpha2.OpenshiftAssistedConfig;
import io.openshiftagent.api.common.ContractVersionedObjectReference;
import io.openshiftagent.api.external.ExternalKinds;
import io.openshiftagent.api.external.assisted.AgentClusterInstall;
import io.openshiftagent.api.external.assisted.AgentClusterInstallStatus;
import io.openshiftagent.api.external.assisted.DebugInfo;
import io.openshiftagent.api.external.assisted.InfraEnv;
import io.openshiftagent.api.external.capi.Cluster;
import io.openshiftagent.api.external.capi.ClusterStatus;
import io.openshiftagent.api.external.capi.Machine;
import io.openshiftagent.api.external.hive.ClusterDeployment;
import io.openshiftagent.api.external.metal3.Metal3Machine;
import io.openshiftagent.bootstrap.hosts.Hosts;
import io.openshiftagent.bootstrap.names.Names;
import io.openshiftagent.provider.contract.InstallerStates;
import io.openshiftagent.provider.contract.Kinds;
import io.openshiftagent.provider.reconcile.CachedObjects;
import io.openshiftagent.provider.reconcile.ClusterRefs;
import io.openshiftagent.provider.reconcile.Informers;
import io.openshiftagent.provider.reconcile.Metadata;
import io.openshiftagent.provider.reconcile.RelevantChange;
import io.openshiftagent.provider.runtime.ControllerScope;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.UnaryOperator;
import java.util.stream.Collectors;

/**
 * What the config controller watches, and which configs each event concerns: the Machine and its
 * Metal3Machine, the Cluster, the ClusterDeployment and AgentClusterInstall (found through the
 * Clusters naming their control plane) and what we create (InfraEnv, Secrets). The scope reads them
 * here, from memory. An update wakes a config only when it changes what {@link ConfigSteps} reads:
 * metadata and spec, and of the status only the Cluster's infrastructure, the installer's state and
 * the InfraEnv's image URLs and refusal (Cluster API and assisted-service rewrite the rest often).
 */
final class ConfigCaches {
  static final String CONFIGS_BY_CLUSTER = "configs-by-cluster";
  static final String CLUSTERS_BY_CONTROL_PLANE = "clusters-by-control-plane";

  private InformerEventSource<Machine, OpenshiftAssistedConfig> machines;
  private InformerEventSource<Metal3Machine, OpenshiftAssistedConfig> metal3Machines;
  private InformerEventSource<Cluster, OpenshiftAssistedConfig> clusters;
  private InformerEventSource<ClusterDeployment, OpenshiftAssistedConfig> clusterDeployments;
  private InformerEventSource<AgentClusterInstall, OpenshiftAssistedConfig> installs;
  private InformerEventSource<InfraEnv, OpenshiftAssistedConfig> infraEnvs;
  private InformerEventSource<Secret, OpenshiftAssistedConfig> secrets;
  private final ControllerScope scope;

  /**
   * @param scope what this process manages: with a watch filter, every watch here selects its label
   *     (Cluster API puts it on the Machines and the infrastructure machines, the control plane on
   *     what it creates, this provider on what it creates)
   */
  ConfigCaches(ControllerScope scope) {
    this.scope = scope;
  }

  List<EventSource<?, OpenshiftAssistedConfig>> eventSources(
      EventSourceContext<OpenshiftAssistedConfig> context) {
    IndexerResourceCache<OpenshiftAssistedConfig> configs = context.getPrimaryCache();
    Informers.indexByLabel(configs, CONFIGS_BY_CLUSTER, ExternalKinds.CLUSTER_NAME_LABEL);

    machines =
        informer(
            context, Machine.class, "machines", ConfigCaches::configOf, scoped(metadataChanges()));
    machines.addIndexers(Map.of(Hosts.MACHINES_BY_INFRASTRUCTURE, Hosts::infrastructureKey));
    // The Metal3Machine is made after the Machine; the live ISO is set on it once it exists.
    metal3Machines =
        informer(
            context,
            Metal3Machine.class,
            "metal3machines",
            m3m ->
                machines.byIndex(Hosts.MACHINES_BY_INFRASTRUCTURE, Hosts.key(m3m)).stream()
                    .flatMap(machine -> configOf(machine).stream())
                    .collect(Collectors.toSet()),
            scoped(metadataChanges()));
    clusters =
        informer(
            context,
            Cluster.class,
            "clusters",
            cluster ->
                configsOf(configs, cluster.getMetadata().getNamespace(), Metadata.name(cluster)),
            scoped(
                options ->
                    options
                        .withOnUpdateFilter(
                            (updated, old) ->
                                RelevantChange.ofMetadataOr(
                                    updated, old, ClusterRefs::infrastructureProvisioned))
                        .withItemStore(CachedObjects.store(ConfigCaches::initializationOnly))));
    clusters.addIndexers(
        Map.of(
            CLUSTERS_BY_CONTROL_PLANE,
            cluster ->
                ClusterRefs.controlPlaneName(cluster)
                    .map(cp -> List.of(Metadata.key(cluster.getMetadata().getNamespace(), cp)))
                    .orElse(List.of())));
    // Both are named after the control plane (SharedNames): its Clusters lead to the configs.
    clusterDeployments =
        informer(
            context,
            ClusterDeployment.class,
            "clusterdeployments",
            cd -> configsOfControlPlane(configs, cd),
            scoped(metadataChanges()));
    installs =
        informer(
            context,
            AgentClusterInstall.class,
            "agentclusterinstalls",
            aci -> configsOfControlPlane(configs, aci),
            scoped(
                options ->
                    options
                        .withOnUpdateFilter(
                            (updated, old) ->
                                RelevantChange.ofMetadataOr(updated, old, InstallerStates::of))
                        .withItemStore(CachedObjects.store(ConfigCaches::installerStateOnly))));
    infraEnvs =
        ours(
            context,
            InfraEnv.class,
            "infraenvs",
            (updated, old) ->
                RelevantChange.ofMetadataOr(updated, old, DiscoveryImage::readBySteps),
            CachedObjects.store(ConfigCaches::imageUrlsAndRefusalOnly));
    // Only whether the data Secret exists is read: its data is not cached.
    secrets =
        ours(
            context,
            Secret.class,
            "secrets",
            RelevantChange::ofMetadata,
            CachedObjects.metadataOnlySecrets());
    return List.of(
        machines, metal3Machines, clusters, clusterDeployments, installs, infraEnvs, secrets);
  }

  Optional<Machine> machine(String namespace, String name) {
    return cached(machines, namespace, name);
  }

  Optional<Metal3Machine> metal3Machine(String namespace, String name) {
    return cached(metal3Machines, namespace, name);
  }

  Optional<Cluster> cluster(String namespace, String name) {
    return cached(clusters, namespace, name);
  }

  Optional<ClusterDeployment> clusterDeployment(String namespace, String name) {
    return cached(clusterDeployments, namespace, name);
  }

  Optional<AgentClusterInstall> install(String namespace, String name) {
    return cached(installs, namespace, name);
  }

  Optional<InfraEnv> infraEnv(String namespace, String name) {
    return cached(infraEnvs, namespace, name);
  }

  Optional<Secret> secret(String namespace, String name) {
    return cached(secrets, namespace, name);
  }

  /** Records what we just created, so the next reconcile sees it before the watch delivers it. */
  void created(InfraEnv infraEnv) {
    infraEnvs.handleRecentResourceCreate(ResourceID.fromResource(infraEnv), infraEnv);
  }

  void created(Secret secret) {
    secrets.handleRecentResourceCreate(ResourceID.fromResource(secret), secret);
  }

  private static Set<ResourceID> configOf(Machine machine) {
    ContractVersionedObjectReference ref =
        machine.getSpec() == null || machine.getSpec().bootstrap == null
            ? null
            : machine.getSpec().bootstrap.configRef;
    if (!Kinds.isOpenshiftAssistedConfig(ref)) {
      return Set.of();
    }
    return Set.of(new ResourceID(ref.name, machine.getMetadata().getNamespace()));
  }

  private static Set<ResourceID> configsOf(
      IndexerResourceCache<OpenshiftAssistedConfig> configs, String namespace, String cluster) {
    return indexed(configs, CONFIGS_BY_CLUSTER, Metadata.key(namespace, cluster));
  }

  /** The configs of the clusters whose control plane is named like {@code object}. */
  private Set<ResourceID> configsOfControlPlane(
      IndexerResourceCache<OpenshiftAssistedConfig> configs, HasMetadata object) {
    String namespace = object.getMetadata().getNamespace();
    return clusters.byIndex(CLUSTERS_BY_CONTROL_PLANE, Metadata.key(object)).stream()
        .flatMap(cluster -> configsOf(configs, namespace, Metadata.name(cluster)).stream())
        .collect(Collectors.toSet());
  }

  /** What we create for a config: labelled with it, and owned by it. */
  private <R extends HasMetadata> InformerEventSource<R, OpenshiftAssistedConfig> ours(
      EventSourceContext<OpenshiftAssistedConfig> context,
      Class<R> kind,
      String name,
      OnUpdateFilter<R> relevant,
      ItemStore<R> store) {
    return informer(
        context,
        kind,
        name,
        Mappers.fromOwnerReferences(OpenshiftAssistedConfig.class),
        options ->
            options
                .withLabelSelector(scope.selector(Names.CONFIG_LABEL))
                .withOnUpdateFilter(relevant)
                .withItemStore(store));
  }

  /** Of a Cluster's status, the steps read its initialization only. */
  private static Cluster initializationOnly(Cluster cluster) {
    if (cluster.getStatus() != null) {
      ClusterStatus kept = new ClusterStatus();
      kept.initialization = cluster.getStatus().initialization;
      cluster.setStatus(kept);
    }
    return cluster;
  }

  /** Of an AgentClusterInstall's status, the steps read the installer's state only. */
  private static AgentClusterInstall installerStateOnly(AgentClusterInstall install) {
    if (install.getStatus() != null) {
      DebugInfo read = install.getStatus().debugInfo;
      AgentClusterInstallStatus kept = new AgentClusterInstallStatus();
      if (read != null) {
        kept.debugInfo = new DebugInfo();
        kept.debugInfo.state = read.state;
        kept.debugInfo.stateInfo = read.stateInfo;
      }
      install.setStatus(kept);
    }
    return install;
  }

  /** Of an InfraEnv's status, what the steps read only. */
  private static InfraEnv imageUrlsAndRefusalOnly(InfraEnv infraEnv) {
    infraEnv.setStatus(DiscoveryImage.readBySteps(infraEnv));
    return infraEnv;
  }

  /** {@code options} with this process's watch filter, if it has one. */
  private <R extends HasMetadata> UnaryOperator<InformerEventSourceConfiguration.Builder<R>> scoped(
      UnaryOperator<InformerEventSourceConfiguration.Builder<R>> options) {
    String selector = scope.selector(null);
    return selector == null ? options : o -> options.apply(o).withLabelSelector(selector);
  }

  /**
   * Only a change of the metadata or spec wakes the configs, and the status is not cached: it is
   * not read.
   */
  private static <R extends HasMetadata>
      UnaryOperator<InformerEventSourceConfiguration.Builder<R>> metadataChanges() {
    return options ->
        options
            .withOnUpdateFilter(RelevantChange::ofMetadata)
            .withItemStore(CachedObjects.storeWithoutStatus());
  }
}
