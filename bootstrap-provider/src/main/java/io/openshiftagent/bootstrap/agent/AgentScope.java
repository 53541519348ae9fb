package io.openshiftagent.bootstrap.agent;

import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretReference;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.openshiftagent.api.bootstrap.v1alpha2.BootstrapGroup;
import io.openshiftagent.api.bootstrap.v1alpha2.OpenshiftAssistedConfig;
import io.openshiftagent.api.external.ExternalKinds;
import io.openshiftagent.api.external.assisted.Agent;
import io.openshiftagent.api.external.assisted.InfraEnv;
import io.openshiftagent.api.external.capi.Cluster;
import io.openshiftagent.api.external.capi.Machine;
import io.openshiftagent.api.external.metal3.BareMetalHost;
import io.openshiftagent.api.external.metal3.Metal3Machine;
import io.openshiftagent.bootstrap.hosts.Hosts;
import io.openshiftagent.bootstrap.identity.HostMetadata;
import io.openshiftagent.bootstrap.identity.NodeIdentity;
import io.openshiftagent.bootstrap.names.Names;
import io.openshiftagent.provider.contract.Kinds;
import io.openshiftagent.provider.reconcile.ClusterRefs;
import io.openshiftagent.provider.reconcile.Metadata;
import io.openshiftagent.provider.reconcile.OwnerReferences;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Map;
import java.util.Optional;

/**
 * What one reconcile of an Agent reads: Agent → InfraEnv (its label) → our config and the Machine
 * (the InfraEnv's owners) → Cluster and the Machine's BareMetalHost, and the other Agents of the
 * InfraEnv, from the caches. A few reads go to the API server, each only when the decision needs
 * it: the host's metaData Secret (once per Agent), whether the holder of a claim on the approval
 * still exists, and the config when our claim on it met a conflict or was made before (an approval
 * cannot be taken back: it is decided on the config as it is stored now).
 */
final class AgentScope {
  private final KubernetesClient client;
  private final Agent agent;
  private final InfraEnv infraEnv;
  private final AgentCaches caches;
  private final OpenshiftAssistedConfig config;
  private final Machine machine;
  private final Optional<Cluster> cluster;
  private final Optional<BareMetalHost> host;
  private final Optional<SecretReference> metaDataSecret;
  private final Map<String, HostMetadata> hostMetadata;

  private AgentScope(
      KubernetesClient client,
      AgentCaches caches,
      Agent agent,
      InfraEnv infraEnv,
      OpenshiftAssistedConfig config,
      Machine machine,
      Optional<Cluster> cluster,
      Optional<BareMetalHost> host,
      Optional<SecretReference> metaDataSecret,
      Map<String, HostMetadata> hostMetadata) {
    this.client = client;
    this.caches = caches;
    this.agent = agent;
    this.infraEnv = infraEnv;
    this.config = config;
    this.machine = machine;
    this.cluster = cluster;
    this.host = host;
    this.metaDataSecret = metaDataSecret;
    this.hostMetadata = hostMetadata;
  }

  /**
   * The Agent's owners, or empty when it belongs to no Machine of ours (yet).
   *
   * @param hostMetadata host metadata already read, by Agent UID and host (neither changes)
   */
  static Optional<AgentScope> observe(
      Agent agent,
      AgentCaches caches,
      KubernetesClient client,
      Map<String, HostMetadata> hostMetadata) {
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
    OpenshiftAssistedConfig config =
        caches.config(namespace, configRef.get().getName()).orElse(null);
    Machine machine = caches.machine(namespace, machineName.get()).orElse(null);
    if (config == null || machine == null) {
      return Optional.empty();
    }
    Optional<Metal3Machine> metal3Machine =
        Hosts.metal3MachineName(machine).flatMap(name -> caches.metal3Machine(namespace, name));
    return Optional.of(
        new AgentScope(
            client,
            caches,
            agent,
            infraEnv.get(),
            config,
            machine,
            caches.cluster(namespace, ClusterRefs.clusterName(machine)),
            metal3Machine.flatMap(Hosts::hostReference).flatMap(caches::host),
            metal3Machine.map(m -> m.getStatus() == null ? null : m.getStatus().metaData),
            hostMetadata));
  }

  Agent agent() {
    return agent;
  }

  InfraEnv infraEnv() {
    return infraEnv;
  }

  /** The config, from the cache. */
  OpenshiftAssistedConfig config() {
    return config;
  }

  /** The config as stored now (empty once deleted): what an approval is decided on. */
  Optional<OpenshiftAssistedConfig> currentConfig() {
    return Optional.ofNullable(client.resource(config).get());
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

  /**
   * What the host reads from its config drive, known here for a Metal3 host: the
   * baremetal-operator's defaults for {@code host}, and the metaData Secret the Metal3Machine
   * names, read only when the node registration references metadata. Empty while that Secret cannot
   * be read: the Agent waits (CAPM3 creates it before it names it, so this is a passing state).
   */
  Optional<HostMetadata> hostMetadata(BareMetalHost host) {
    String key = agent.getMetadata().getUid() + " " + Metadata.key(host);
    HostMetadata known = hostMetadata.get(key);
    if (known != null) {
      return Optional.of(known);
    }
    String hostNamespace = host.getMetadata().getNamespace();
    String hostName = host.getMetadata().getName();
    String rendered = null;
    if (NodeIdentity.referencesMetadata(config.getSpec().nodeRegistration)
        && metaDataSecret.isPresent()) {
      SecretReference ref = metaDataSecret.get();
      String namespace = ref.getNamespace() == null ? hostNamespace : ref.getNamespace();
      Secret secret = client.secrets().inNamespace(namespace).withName(ref.getName()).get();
      if (secret == null || secret.getData() == null || !secret.getData().containsKey("metaData")) {
        return Optional.empty();
      }
      rendered =
          new String(
              Base64.getDecoder().decode(secret.getData().get("metaData")), StandardCharsets.UTF_8);
    }
    HostMetadata metadata =
        HostMetadata.metal3(host.getMetadata().getUid(), hostNamespace, hostName, rendered);
    hostMetadata.put(key, metadata);
    return Optional.of(metadata);
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

  /**
   * Another Agent of the InfraEnv that is approved already (by a person), from the cache: each of
   * our approvals is fenced by the InfraEnv's claim instead, and an Agent the Go provider approved
   * holds the claim since the takeover (the config controller's GoProviderAdoption).
   */
  Optional<String> otherApprovedAgent() {
    return caches.agentsOfConfig(agent.getMetadata().getNamespace(), Metadata.name(config)).stream()
        .filter(
            other ->
                Metadata.name(infraEnv).equals(Metadata.label(other, ExternalKinds.INFRAENV_LABEL)))
        .filter(other -> !other.getMetadata().getName().equals(agent.getMetadata().getName()))
        .filter(other -> other.getSpec() != null && Boolean.TRUE.equals(other.getSpec().approved))
        .map(other -> other.getMetadata().getName())
        .findFirst();
  }

  /**
   * The Agent {@code config} names as the holder of the approval, or the InfraEnv (where the claim
   * was kept before, and where the takeover from the Go provider records its approved Agent).
   */
  String claim(OpenshiftAssistedConfig config) {
    String claimed = Metadata.annotation(config, Names.APPROVED_AGENT_ANNOTATION);
    return claimed != null
        ? claimed
        : Metadata.annotation(infraEnv, Names.APPROVED_AGENT_ANNOTATION);
  }
}
