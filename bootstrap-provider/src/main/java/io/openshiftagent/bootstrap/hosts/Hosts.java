package io.openshiftagent.bootstrap.hosts;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.javaoperatorsdk.operator.processing.event.ResourceID;
import io.openshiftagent.api.external.ExternalKinds;
import io.openshiftagent.api.external.capi.Machine;
import io.openshiftagent.api.external.metal3.BareMetalHost;
import io.openshiftagent.api.external.metal3.Metal3Machine;
import io.openshiftagent.bootstrap.names.Names;
import io.openshiftagent.provider.contract.Kinds;
import io.openshiftagent.provider.reconcile.Metadata;
import java.util.List;
import java.util.Optional;

/** The Metal3 side of a Machine: its Metal3Machine and the BareMetalHost that one consumed. */
public final class Hosts {
  /** The index of cached Machines by their Metal3Machine's {@code namespace/name}. */
  public static final String MACHINES_BY_INFRASTRUCTURE = "machines-by-infrastructure";

  private Hosts() {}

  public static boolean isMetal3(Machine machine) {
    return Kinds.isMetal3Machine(
        machine.getSpec() == null ? null : machine.getSpec().infrastructureRef);
  }

  /** The name of the Machine's Metal3Machine, if it has one. */
  public static Optional<String> metal3MachineName(Machine machine) {
    return isMetal3(machine)
        ? Optional.of(machine.getSpec().infrastructureRef.name)
        : Optional.empty();
  }

  /** The index key of a Machine's infrastructure object: {@code namespace/name}, or none. */
  public static List<String> infrastructureKey(Machine machine) {
    return metal3MachineName(machine)
        .map(name -> List.of(Metadata.key(machine.getMetadata().getNamespace(), name)))
        .orElse(List.of());
  }

  /** The same key for a Metal3Machine. */
  public static String key(Metal3Machine metal3Machine) {
    return Metadata.key(metal3Machine);
  }

  /** {@code namespace/name} of the host a Metal3Machine consumed, once Metal3 has recorded it. */
  public static Optional<String> hostReference(Metal3Machine metal3Machine) {
    return Optional.ofNullable(
        Metadata.annotation(metal3Machine, ExternalKinds.BAREMETALHOST_ANNOTATION));
  }

  /**
   * The host named {@code namespace/name}, read now: when its Machine goes, it must be given back
   * as it is (the Agent controller reads the hosts clusters use from its cache).
   */
  public static Optional<BareMetalHost> read(KubernetesClient client, String namespacedName) {
    return hostId(namespacedName)
        .map(
            id ->
                client
                    .resources(BareMetalHost.class)
                    .inNamespace(id.getNamespace().orElseThrow())
                    .withName(id.getName())
                    .get());
  }

  /** The namespace and name a host reference ({@code namespace/name}) names, if well formed. */
  public static Optional<ResourceID> hostId(String namespacedName) {
    int slash = namespacedName.indexOf('/');
    return slash <= 0
        ? Optional.empty()
        : Optional.of(
            new ResourceID(
                namespacedName.substring(slash + 1), namespacedName.substring(0, slash)));
  }

  public static boolean isDetachedByUs(BareMetalHost host) {
    return Names.DETACHED_BY.equals(Metadata.annotation(host, Names.BMH_DETACHED_ANNOTATION));
  }

  public static boolean isDetached(BareMetalHost host) {
    return Metadata.hasAnnotation(host, Names.BMH_DETACHED_ANNOTATION);
  }
}
