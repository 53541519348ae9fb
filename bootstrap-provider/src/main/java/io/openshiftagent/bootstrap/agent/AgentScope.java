package io.openshiftagent.bootstrap.agent;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.openshiftagent.api.bootstrap.v1alpha2.BootstrapGroup;
import io.openshiftagent.api.bootstrap.v1alpha2.OpenshiftAssistedConfig;
import io.openshiftagent.api.external.ExternalKinds;
import io.openshiftagent.api.external.assisted.Agent;
import io.openshiftagent.api.external.assisted.InfraEnv;
import io.openshiftagent.api.external.capi.Cluster;
import io.openshiftagent.api.external.capi.Machine;
import io.openshiftagent.api.external.metal3.BareMetalHost;
import io.openshiftagent.bootstrap.Names;
import io.openshiftagent.bootstrap.hosts.Hosts;
import io.openshiftagent.provider.contract.Kinds;
import io.openshiftagent.provider.reconcile.ClusterRefs;
import io.openshiftagent.provider.reconcile.Metadata;
import io.openshiftagent.provider.reconcile.OwnerReferences;
import java.util.Optional;

/**
 * What one reconcile of an Agent reads: Agent → InfraEnv (its label) → our config and the Machine
 * (the InfraEnv's owners) → Cluster, from the caches. A few reads go to the API server, each only
 * when the decision needs it: for the approval, whether its holder exists and which Agents are
 * approved already (read live: two hosts booted from one image must never both be approved).
 */
final class AgentScope {
  private final KubernetesClient client;
  private final Agent agent;
  private final InfraEnv infraEnv;
  private final OpenshiftAssistedConfig config;
  private final Machine machine;
  private final Optional<Cluster> cluster;
  private final Optional<BareMetalHost> host;

  private AgentScope(
      KubernetesClient client,
      Agent agent,
      InfraEnv infraEnv,
      OpenshiftAssistedConfig config,
      Machine machine,
      Optional<Cluster> cluster,
      Optional<BareMetalHost> host) {
    this.client = client;
    this.agent = agent;
    this.infraEnv = infraEnv;
    this.config = config;
    this.machine = machine;
    this.cluster = cluster;
    this.host = host;
  }

  /** The Agent's owners, or empty when it belongs to no Machine of ours (yet). */
  static Optional<AgentScope> observe(Agent agent, AgentCaches caches, KubernetesClient client) {
    String namespace = agent.getMetadata().getNamespace();
    Optional<InfraEnv> infraEnv =
        Optional.ofNullable(Metadata.label(agent, ExternalKinds.INFRAENV_LABEL))
            .flatMap(name -> caches.infraEnv(namespace, name));
    if (infraEnv.isEmpty()) {
      return Optional.empty();
    }
    var configRef =
        OwnerReferences.find(infraEnv.get(), BootstrapGroup.GROUP, Kinds.OPENSHIFT_ASSISTED_CONFIG);
    var machineName = Kinds.owningMachine(infraEnv.get());
    if (configRef.isEmpty() || machineName.isEmpty()) {
      return Optional.empty();
    }
    // From the cache like the Cluster: a config changed after the approval brings its Agents back,
    // and their fields follow it while assisted-service still accepts changes.
    OpenshiftAssistedConfig config =
        caches.config(namespace, configRef.get().getName()).orElse(null);
    Machine machine = caches.machine(namespace, machineName.get()).orElse(null);
    if (config == null || machine == null) {
      return Optional.empty();
    }
    return Optional.of(
        new AgentScope(
            client,
            agent,
            infraEnv.get(),
            config,
            machine,
            caches.cluster(namespace, ClusterRefs.clusterName(machine)),
            Hosts.metal3MachineName(machine)
                .flatMap(name -> caches.metal3Machine(namespace, name))
                .flatMap(Hosts::hostReference)
                .flatMap(caches::host)));
  }

  Agent agent() {
    return agent;
  }

  InfraEnv infraEnv() {
    return infraEnv;
  }

  OpenshiftAssistedConfig config() {
    return config;
  }

  Machine machine() {
    return machine;
  }

  Cluster clusterOrNull() {
    return cluster.orElse(null);
  }

  /**
   * The host the Machine's Metal3Machine names, from the cache, or empty while CAPM3 has not
   * claimed one (its claim labels the host with the cluster's name, which is what the cache holds).
   */
  Optional<BareMetalHost> host() {
    return host;
  }

  /** Whether the Agent named {@code name} exists, read now. */
  boolean agentExists(String name) {
    return client
            .resources(Agent.class)
            .inNamespace(agent.getMetadata().getNamespace())
            .withName(name)
            .get()
        != null;
  }

  /** Another Agent of the InfraEnv that is approved already, read now. */
  Optional<String> otherApprovedAgent() {
    return client
        .resources(Agent.class)
        .inNamespace(agent.getMetadata().getNamespace())
        .withLabel(ExternalKinds.INFRAENV_LABEL, infraEnv.getMetadata().getName())
        .list()
        .getItems()
        .stream()
        .filter(other -> !other.getMetadata().getName().equals(agent.getMetadata().getName()))
        .filter(other -> other.getSpec() != null && Boolean.TRUE.equals(other.getSpec().approved))
        .map(other -> other.getMetadata().getName())
        .findFirst();
  }

  /** The InfraEnv's approval holder as stored now, after our claim lost a race. */
  String currentHolder() {
    InfraEnv latest = client.resource(infraEnv).get();
    return latest == null ? null : Metadata.annotation(latest, Names.APPROVED_AGENT_ANNOTATION);
  }
}
