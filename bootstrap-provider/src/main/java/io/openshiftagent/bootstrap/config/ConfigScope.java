package io.openshiftagent.bootstrap.config;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.openshiftagent.api.bootstrap.v1alpha2.BootMode;
import io.openshiftagent.api.bootstrap.v1alpha2.OpenshiftAssistedConfig;
import io.openshiftagent.api.external.ExternalKinds;
import io.openshiftagent.api.external.assisted.Agent;
import io.openshiftagent.api.external.assisted.AgentClusterInstall;
import io.openshiftagent.api.external.assisted.InfraEnv;
import io.openshiftagent.api.external.capi.Cluster;
import io.openshiftagent.api.external.capi.Machine;
import io.openshiftagent.api.external.hive.ClusterDeployment;
import io.openshiftagent.api.external.metal3.BareMetalHost;
import io.openshiftagent.api.external.metal3.Metal3Machine;
import io.openshiftagent.bootstrap.hosts.Hosts;
import io.openshiftagent.bootstrap.names.Names;
import io.openshiftagent.provider.contract.GoProvider;
import io.openshiftagent.provider.contract.Kinds;
import io.openshiftagent.provider.contract.SharedNames;
import io.openshiftagent.provider.reconcile.ClusterRefs;
import io.openshiftagent.provider.reconcile.Metadata;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;

/**
 * What one reconcile of a config knows, and the only place it reads: everything read from the
 * caches at its start, the last failed download of its discovery ignition, and what its own writes
 * have changed since (the {@code with...} copies). The BareMetalHost and the Agents of the config's
 * InfraEnv, which no cache of this controller holds, are read only when asked for, the Agents at
 * most once.
 *
 * @param machinePool the MachinePool owning the config, if one does (not supported)
 * @param defaultBootMode the provider's boot mode for configs and InfraEnvs that name none
 * @param hostReattached whether this reconcile has given the host back already
 */
record ConfigScope(
    OpenshiftAssistedConfig config,
    Optional<String> machinePool,
    BootMode defaultBootMode,
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
    Supplier<Optional<BareMetalHost>> host,
    Supplier<List<Agent>> agents) {

  /** Reads the config's world from the caches. */
  static ConfigScope observe(
      OpenshiftAssistedConfig config,
      ConfigCaches caches,
      KubernetesClient client,
      Optional<FailedDownload> lastFailedDownload,
      BootMode defaultBootMode,
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
        Kinds.owningMachinePool(config),
        defaultBootMode,
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
        () -> metal3Machine.flatMap(Hosts::hostReference).flatMap(ref -> Hosts.read(client, ref)),
        once(
            () ->
                client
                    .resources(Agent.class)
                    .inNamespace(namespace)
                    .withLabel(ExternalKinds.INFRAENV_LABEL, Names.infraEnv(config))
                    .list()
                    .getItems()));
  }

  /** {@code read}, made when first asked and then remembered. */
  private static <T> Supplier<T> once(Supplier<T> read) {
    AtomicReference<T> known = new AtomicReference<>();
    return () -> known.updateAndGet(value -> value != null ? value : read.get());
  }

  /** The Machine's cluster name (only asked for once a Machine was found). */
  String clusterName() {
    return ClusterRefs.clusterName(machine.orElseThrow());
  }

  /** The Cluster's OpenshiftAssistedControlPlane. */
  Optional<String> controlPlane() {
    return cluster.flatMap(ClusterRefs::controlPlaneName);
  }

  /**
   * How the host boots: the config's mode; else the one its InfraEnv was made for; else the
   * provider's default.
   */
  BootMode bootMode() {
    if (config.getSpec().bootMode != null) {
      return config.getSpec().bootMode;
    }
    return infraEnv
        .map(i -> Metadata.annotation(i, Names.BOOT_MODE_ANNOTATION))
        .flatMap(BootMode::named)
        .orElse(defaultBootMode);
  }

  ConfigScope withInfraEnv(InfraEnv created) {
    return with(config, Optional.of(created), metal3Machine, dataSecretExists, hostReattached);
  }

  ConfigScope withMetal3Machine(Metal3Machine patched) {
    return with(config, infraEnv, Optional.of(patched), dataSecretExists, hostReattached);
  }

  /** After the take-over from the Go provider: the config as it is without its finalizer. */
  ConfigScope withoutGoFinalizer() {
    OpenshiftAssistedConfig taken = Serialization.clone(config);
    taken.getMetadata().getFinalizers().remove(GoProvider.CONFIG_FINALIZER);
    return with(taken, infraEnv, metal3Machine, dataSecretExists, hostReattached);
  }

  ConfigScope withDataSecret() {
    return with(config, infraEnv, metal3Machine, true, hostReattached);
  }

  ConfigScope withHostReattached() {
    return with(config, infraEnv, metal3Machine, dataSecretExists, true);
  }

  /** A copy with the fields this reconcile's own writes change; the rest is as observed. */
  private ConfigScope with(
      OpenshiftAssistedConfig config,
      Optional<InfraEnv> infraEnv,
      Optional<Metal3Machine> metal3Machine,
      boolean dataSecretExists,
      boolean hostReattached) {
    return new ConfigScope(
        config,
        machinePool,
        defaultBootMode,
        machine,
        cluster,
        clusterDeployment,
        install,
        infraEnv,
        metal3Machine,
        dataSecretExists,
        lastFailedDownload,
        now,
        hostReattached,
        host,
        agents);
  }
}
