package io.openshiftagent.api.external;

/** API groups, versions and the label and annotation keys of the external kinds we use. */
public final class ExternalKinds {
  /** Cluster API core (Cluster, Machine, MachineSet, MachineDeployment). */
  public static final String CAPI_GROUP = "cluster.x-k8s.io";

  /** The Cluster API core storage version (CAPI v1.11+). */
  public static final String CAPI_VERSION = "v1beta2";

  /** Cluster API infrastructure providers (Metal3Machine, Metal3MachineTemplate). */
  public static final String INFRASTRUCTURE_GROUP = "infrastructure.cluster.x-k8s.io";

  /** The CAPM3 storage version (CAPM3 v1.13+; v1beta1 is still served but deprecated). */
  public static final String METAL3_INFRASTRUCTURE_VERSION = "v1beta2";

  /** Baremetal-operator (BareMetalHost). */
  public static final String METAL3_GROUP = "metal3.io";

  public static final String METAL3_VERSION = "v1alpha1";

  /** assisted-service (InfraEnv, Agent, NMStateConfig). */
  public static final String AGENT_INSTALL_GROUP = "agent-install.openshift.io";

  public static final String AGENT_INSTALL_VERSION = "v1beta1";

  /** assisted-service's Hive extension (AgentClusterInstall). */
  public static final String HIVE_EXTENSION_GROUP = "extensions.hive.openshift.io";

  public static final String HIVE_EXTENSION_VERSION = "v1beta1";

  /** Hive (ClusterDeployment, ClusterImageSet). */
  public static final String HIVE_GROUP = "hive.openshift.io";

  public static final String HIVE_VERSION = "v1";

  /** Label on every Cluster API object of a cluster: the Cluster's name. */
  /** The type of the Secrets Cluster API exchanges (bootstrap data, kubeconfig). */
  public static final String CLUSTER_SECRET_TYPE = "cluster.x-k8s.io/secret";

  public static final String CLUSTER_NAME_LABEL = "cluster.x-k8s.io/cluster-name";

  /** Label (empty value) on control plane Machines. */
  public static final String CONTROL_PLANE_LABEL = "cluster.x-k8s.io/control-plane";

  /** Label on control plane Machines: the name of the control plane object that owns them. */
  public static final String CONTROL_PLANE_NAME_LABEL = "cluster.x-k8s.io/control-plane-name";

  /** Annotation that pauses reconciliation of the annotated Cluster API object. */
  public static final String PAUSED_ANNOTATION = "cluster.x-k8s.io/paused";

  /** Annotation that marks a Machine to be deleted first when its owner scales down. */
  public static final String DELETE_MACHINE_ANNOTATION = "cluster.x-k8s.io/delete-machine";

  /** Label that selects the objects one controller instance watches (the --watch-filter value). */
  public static final String WATCH_FILTER_LABEL = "cluster.x-k8s.io/watch-filter";

  /** Label on an Agent: the name of the InfraEnv it registered through. */
  public static final String INFRAENV_LABEL = "infraenvs.agent-install.openshift.io";

  /** Annotation on a Metal3Machine: the BareMetalHost it claimed, as {@code namespace/name}. */
  public static final String BAREMETALHOST_ANNOTATION = "metal3.io/BareMetalHost";

  /**
   * Node label CAPM3 matches against the BareMetalHost UID (legacy provider ID {@code
   * metal3://<uid>}).
   */
  public static final String METAL3_UUID_LABEL = "metal3.io/uuid";

  private ExternalKinds() {}
}
