package io.openshiftagent.controlplane.scope;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.openshiftagent.api.common.ContractVersionedObjectReference;
import io.openshiftagent.api.external.capi.Machine;
import io.openshiftagent.api.external.hive.ClusterImageSet;
import io.openshiftagent.provider.contract.ObjectNames;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * The reads of one reconcile from the hub's API server, of the kinds no cache holds: each made when
 * a step first asks, and at most once (concurrent: the writes made in the background while the
 * infrastructure is awaited read too). Shared by the copies of one scope.
 */
final class HubReads {
  private final KubernetesClient client;
  private final InfrastructureTemplates infrastructure;
  private final String namespace;
  private final Map<String, Optional<?>> reads = new ConcurrentHashMap<>();

  HubReads(KubernetesClient client, InfrastructureTemplates infrastructure, String namespace) {
    this.client = client;
    this.infrastructure = infrastructure;
    this.namespace = namespace;
  }

  /** The infrastructure template, or null; throws when its kind cannot be read. */
  GenericKubernetesResource infrastructureTemplate(ContractVersionedObjectReference ref) {
    return infrastructure.get(ref, namespace);
  }

  Map<String, String> infrastructureMachineAnnotations(ContractVersionedObjectReference ref) {
    return infrastructure.annotationsOrNull(ref, namespace);
  }

  boolean machineExists(String name) {
    return read(
            "Machine/" + name,
            () -> client.resources(Machine.class).inNamespace(namespace).withName(name).get())
        .isPresent();
  }

  Optional<ClusterImageSet> clusterImageSet(String name) {
    return read(
        "ClusterImageSet/" + name,
        () -> client.resources(ClusterImageSet.class).withName(name).get());
  }

  Optional<ConfigMap> configMap(String name) {
    if (!ObjectNames.isObjectName(name)) {
      return Optional.empty();
    }
    return read(
        "ConfigMap/" + name, () -> client.configMaps().inNamespace(namespace).withName(name).get());
  }

  Optional<Secret> secret(String name) {
    if (!ObjectNames.isObjectName(name)) {
      return Optional.empty();
    }
    return read(
        "Secret/" + name, () -> client.secrets().inNamespace(namespace).withName(name).get());
  }

  @SuppressWarnings("unchecked")
  private <T> Optional<T> read(String key, Supplier<T> get) {
    return (Optional<T>) reads.computeIfAbsent(key, k -> Optional.ofNullable(get.get()));
  }
}
