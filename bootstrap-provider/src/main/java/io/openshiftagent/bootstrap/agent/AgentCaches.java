package io.openshiftagent.bootstrap.agent;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.javaoperatorsdk.operator.api.config.informer.InformerEventSourceConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.EventSourceContext;
import io.javaoperatorsdk.operator.processing.event.ResourceID;
import io.javaoperatorsdk.operator.processing.event.source.EventSource;
import io.javaoperatorsdk.operator.processing.event.source.informer.InformerEventSource;
import io.openshiftagent.api.bootstrap.v1alpha2.OpenshiftAssistedConfig;
import io.openshiftagent.api.external.ExternalKinds;
import io.openshiftagent.api.external.assisted.Agent;
import io.openshiftagent.api.external.assisted.InfraEnv;
import io.openshiftagent.api.external.capi.Cluster;
import io.openshiftagent.api.external.capi.Machine;
import io.openshiftagent.api.external.metal3.BareMetalHost;
import io.openshiftagent.api.external.metal3.Metal3Machine;
import io.openshiftagent.bootstrap.Names;
import io.openshiftagent.bootstrap.hosts.Hosts;
import io.openshiftagent.provider.reconcile.Metadata;
import io.openshiftagent.provider.reconcile.RelevantChange;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
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

  List<EventSource<?, Agent>> eventSources(EventSourceContext<Agent> context) {
    context
        .getPrimaryCache()
        .addIndexer(AGENTS_BY_CONFIG, agent -> byLabel(agent, Names.CONFIG_LABEL));
    machines =
        new InformerEventSource<>(
            InformerEventSourceConfiguration.from(Machine.class, Agent.class)
                .withName("machines")
                .withSecondaryToPrimaryMapper(machine -> Set.of())
                .build(),
            context);
    machines.addIndexers(Map.of(Hosts.MACHINES_BY_INFRASTRUCTURE, Hosts::infrastructureKey));
    metal3Machines =
        new InformerEventSource<>(
            InformerEventSourceConfiguration.from(Metal3Machine.class, Agent.class)
                .withName("metal3machines")
                .withSecondaryToPrimaryMapper(m3m -> agentsOf(context, m3m))
                // Only the host it names matters here.
                .withOnUpdateFilter(
                    (updated, old) ->
                        !Objects.equals(
                            Metadata.annotation(updated, ExternalKinds.BAREMETALHOST_ANNOTATION),
                            Metadata.annotation(old, ExternalKinds.BAREMETALHOST_ANNOTATION)))
                .build(),
            context);
    metal3Machines.addIndexers(
        Map.of(
            METAL3_MACHINES_BY_HOST,
            m3m -> Hosts.hostReference(m3m).map(List::of).orElse(List.of())));
    // The UID (for the Node's label) and whether the host is detached: its metadata.
    hosts =
        new InformerEventSource<>(
            InformerEventSourceConfiguration.from(BareMetalHost.class, Agent.class)
                .withName("baremetalhosts")
                .withLabelSelector(ExternalKinds.CLUSTER_NAME_LABEL)
                .withSecondaryToPrimaryMapper(
                    host ->
                        metal3Machines.byIndex(METAL3_MACHINES_BY_HOST, Metadata.key(host)).stream()
                            .flatMap(m3m -> agentsOf(context, m3m).stream())
                            .collect(Collectors.toSet()))
                .withOnUpdateFilter(RelevantChange::ofMetadata)
                .build(),
            context);
    infraEnvs =
        new InformerEventSource<>(
            InformerEventSourceConfiguration.from(InfraEnv.class, Agent.class)
                .withName("infraenvs")
                .withLabelSelector(Names.CONFIG_LABEL)
                .withSecondaryToPrimaryMapper(infraEnv -> Set.of())
                .build(),
            context);
    context
        .getPrimaryCache()
        .addIndexer(AGENTS_BY_CLUSTER, agent -> byLabel(agent, ExternalKinds.CLUSTER_NAME_LABEL));
    // Pause ends with an event of the Cluster (spec.paused) or of the config (annotation): the
    // Agents then get what they missed while paused. A config's spec and annotations are what its
    // Agents are made of. Neither one's status is read here: Cluster API's and our own status
    // writes wake no Agent (each would read its host again once installed).
    clusters =
        new InformerEventSource<>(
            InformerEventSourceConfiguration.from(Cluster.class, Agent.class)
                .withName("clusters")
                .withSecondaryToPrimaryMapper(
                    cluster -> agentsByIndex(context, AGENTS_BY_CLUSTER, Metadata.key(cluster)))
                .withOnUpdateFilter(RelevantChange::ofMetadata)
                .build(),
            context);
    configs =
        new InformerEventSource<>(
            InformerEventSourceConfiguration.from(OpenshiftAssistedConfig.class, Agent.class)
                .withName("configs")
                .withSecondaryToPrimaryMapper(
                    config -> agentsByIndex(context, AGENTS_BY_CONFIG, Metadata.key(config)))
                .withOnUpdateFilter(RelevantChange::ofMetadata)
                .build(),
            context);
    return List.of(machines, metal3Machines, hosts, infraEnvs, clusters, configs);
  }

  Optional<Machine> machine(String namespace, String name) {
    return machines.get(new ResourceID(name, namespace));
  }

  Optional<Metal3Machine> metal3Machine(String namespace, String name) {
    return metal3Machines.get(new ResourceID(name, namespace));
  }

  /** The host named {@code namespace/name}, if a cluster uses it. */
  Optional<BareMetalHost> host(String namespacedName) {
    int slash = namespacedName.indexOf('/');
    return slash <= 0
        ? Optional.empty()
        : hosts.get(
            new ResourceID(
                namespacedName.substring(slash + 1), namespacedName.substring(0, slash)));
  }

  Optional<InfraEnv> infraEnv(String namespace, String name) {
    return infraEnvs.get(new ResourceID(name, namespace));
  }

  Optional<OpenshiftAssistedConfig> config(String namespace, String name) {
    return configs.get(new ResourceID(name, namespace));
  }

  Optional<Cluster> cluster(String namespace, String name) {
    return clusters.get(new ResourceID(name, namespace));
  }

  /**
   * Records the approval claim we just wrote on an InfraEnv, so that a reconcile before its event
   * sees the claim instead of trying it again against the InfraEnv of before (a conflict, then a
   * live read).
   */
  void written(InfraEnv before, InfraEnv patched) {
    infraEnvs.handleRecentResourceUpdate(ResourceID.fromResource(patched), patched, before);
  }

  /** The index entry of an object by one of its labels: {@code namespace/value}. */
  private static List<String> byLabel(HasMetadata object, String label) {
    return Optional.ofNullable(Metadata.label(object, label))
        .map(value -> List.of(Metadata.key(object.getMetadata().getNamespace(), value)))
        .orElse(List.of());
  }

  private static Set<ResourceID> agentsByIndex(
      EventSourceContext<Agent> context, String index, String key) {
    return context.getPrimaryCache().byIndex(index, key).stream()
        .map(ResourceID::fromResource)
        .collect(Collectors.toSet());
  }

  private Set<ResourceID> agentsOf(EventSourceContext<Agent> context, Metal3Machine m3m) {
    return machines.byIndex(Hosts.MACHINES_BY_INFRASTRUCTURE, Hosts.key(m3m)).stream()
        .map(
            machine ->
                machine.getSpec().bootstrap == null ? null : machine.getSpec().bootstrap.configRef)
        .filter(ref -> ref != null)
        .flatMap(
            ref ->
                agentsByIndex(
                    context,
                    AGENTS_BY_CONFIG,
                    Metadata.key(m3m.getMetadata().getNamespace(), ref.name))
                    .stream())
        .collect(Collectors.toSet());
  }
}
