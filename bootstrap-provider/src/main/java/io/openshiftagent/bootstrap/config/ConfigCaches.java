package io.openshiftagent.bootstrap.config;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Secret;
import io.javaoperatorsdk.operator.api.config.informer.InformerEventSourceConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.EventSourceContext;
import io.javaoperatorsdk.operator.processing.event.ResourceID;
import io.javaoperatorsdk.operator.processing.event.source.EventSource;
import io.javaoperatorsdk.operator.processing.event.source.IndexerResourceCache;
import io.javaoperatorsdk.operator.processing.event.source.informer.InformerEventSource;
import io.javaoperatorsdk.operator.processing.event.source.informer.Mappers;
import io.openshiftagent.api.bootstrap.v1alpha2.OpenshiftAssistedConfig;
import io.openshiftagent.api.common.ContractVersionedObjectReference;
import io.openshiftagent.api.external.ExternalKinds;
import io.openshiftagent.api.external.assisted.AgentClusterInstall;
import io.openshiftagent.api.external.assisted.InfraEnv;
import io.openshiftagent.api.external.capi.Cluster;
import io.openshiftagent.api.external.capi.Machine;
import io.openshiftagent.api.external.hive.ClusterDeployment;
import io.openshiftagent.api.external.metal3.Metal3Machine;
import io.openshiftagent.bootstrap.Names;
import io.openshiftagent.bootstrap.hosts.Hosts;
import io.openshiftagent.provider.contract.InstallerStates;
import io.openshiftagent.provider.contract.Kinds;
import io.openshiftagent.provider.reconcile.ClusterRefs;
import io.openshiftagent.provider.reconcile.Metadata;
import io.openshiftagent.provider.reconcile.RelevantChange;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * What the config controller watches, and which configs each event concerns: the Machine and its
 * Metal3Machine, the Cluster, the ClusterDeployment and AgentClusterInstall (found through the
 * Clusters naming their control plane) and what we create (InfraEnv, Secrets). The scope reads them
 * here, from memory. An update wakes a config only when it changes what {@link ConfigSteps} reads:
 * metadata and spec, and of the status only the Cluster's infrastructure, the installer's state and
 * the InfraEnv's image URLs (Cluster API and assisted-service rewrite the rest often).
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

  List<EventSource<?, OpenshiftAssistedConfig>> eventSources(
      EventSourceContext<OpenshiftAssistedConfig> context) {
    IndexerResourceCache<OpenshiftAssistedConfig> configs = context.getPrimaryCache();
    configs.addIndexer(
        CONFIGS_BY_CLUSTER,
        config ->
            Optional.ofNullable(Metadata.label(config, ExternalKinds.CLUSTER_NAME_LABEL))
                .map(cluster -> List.of(Metadata.key(config.getMetadata().getNamespace(), cluster)))
                .orElse(List.of()));

    machines =
        new InformerEventSource<>(
            InformerEventSourceConfiguration.from(Machine.class, OpenshiftAssistedConfig.class)
                .withName("machines")
                .withSecondaryToPrimaryMapper(ConfigCaches::configOf)
                .withOnUpdateFilter(RelevantChange::ofMetadata)
                .build(),
            context);
    machines.addIndexers(Map.of(Hosts.MACHINES_BY_INFRASTRUCTURE, Hosts::infrastructureKey));
    // The Metal3Machine is made after the Machine; the live ISO is set on it once it exists.
    metal3Machines =
        new InformerEventSource<>(
            InformerEventSourceConfiguration.from(
                    Metal3Machine.class, OpenshiftAssistedConfig.class)
                .withName("metal3machines")
                .withSecondaryToPrimaryMapper(
                    m3m ->
                        machines.byIndex(Hosts.MACHINES_BY_INFRASTRUCTURE, Hosts.key(m3m)).stream()
                            .flatMap(machine -> configOf(machine).stream())
                            .collect(Collectors.toSet()))
                .withOnUpdateFilter(RelevantChange::ofMetadata)
                .build(),
            context);
    clusters =
        new InformerEventSource<>(
            InformerEventSourceConfiguration.from(Cluster.class, OpenshiftAssistedConfig.class)
                .withName("clusters")
                .withSecondaryToPrimaryMapper(
                    cluster ->
                        configsOf(
                            configs, cluster.getMetadata().getNamespace(), Metadata.name(cluster)))
                .withOnUpdateFilter(
                    (updated, old) ->
                        RelevantChange.ofMetadataOr(
                            updated, old, ClusterRefs::infrastructureProvisioned))
                .build(),
            context);
    clusters.addIndexers(
        Map.of(
            CLUSTERS_BY_CONTROL_PLANE,
            cluster ->
                ClusterRefs.controlPlaneName(cluster)
                    .map(cp -> List.of(Metadata.key(cluster.getMetadata().getNamespace(), cp)))
                    .orElse(List.of())));
    // Both are named after the control plane (SharedNames): its Clusters lead to the configs.
    clusterDeployments =
        new InformerEventSource<>(
            InformerEventSourceConfiguration.from(
                    ClusterDeployment.class, OpenshiftAssistedConfig.class)
                .withName("clusterdeployments")
                .withSecondaryToPrimaryMapper(cd -> configsOfControlPlane(configs, cd))
                .withOnUpdateFilter(RelevantChange::ofMetadata)
                .build(),
            context);
    installs =
        new InformerEventSource<>(
            InformerEventSourceConfiguration.from(
                    AgentClusterInstall.class, OpenshiftAssistedConfig.class)
                .withName("agentclusterinstalls")
                .withSecondaryToPrimaryMapper(aci -> configsOfControlPlane(configs, aci))
                .withOnUpdateFilter(
                    (updated, old) ->
                        RelevantChange.ofMetadataOr(updated, old, InstallerStates::of))
                .build(),
            context);
    infraEnvs =
        new InformerEventSource<>(
            InformerEventSourceConfiguration.from(InfraEnv.class, OpenshiftAssistedConfig.class)
                .withName("infraenvs")
                .withLabelSelector(Names.CONFIG_LABEL)
                .withSecondaryToPrimaryMapper(
                    Mappers.fromOwnerReferences(OpenshiftAssistedConfig.class))
                .withOnUpdateFilter(
                    (updated, old) ->
                        RelevantChange.ofMetadataOr(updated, old, ConfigSteps::imageUrls))
                .build(),
            context);
    secrets =
        new InformerEventSource<>(
            InformerEventSourceConfiguration.from(Secret.class, OpenshiftAssistedConfig.class)
                .withName("secrets")
                .withLabelSelector(Names.CONFIG_LABEL)
                .withSecondaryToPrimaryMapper(
                    Mappers.fromOwnerReferences(OpenshiftAssistedConfig.class))
                .withOnUpdateFilter(RelevantChange::ofMetadata)
                .build(),
            context);
    return List.of(
        machines, metal3Machines, clusters, clusterDeployments, installs, infraEnvs, secrets);
  }

  Optional<Machine> machine(String namespace, String name) {
    return machines.get(new ResourceID(name, namespace));
  }

  Optional<Metal3Machine> metal3Machine(String namespace, String name) {
    return metal3Machines.get(new ResourceID(name, namespace));
  }

  Optional<Cluster> cluster(String namespace, String name) {
    return clusters.get(new ResourceID(name, namespace));
  }

  Optional<ClusterDeployment> clusterDeployment(String namespace, String name) {
    return clusterDeployments.get(new ResourceID(name, namespace));
  }

  Optional<AgentClusterInstall> install(String namespace, String name) {
    return installs.get(new ResourceID(name, namespace));
  }

  Optional<InfraEnv> infraEnv(String namespace, String name) {
    return infraEnvs.get(new ResourceID(name, namespace));
  }

  Optional<Secret> secret(String namespace, String name) {
    return secrets.get(new ResourceID(name, namespace));
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
    return configs.byIndex(CONFIGS_BY_CLUSTER, Metadata.key(namespace, cluster)).stream()
        .map(ResourceID::fromResource)
        .collect(Collectors.toSet());
  }

  /** The configs of the clusters whose control plane is named like {@code object}. */
  private Set<ResourceID> configsOfControlPlane(
      IndexerResourceCache<OpenshiftAssistedConfig> configs, HasMetadata object) {
    String namespace = object.getMetadata().getNamespace();
    return clusters.byIndex(CLUSTERS_BY_CONTROL_PLANE, Metadata.key(object)).stream()
        .flatMap(cluster -> configsOf(configs, namespace, Metadata.name(cluster)).stream())
        .collect(Collectors.toSet());
  }
}
