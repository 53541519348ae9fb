package io.openshiftagent.provider.reconcile;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.openshiftagent.api.common.ContractVersionedObjectReference;
import io.openshiftagent.api.external.ExternalKinds;
import io.openshiftagent.api.external.capi.Cluster;
import io.openshiftagent.api.external.capi.Machine;
import io.openshiftagent.provider.contract.Kinds;
import java.util.Optional;

/** How a Cluster API object leads to the objects of its cluster. */
public final class ClusterRefs {
  private ClusterRefs() {}

  /** The Cluster's OpenshiftAssistedControlPlane (spec.controlPlaneRef), if it names one. */
  public static Optional<String> controlPlaneName(Cluster cluster) {
    ContractVersionedObjectReference ref =
        cluster.getSpec() == null ? null : cluster.getSpec().controlPlaneRef;
    return Kinds.isOpenshiftAssistedControlPlane(ref) ? Optional.of(ref.name) : Optional.empty();
  }

  /** The Machine's cluster: spec.clusterName, else its cluster-name label. */
  public static String clusterName(Machine machine) {
    return machine.getSpec() != null && machine.getSpec().clusterName != null
        ? machine.getSpec().clusterName
        : Metadata.label(machine, ExternalKinds.CLUSTER_NAME_LABEL);
  }

  /** Whether the object (a Machine, a config) is of a control plane: Cluster API's label. */
  public static boolean isControlPlane(HasMetadata object) {
    return Metadata.hasLabel(object, ExternalKinds.CONTROL_PLANE_LABEL);
  }

  /** Whether Cluster API reports the Cluster's infrastructure provisioned. */
  public static boolean infrastructureProvisioned(Cluster cluster) {
    return cluster.getStatus() != null
        && cluster.getStatus().initialization != null
        && Boolean.TRUE.equals(cluster.getStatus().initialization.infrastructureProvisioned);
  }
}
