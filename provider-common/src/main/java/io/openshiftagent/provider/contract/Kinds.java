package io.openshiftagent.provider.contract;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.openshiftagent.api.bootstrap.v1alpha2.BootstrapGroup;
import io.openshiftagent.api.common.ContractVersionedObjectReference;
import io.openshiftagent.api.controlplane.v1alpha3.ControlPlaneGroup;
import io.openshiftagent.api.external.ExternalKinds;
import io.openshiftagent.provider.reconcile.OwnerReferences;
import java.util.Optional;

/**
 * The kinds the providers name in references and owner references (their groups are in {@link
 * ExternalKinds} and the API's group classes).
 */
public final class Kinds {
  public static final String OPENSHIFT_ASSISTED_CONFIG = "OpenshiftAssistedConfig";
  public static final String OPENSHIFT_ASSISTED_CONFIG_TEMPLATE = "OpenshiftAssistedConfigTemplate";
  public static final String OPENSHIFT_ASSISTED_CONTROL_PLANE = "OpenshiftAssistedControlPlane";
  public static final String CLUSTER = "Cluster";
  public static final String MACHINE = "Machine";
  public static final String MACHINE_POOL = "MachinePool";
  public static final String METAL3_MACHINE = "Metal3Machine";
  public static final String AGENT_CLUSTER_INSTALL = "AgentClusterInstall";

  private Kinds() {}

  /** Whether {@code ref} names one of our OpenshiftAssistedConfigs. */
  public static boolean isOpenshiftAssistedConfig(ContractVersionedObjectReference ref) {
    return ref != null
        && BootstrapGroup.GROUP.equals(ref.apiGroup)
        && OPENSHIFT_ASSISTED_CONFIG.equals(ref.kind);
  }

  /** Whether {@code ref} names one of our OpenshiftAssistedConfigTemplates. */
  public static boolean isOpenshiftAssistedConfigTemplate(ContractVersionedObjectReference ref) {
    return ref != null
        && BootstrapGroup.GROUP.equals(ref.apiGroup)
        && OPENSHIFT_ASSISTED_CONFIG_TEMPLATE.equals(ref.kind);
  }

  /** Whether {@code ref} names one of our OpenshiftAssistedControlPlanes. */
  public static boolean isOpenshiftAssistedControlPlane(ContractVersionedObjectReference ref) {
    return ref != null
        && ControlPlaneGroup.GROUP.equals(ref.apiGroup)
        && OPENSHIFT_ASSISTED_CONTROL_PLANE.equals(ref.kind);
  }

  /** Whether {@code ref} names a Metal3Machine. */
  public static boolean isMetal3Machine(ContractVersionedObjectReference ref) {
    return ref != null
        && ExternalKinds.INFRASTRUCTURE_GROUP.equals(ref.apiGroup)
        && METAL3_MACHINE.equals(ref.kind);
  }

  /** The name of the object's owning Machine, if Cluster API made one its owner. */
  public static Optional<String> owningMachine(HasMetadata object) {
    return OwnerReferences.find(object, ExternalKinds.CAPI_GROUP, MACHINE).map(r -> r.getName());
  }

  /** The name of the object's owning MachinePool, if one is its owner. */
  public static Optional<String> owningMachinePool(HasMetadata object) {
    return OwnerReferences.find(object, ExternalKinds.CAPI_GROUP, MACHINE_POOL)
        .map(r -> r.getName());
  }

  /** The name of the object's owning Cluster (kept in the reference when the Cluster is gone). */
  public static Optional<String> owningCluster(HasMetadata object) {
    return OwnerReferences.find(object, ExternalKinds.CAPI_GROUP, CLUSTER).map(r -> r.getName());
  }
}
