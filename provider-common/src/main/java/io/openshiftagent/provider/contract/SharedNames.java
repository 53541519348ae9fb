package io.openshiftagent.provider.contract;

/**
 * Names one provider creates and the other finds without asking: the contract between the two
 * providers (and Cluster API's own naming).
 */
public final class SharedNames {
  /**
   * Annotation the bootstrap provider sets on a config: the one Agent it approved for the config's
   * InfraEnv. The control-plane provider reads it as proof that the Machine's host booted.
   */
  public static final String APPROVED_AGENT_ANNOTATION =
      "bootstrap.cluster.x-k8s.io/approved-agent";

  /**
   * Reasons of a config's Ready condition, which Cluster API mirrors into its Machine's
   * BootstrapConfigReady, that say the installation of the config's host is held back: its Agent
   * not approved for want of a disk matching the host's rootDeviceHints, or the host failing
   * assisted-service's validations. The control-plane provider names such hosts.
   */
  public static final String NO_DISK_MATCHES_ROOT_DEVICE_HINTS = "NoDiskMatchesRootDeviceHints";

  public static final String HOST_VALIDATIONS_FAILING = "HostValidationsFailing";

  private SharedNames() {}

  /**
   * The ClusterDeployment of a cluster, which the control-plane provider creates and the bootstrap
   * provider binds each InfraEnv to: named after the cluster's OpenshiftAssistedControlPlane.
   */
  public static String clusterDeployment(String controlPlaneName) {
    return controlPlaneName;
  }

  /**
   * The AgentClusterInstall of a cluster, whose installation state gates the bootstrap provider's
   * workers: named after the control plane too.
   */
  public static String agentClusterInstall(String controlPlaneName) {
    return controlPlaneName;
  }

  /** The placeholder pull secret an owner (a config, a control plane) creates for itself. */
  public static String placeholderPullSecret(String ownerName) {
    return ObjectNames.fit(ownerName + "-placeholder-pull-secret", ObjectNames.MAX_NAME);
  }

  /** Cluster API's kubeconfig Secret of a cluster. */
  public static String kubeconfigSecret(String clusterName) {
    return clusterName + "-kubeconfig";
  }
}
