package io.openshiftagent.bootstrap.agent;

import static io.openshiftagent.provider.reconcile.Informers.cached;
import static io.openshiftagent.provider.reconcile.Informers.indexed;
import static io.openshiftagent.provider.reconcile.Informers.informer;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.informers.cache.ItemStore;
import io.javaoperatorsdk.operator.api.config.informer.InformerEventSourceConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.EventSourceContext;
import io.javaoperatorsdk.operator.processing.event.ResourceID;
import io.javaoperatorsdk.operator.processing.event.source.EventSource;
import io.javaoperatorsdk.operator.processing.event.source.IndexerResourceCache;
import io.javaoperatorsdk.operator.processing.event.source.informer.InformerEventSource;
import io.javaoperatorsdk.operator.processing.event.source.informer.TransformingItemStore;
import io.openshiftagent.api.bootstrap.v1alpha2.OpenshiftAssistedConfig;
import io.openshiftagent.api.external.ExternalKinds;
import io.openshiftagent.api.external.assisted.Agent;
import io.openshiftagent.api.external.assisted.AgentStatus;
import io.openshiftagent.api.external.assisted.InfraEnv;
import io.openshiftagent.api.external.capi.Cluster;
import io.openshiftagent.api.external.capi.Machine;
import io.openshiftagent.api.external.metal3.BareMetalHost;
import io.openshiftagent.api.external.metal3.Metal3Machine;
import io.openshiftagent.api.external.metal3.Metal3MachineStatus;
import io.openshiftagent.bootstrap.hosts.Hosts;
import io.openshiftagent.bootstrap.names.Names;
import io.openshiftagent.provider.reconcile.CachedObjects;
import io.openshiftagent.provider.reconcile.Informers;
import io.openshiftagent.provider.reconcile.Metadata;
import io.openshiftagent.provider.reconcile.RelevantChange;
import io.openshiftagent.provider.runtime.ControllerScope;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.UnaryOperator;
import java.util.stream.Collectors;

/**
 * What the Agent controller watches besides Agents. Machines are cached to map their Metal3Machines
 * back to Agents: the Metal3Machine names the BareMetalHost whose UID the Node is labelled with,
 * and Metal3 may record it only after the host registered. The hosts themselves are cached as far
 * as a cluster uses them: CAPM3 labels the host it claims with the cluster's name (a hub may hold
 * many hosts no cluster uses). InfraEnvs are cached only to be read without a request; Clusters and
 * configs also bring back their Agents when a pause ends.
 */
final class AgentCaches {
  static final String AGENTS_BY_CONFIG = "agents-by-config";
  static final String AGENTS_BY_CLUSTER = "agents-by-cluster";
  static final String METAL3_MACHINES_BY_HOST = "metal3machines-by-host";

  private InformerEventSource<Machine, Agent> machines;
  private InformerEventSource<Metal3Machine, Agent> metal3Machines;
  private InformerEventSource<BareMetalHost, Agent> hosts;
  private InformerEventSource<InfraEnv, Agent> infraEnvs;
  private InformerEventSource<OpenshiftAssistedConfig, Agent> configs;
  private InformerEventSource<Cluster, Agent> clusters;
  private IndexerResourceCache<Agent> agents;
  private final ControllerScope scope;

  /**
   * @param scope what this process manages: with a watch filter, every watch here but the hosts'
   *     selects its label
   */
  AgentCaches(ControllerScope scope) {
    this.scope = scope;
  }

  List<EventSource<?, Agent>> eventSources(EventSourceContext<Agent> context) {
    agents = context.getPrimaryCache();
    Informers.indexByLabel(agents, AGENTS_BY_CONFIG, Names.CONFIG_LABEL);
    // Neither the Machines', the hosts', the InfraEnvs', the Clusters' nor the configs' status is
    // read here: their caches keep none.
    machines =
        informer(
            context,
            Machine.class,
            "machines",
            machine -> Set.of(),
            scoped(o -> o.withItemStore(CachedObjects.storeWithoutStatus())));
    machines.addIndexers(Map.of(Hosts.MACHINES_BY_INFRASTRUCTURE, Hosts::infrastructureKey));
    metal3Machines =
        informer(
            context,
            Metal3Machine.class,
            "metal3machines",
            m3m -> agentsOf(agents, m3m),
            scoped(
                options ->
                    options
                        .withOnUpdateFilter(AgentCaches::hostOrMetaDataChanged)
                        .withItemStore(CachedObjects.store(AgentCaches::metaDataOnly))));
    metal3Machines.addIndexers(
        Map.of(
            METAL3_MACHINES_BY_HOST,
            m3m -> Hosts.hostReference(m3m).map(List::of).orElse(List.of())));
    // The UID (for the Node's label) and whether the host is detached, its metadata; its
    // rootDeviceHints, its spec (a change of which is one of the generation).
    hosts =
        informer(
            context,
            BareMetalHost.class,
            "baremetalhosts",
            host ->
                metal3Machines.byIndex(METAL3_MACHINES_BY_HOST, Metadata.key(host)).stream()
                    .flatMap(m3m -> agentsOf(agents, m3m).stream())
                    .collect(Collectors.toSet()),
            options ->
                options
                    .withLabelSelector(ExternalKinds.CLUSTER_NAME_LABEL)
                    .withOnUpdateFilter(RelevantChange::ofMetadata)
                    .withItemStore(CachedObjects.storeWithoutStatus()));
    infraEnvs =
        informer(
            context,
            InfraEnv.class,
            "infraenvs",
            infraEnv -> Set.of(),
            options ->
                options
                    .withLabelSelector(scope.selector(Names.CONFIG_LABEL))
                    .withItemStore(CachedObjects.storeWithoutStatus()));
    Informers.indexByLabel(agents, AGENTS_BY_CLUSTER, ExternalKinds.CLUSTER_NAME_LABEL);
    // Pause ends with an event of the Cluster (spec.paused) or of the config (annotation): the
    // Agents then get what they missed while paused. A config's spec and annotations are what its
    // Agents are made of. Neither one's status is read here: Cluster API's and our own status
    // writes wake no Agent (each would read its host again once installed).
    clusters =
        informer(
            context,
            Cluster.class,
            "clusters",
            cluster -> indexed(agents, AGENTS_BY_CLUSTER, Metadata.key(cluster)),
            scoped(metadataOnly()));
    configs =
        informer(
            context,
            OpenshiftAssistedConfig.class,
            "configs",
            config -> indexed(agents, AGENTS_BY_CONFIG, Metadata.key(config)),
            scoped(metadataOnly()));
    return List.of(machines, metal3Machines, hosts, infraEnvs, clusters, configs);
  }

  Optional<Machine> machine(String namespace, String name) {
    return cached(machines, namespace, name);
  }

  Optional<Metal3Machine> metal3Machine(String namespace, String name) {
    return cached(metal3Machines, namespace, name);
  }

  /** The host named {@code namespace/name}, if a cluster uses it. */
  Optional<BareMetalHost> host(String namespacedName) {
    return Hosts.hostId(namespacedName).flatMap(id -> hosts.get(id));
  }

  Optional<InfraEnv> infraEnv(String namespace, String name) {
    return cached(infraEnvs, namespace, name);
  }

  Optional<OpenshiftAssistedConfig> config(String namespace, String name) {
    return cached(configs, namespace, name);
  }

  /** Our Agents of the config {@code namespace/name} (its label), from the cache. */
  List<Agent> agentsOfConfig(String namespace, String name) {
    return agents.byIndex(AGENTS_BY_CONFIG, Metadata.key(namespace, name));
  }

  Optional<Cluster> cluster(String namespace, String name) {
    return cached(clusters, namespace, name);
  }

  /**
   * Records the approval claim we just wrote on a config, so that a reconcile before its event sees
   * the claim instead of trying it again against the config of before (a conflict, then a live
   * read).
   */
  void written(OpenshiftAssistedConfig before, OpenshiftAssistedConfig patched) {
    configs.handleRecentResourceUpdate(ResourceID.fromResource(patched), patched, before);
  }

  /** Woken by changes of the metadata and spec, and keeping no status. */
  private static <R extends HasMetadata>
      UnaryOperator<InformerEventSourceConfiguration.Builder<R>> metadataOnly() {
    return options ->
        options
            .withOnUpdateFilter(RelevantChange::ofMetadata)
            .withItemStore(CachedObjects.storeWithoutStatus());
  }

  /** {@code options} with this process's watch filter, if it has one. */
  private <R extends HasMetadata> UnaryOperator<InformerEventSourceConfiguration.Builder<R>> scoped(
      UnaryOperator<InformerEventSourceConfiguration.Builder<R>> options) {
    String selector = scope.selector(null);
    return selector == null ? options : o -> options.apply(o).withLabelSelector(selector);
  }

  /**
   * The Agents' cache: of an Agent's status, only its install stage is read (whether the host boots
   * from its disk), and, while it is not approved, what its disks' inventory says that hints can
   * match (its disks are chosen once, when it is approved).
   */
  static ItemStore<Agent> agentStore() {
    return new TransformingItemStore<>(
        agent -> {
          List<AgentStatus.Disk> disks =
              agent.getSpec() != null && Boolean.TRUE.equals(agent.getSpec().approved)
                  ? null
                  : InstallationDisks.disks(agent);
          AgentStatus read = CachedObjects.trim(agent).getStatus();
          if (read != null) {
            AgentStatus kept = new AgentStatus();
            if (read.progress != null) {
              kept.progress = new AgentStatus.Progress();
              kept.progress.currentStage = read.progress.currentStage;
            }
            if (disks != null) {
              kept.inventory = new AgentStatus.Inventory();
              kept.inventory.disks = disks.stream().map(AgentCaches::matchable).toList();
            }
            if (kept.progress == null || kept.progress.currentStage == null) {
              // Until the installation starts: whether the host fails its validations.
              kept.conditions = HostValidations.validatedOnly(agent);
            }
            agent.setStatus(kept);
          }
          return agent;
        });
  }

  /** What a disk's rootDeviceHints can match, and whether it is eligible (and why not). */
  private static AgentStatus.Disk matchable(AgentStatus.Disk disk) {
    AgentStatus.Disk kept = new AgentStatus.Disk();
    kept.id = disk.id;
    kept.name = disk.name;
    kept.path = disk.path;
    kept.byPath = disk.byPath;
    kept.hctl = disk.hctl;
    kept.model = disk.model;
    kept.vendor = disk.vendor;
    kept.serial = disk.serial;
    kept.wwn = disk.wwn;
    kept.sizeBytes = disk.sizeBytes;
    kept.driveType = disk.driveType;
    if (disk.installationEligibility != null) {
      kept.installationEligibility = new AgentStatus.InstallationEligibility();
      kept.installationEligibility.eligible = disk.installationEligibility.eligible;
      Object reasons = disk.installationEligibility.unknownFields().get("notEligibleReasons");
      if (reasons != null) {
        kept.installationEligibility.setUnknownField("notEligibleReasons", reasons);
      }
    }
    return kept;
  }

  /** Of a Metal3Machine's status, only its metaData Secret is read here. */
  private static Metal3Machine metaDataOnly(Metal3Machine m3m) {
    if (m3m.getStatus() != null) {
      Metal3MachineStatus kept = new Metal3MachineStatus();
      kept.metaData = m3m.getStatus().metaData;
      m3m.setStatus(kept);
    }
    return m3m;
  }

  /** Only the host a Metal3Machine names, and its metaData Secret, matter here. */
  private static boolean hostOrMetaDataChanged(Metal3Machine updated, Metal3Machine old) {
    return !Objects.equals(
            Metadata.annotation(updated, ExternalKinds.BAREMETALHOST_ANNOTATION),
            Metadata.annotation(old, ExternalKinds.BAREMETALHOST_ANNOTATION))
        || !Objects.equals(metaDataSecret(updated), metaDataSecret(old));
  }

  private static Object metaDataSecret(Metal3Machine m3m) {
    return m3m.getStatus() == null ? null : m3m.getStatus().metaData;
  }

  private Set<ResourceID> agentsOf(IndexerResourceCache<Agent> agents, Metal3Machine m3m) {
    return machines.byIndex(Hosts.MACHINES_BY_INFRASTRUCTURE, Hosts.key(m3m)).stream()
        .map(
            machine ->
                machine.getSpec().bootstrap == null ? null : machine.getSpec().bootstrap.configRef)
        .filter(ref -> ref != null)
        .flatMap(
            ref ->
                indexed(
                    agents,
                    AGENTS_BY_CONFIG,
                    Metadata.key(m3m.getMetadata().getNamespace(), ref.name))
                    .stream())
        .collect(Collectors.toSet());
  }
}
