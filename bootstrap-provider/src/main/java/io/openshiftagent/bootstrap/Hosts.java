package io.openshiftagent.bootstrap;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.openshiftagent.api.external.ExternalKinds;
import io.openshiftagent.api.external.capi.Machine;
import io.openshiftagent.api.external.metal3.BareMetalHost;
import io.openshiftagent.api.external.metal3.Metal3Machine;
import java.util.Map;
import java.util.Optional;

/** The Metal3 side of a Machine: its Metal3Machine and the BareMetalHost that one consumed. */
final class Hosts {
  static final String METAL3_MACHINE = "Metal3Machine";

  private Hosts() {}

  static boolean isMetal3(Machine machine) {
    var ref = machine.getSpec() == null ? null : machine.getSpec().infrastructureRef;
    return ref != null
        && ExternalKinds.INFRASTRUCTURE_GROUP.equals(ref.apiGroup)
        && METAL3_MACHINE.equals(ref.kind);
  }

  /** The index key of a Machine's infrastructure object: {@code namespace/name}, or none. */
  static java.util.List<String> infrastructureKey(Machine machine) {
    return isMetal3(machine)
        ? java.util.List.of(
            machine.getMetadata().getNamespace() + "/" + machine.getSpec().infrastructureRef.name)
        : java.util.List.of();
  }

  /** The same key for a Metal3Machine. */
  static String key(Metal3Machine metal3Machine) {
    return metal3Machine.getMetadata().getNamespace() + "/" + metal3Machine.getMetadata().getName();
  }

  static Optional<Metal3Machine> metal3Machine(KubernetesClient client, Machine machine) {
    if (!isMetal3(machine)) {
      return Optional.empty();
    }
    return Optional.ofNullable(
        client
            .resources(Metal3Machine.class)
            .inNamespace(machine.getMetadata().getNamespace())
            .withName(machine.getSpec().infrastructureRef.name)
            .get());
  }

  /** The host named by the Metal3Machine's {@code metal3.io/BareMetalHost: namespace/name}. */
  static Optional<BareMetalHost> bareMetalHost(KubernetesClient client, Machine machine) {
    return metal3Machine(client, machine).flatMap(m3m -> bareMetalHost(client, m3m));
  }

  /** The host a Metal3Machine consumed, once Metal3 has recorded it. */
  static Optional<BareMetalHost> bareMetalHost(
      KubernetesClient client, Metal3Machine metal3Machine) {
    return hostReference(metal3Machine).flatMap(ref -> get(client, ref));
  }

  /** {@code namespace/name} of the host a Metal3Machine consumed, once Metal3 has recorded it. */
  static Optional<String> hostReference(Metal3Machine metal3Machine) {
    return Optional.ofNullable(metal3Machine.getMetadata().getAnnotations())
        .map(annotations -> annotations.get(ExternalKinds.BAREMETALHOST_ANNOTATION));
  }

  /** The host named {@code namespace/name}, read now. */
  static Optional<BareMetalHost> get(KubernetesClient client, String namespacedName) {
    int slash = namespacedName.indexOf('/');
    if (slash <= 0) {
      return Optional.empty();
    }
    return Optional.ofNullable(
        client
            .resources(BareMetalHost.class)
            .inNamespace(namespacedName.substring(0, slash))
            .withName(namespacedName.substring(slash + 1))
            .get());
  }

  static boolean isDetachedByUs(BareMetalHost host) {
    Map<String, String> annotations = host.getMetadata().getAnnotations();
    return annotations != null
        && Names.DETACHED_BY.equals(annotations.get(Names.BMH_DETACHED_ANNOTATION));
  }

  static boolean isDetached(BareMetalHost host) {
    Map<String, String> annotations = host.getMetadata().getAnnotations();
    return annotations != null && annotations.containsKey(Names.BMH_DETACHED_ANNOTATION);
  }
}
