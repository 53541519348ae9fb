package io.openshiftagent.bootstrap.config;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.openshiftagent.api.bootstrap.v1alpha2.OpenshiftAssistedConfig;
import io.openshiftagent.api.external.assisted.AgentClusterInstall;
import io.openshiftagent.api.external.assisted.InfraEnv;
import io.openshiftagent.api.external.capi.Cluster;
import io.openshiftagent.api.external.capi.Machine;
import io.openshiftagent.api.external.hive.ClusterDeployment;
import io.openshiftagent.api.external.metal3.BareMetalHost;
import io.openshiftagent.api.external.metal3.Metal3Machine;
import io.openshiftagent.bootstrap.Names;
import io.openshiftagent.bootstrap.hosts.Hosts;
import io.openshiftagent.provider.contract.Kinds;
import io.openshiftagent.provider.contract.SharedNames;
import io.openshiftagent.provider.reconcile.ClusterRefs;
import java.time.Instant;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * What one reconcile of a config knows: everything read from the caches at its start, the last
 * failed download of its discovery ignition, and what its own writes have changed since (the {@code
 * with...} copies). The BareMetalHost, which no cache holds, is read only when asked for.
 *
 * @param hostReattached whether this reconcile has given the host back already
 */
record ConfigScope(
    OpenshiftAssistedConfig config,
    Optional<Machine> machine,
    Optional<Cluster> cluster,
    Optional<ClusterDeployment> clusterDeployment,
    Optional<AgentClusterInstall> install,
    Optional<InfraEnv> infraEnv,
    Optional<Metal3Machine> metal3Machine,
    boolean dataSecretExists,
    Optional<FailedDownload> lastFailedDownload,
    Instant now,
    boolean hostReattached,
    Supplier<Optional<BareMetalHost>> host) {

  /** Reads the config's world from the caches. */
  static ConfigScope observe(
      OpenshiftAssistedConfig config,
      ConfigCaches caches,
      KubernetesClient client,
      Optional<FailedDownload> lastFailedDownload,
      Instant now) {
    String namespace = config.getMetadata().getNamespace();
    Optional<Machine> machine =
        Kinds.owningMachine(config).flatMap(name -> caches.machine(namespace, name));
    Optional<Cluster> cluster =
        machine.flatMap(m -> caches.cluster(namespace, ClusterRefs.clusterName(m)));
    Optional<String> controlPlane = cluster.flatMap(ClusterRefs::controlPlaneName);
    Optional<Metal3Machine> metal3Machine =
        machine
            .flatMap(Hosts::metal3MachineName)
            .flatMap(name -> caches.metal3Machine(namespace, name));
    return new ConfigScope(
        config,
        machine,
        cluster,
        controlPlane.flatMap(
            cp -> caches.clusterDeployment(namespace, SharedNames.clusterDeployment(cp))),
        controlPlane.flatMap(cp -> caches.install(namespace, SharedNames.agentClusterInstall(cp))),
        caches.infraEnv(namespace, Names.infraEnv(config)),
        metal3Machine,
        caches.secret(namespace, Names.dataSecret(config)).isPresent(),
        lastFailedDownload,
        now,
        false,
        () -> metal3Machine.flatMap(Hosts::hostReference).flatMap(ref -> Hosts.read(client, ref)));
  }

  /** The Machine's cluster name (only asked for once a Machine was found). */
  String clusterName() {
    return ClusterRefs.clusterName(machine.orElseThrow());
  }

  /** The Cluster's OpenshiftAssistedControlPlane. */
  Optional<String> controlPlane() {
    return cluster.flatMap(ClusterRefs::controlPlaneName);
  }

  ConfigScope withInfraEnv(InfraEnv created) {
    return new ConfigScope(
        config,
        machine,
        cluster,
        clusterDeployment,
        install,
        Optional.of(created),
        metal3Machine,
        dataSecretExists,
        lastFailedDownload,
        now,
        hostReattached,
        host);
  }

  ConfigScope withMetal3Machine(Metal3Machine patched) {
    return new ConfigScope(
        config,
        machine,
        cluster,
        clusterDeployment,
        install,
        infraEnv,
        Optional.of(patched),
        dataSecretExists,
        lastFailedDownload,
        now,
        hostReattached,
        host);
  }

  ConfigScope withDataSecret() {
    return new ConfigScope(
        config,
        machine,
        cluster,
        clusterDeployment,
        install,
        infraEnv,
        metal3Machine,
        true,
        lastFailedDownload,
        now,
        hostReattached,
        host);
  }

  ConfigScope withHostReattached() {
    return new ConfigScope(
        config,
        machine,
        cluster,
        clusterDeployment,
        install,
        infraEnv,
        metal3Machine,
        dataSecretExists,
        lastFailedDownload,
        now,
        true,
        host);
  }
}
