package io.openshiftagent.controlplane;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.openshiftagent.api.bootstrap.v1alpha2.OpenshiftAssistedConfig;
import io.openshiftagent.api.controlplane.v1alpha3.OpenshiftAssistedControlPlane;
import io.openshiftagent.api.external.assisted.AgentClusterInstall;
import io.openshiftagent.api.external.capi.Machine;
import io.openshiftagent.api.external.hive.ClusterDeployment;
import io.openshiftagent.controlplane.names.Names;
import io.openshiftagent.provider.reconcile.OwnerReferences;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The control plane's own objects among the secondary resources its reconcile's context holds (what
 * {@link ControlPlaneCaches} mapped to it): for its scope, and for its deletion.
 */
final class Secondaries {
  private Secondaries() {}

  /** The control plane's Machines (controlled by it), by name. */
  static List<Machine> machines(
      OpenshiftAssistedControlPlane cp, Context<OpenshiftAssistedControlPlane> context) {
    return context.getSecondaryResources(Machine.class).stream()
        .filter(m -> isControlledBy(m, cp))
        .sorted(Comparator.comparing(m -> m.getMetadata().getName()))
        .toList();
  }

  /** Our configs of the control plane, by name. */
  static Map<String, OpenshiftAssistedConfig> configs(
      Context<OpenshiftAssistedControlPlane> context) {
    return context.getSecondaryResources(OpenshiftAssistedConfig.class).stream()
        .collect(Collectors.toMap(c -> c.getMetadata().getName(), c -> c));
  }

  /**
   * The control plane's ClusterDeployment: of its name and owned by it (one left by an earlier
   * control plane of that name is someone else's).
   */
  static Optional<ClusterDeployment> clusterDeployment(
      OpenshiftAssistedControlPlane cp, Context<OpenshiftAssistedControlPlane> context) {
    return ownedByName(cp, context.getSecondaryResources(ClusterDeployment.class));
  }

  /** The control plane's AgentClusterInstall: of its name and owned by it. */
  static Optional<AgentClusterInstall> clusterInstall(
      OpenshiftAssistedControlPlane cp, Context<OpenshiftAssistedControlPlane> context) {
    return ownedByName(cp, context.getSecondaryResources(AgentClusterInstall.class));
  }

  private static <T extends HasMetadata> Optional<T> ownedByName(
      OpenshiftAssistedControlPlane cp, Set<T> cached) {
    return cached.stream()
        .filter(o -> o.getMetadata().getName().equals(Names.clusterDeployment(cp)))
        .filter(o -> OwnerReferences.isOwnedBy(o, cp))
        .findFirst();
  }

  private static boolean isControlledBy(HasMetadata object, OpenshiftAssistedControlPlane cp) {
    return object.getMetadata().getOwnerReferences().stream()
        .anyMatch(
            r ->
                Boolean.TRUE.equals(r.getController())
                    && cp.getMetadata().getUid().equals(r.getUid()));
  }
}
