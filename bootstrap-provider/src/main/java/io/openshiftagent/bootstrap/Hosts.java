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
    return metal3Machine(client, machine)
        .map(m3m -> m3m.getMetadata().getAnnotations())
        .map(annotations -> annotations.get(ExternalKinds.BAREMETALHOST_ANNOTATION))
        .flatMap(ref -> get(client, ref));
  }

  private static Optional<BareMetalHost> get(KubernetesClient client, String namespacedName) {
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
