package io.openshiftagent.controlplane.names;

/** The condition types and reasons the control plane reports (see docs/controlplane.md). */
public final class ControlPlaneConditions {
  public static final String AVAILABLE = "Available";
  public static final String INITIALIZED = "Initialized";
  public static final String KUBECONFIG_AVAILABLE = "KubeconfigAvailable";
  public static final String CLUSTER_INSTALL_CONFIGURED = "ClusterInstallConfigured";
  public static final String MACHINES_READY = "MachinesReady";
  public static final String MACHINES_UP_TO_DATE = "MachinesUpToDate";
  public static final String SCALING_UP = "ScalingUp";
  public static final String SCALING_DOWN = "ScalingDown";
  public static final String ROLLING_OUT = "RollingOut";
  public static final String PAUSED = "Paused";
  public static final String DELETING = "Deleting";
  public static final String UPGRADE_COMPLETED = "UpgradeCompleted";
  public static final String RELEASE_IMAGE_RESOLVED = "ReleaseImageResolved";

  /** The condition the control plane sets on each of its Machines. */
  public static final String MACHINE_UP_TO_DATE = "UpToDate";

  // Reasons.
  public static final String WAITING_FOR_CLUSTER = "WaitingForCluster";
  public static final String CLUSTER_DELETING = "ClusterDeleting";
  public static final String WAITING_FOR_CONTROL_PLANE_ENDPOINT = "WaitingForControlPlaneEndpoint";
  public static final String WAITING_FOR_INFRASTRUCTURE = "WaitingForInfrastructure";
  public static final String WAITING_FOR_CLUSTER_INSTALL = "WaitingForClusterInstall";
  public static final String WAITING_FOR_RELEASE_IMAGE = "WaitingForReleaseImage";
  public static final String INSTALLING = "Installing";
  public static final String INSTALLATION_FAILED = "InstallationFailed";

  /**
   * Available: assisted-service waits for the user (a failing cluster validation, a host pending
   * user action); the message has the service's words.
   */
  public static final String INSTALLATION_NEEDS_USER_ACTION = "InstallationNeedsUserAction";

  public static final String INVALID_CONFIGURATION = "InvalidConfiguration";
  public static final String INSTALL_CONFIG_OVERRIDE_INVALID = "InstallConfigOverrideInvalid";
  public static final String IMAGE_REGISTRY_CONFIG_INVALID = "ImageRegistryConfigInvalid";
  public static final String CLUSTER_INSTALL_REFUSED = "ClusterInstallRefused";
  public static final String CLUSTER_DEPLOYMENT_NOT_OURS = "ClusterDeploymentNotOurs";
  public static final String CLUSTER_INSTALL_NOT_OURS = "ClusterInstallNotOurs";
  public static final String WAITING_FOR_HOST_INVENTORY = "WaitingForHostInventory";
  public static final String INFRASTRUCTURE_TEMPLATE_UNAVAILABLE =
      "InfrastructureTemplateUnavailable";
  public static final String CONFIGURED = "Configured";
  public static final String INSTALLATION_STARTED = "InstallationStarted";
  public static final String CLUSTER_DEPLOYMENT_FROZEN = "ClusterDeploymentFrozen";
  public static final String WAITING_FOR_KUBECONFIG = "WaitingForKubeconfig";
  public static final String NO_MACHINES = "NoMachines";
  public static final String NOT_READY = "NotReady";
  public static final String READY = "Ready";
  public static final String UP_TO_DATE = "UpToDate";
  public static final String NOT_UP_TO_DATE = "NotUpToDate";
  public static final String NOT_SCALING_UP = "NotScalingUp";
  public static final String NOT_SCALING_DOWN = "NotScalingDown";
  public static final String WAITING_FOR_MACHINES_READY = "WaitingForMachinesReady";
  public static final String WAITING_FOR_MACHINE_DELETION = "WaitingForMachineDeletion";
  public static final String TOPOLOGY_CHANGE_NOT_SUPPORTED = "TopologyChangeNotSupported";
  public static final String MACHINE_CREATION_FAILED = "MachineCreationFailed";
  public static final String NOT_ROLLING_OUT = "NotRollingOut";

  /**
   * RollingOut: before the installation, out-of-date Machines whose hosts never booted are
   * replaced, one at a time, whatever the rollout strategy.
   */
  public static final String REPLACING_NEVER_BOOTED_MACHINES = "ReplacingNeverBootedMachines";

  public static final String NOT_PAUSED = "NotPaused";
  public static final String NOT_DELETING = "NotDeleting";
  public static final String WAITING_FOR_MACHINES_DELETED = "WaitingForMachinesDeleted";
  public static final String WAITING_FOR_CLUSTER_DEPLOYMENT_DELETED =
      "WaitingForClusterDeploymentDeleted";
  public static final String UPGRADE_REQUESTED = "UpgradeRequested";
  public static final String UPGRADE_IN_PROGRESS = "UpgradeInProgress";
  public static final String UPGRADE_FAILED = "UpgradeFailed";
  public static final String DOWNGRADE_NOT_SUPPORTED = "DowngradeNotSupported";
  public static final String WORKLOAD_CLUSTER_UNREACHABLE = "WorkloadClusterUnreachable";
  public static final String WAITING_FOR_WORKLOAD_CLUSTER = "WaitingForWorkloadCluster";

  // Remediation, rollouts and etcd.
  public static final String REMEDIATING = "Remediating";
  public static final String ETCD_CLUSTER_HEALTHY = "EtcdClusterHealthy";

  /** Conditions of a Machine that MachineHealthCheck sets and the owner answers. */
  public static final String HEALTH_CHECK_SUCCEEDED = "HealthCheckSucceeded";

  public static final String OWNER_REMEDIATED = "OwnerRemediated";

  /** The Machine controller's deletion progress on a Machine (Cluster API v1beta2). */
  public static final String MACHINE_DELETING = "Deleting";

  public static final String WAITING_FOR_PRE_TERMINATE_HOOK = "WaitingForPreTerminateHook";

  // OwnerRemediated reasons, as KubeadmControlPlane sets them.
  public static final String REMEDIATION_DEFERRED = "RemediationDeferred";
  public static final String CANNOT_BE_REMEDIATED = "CannotBeRemediated";
  public static final String MACHINE_BEING_DELETED = "MachineDeleting";

  // Remediating reasons.
  public static final String NOT_REMEDIATING = "NotRemediating";
  public static final String WAITING_FOR_INSTALLATION = "WaitingForInstallation";
  public static final String WAITING_FOR_UPGRADE = "WaitingForUpgrade";
  public static final String WAITING_FOR_PREVIOUS_REMEDIATION = "WaitingForPreviousRemediation";
  public static final String WAITING_FOR_MACHINE_PROVISIONING = "WaitingForMachineProvisioning";
  public static final String OTHER_MACHINES_UNHEALTHY = "OtherMachinesUnhealthy";
  public static final String WAITING_FOR_RETRY_PERIOD = "WaitingForRetryPeriod";
  public static final String MAX_RETRIES_REACHED = "MaxRetriesReached";
  public static final String SINGLE_NODE = "SingleNode";

  /** Reason of ScalingDown, RollingOut or Remediating: removing a host now could lose quorum. */
  public static final String WAITING_FOR_ETCD = "WaitingForEtcd";

  /** ScalingUp (and RollingOut): a departed host's etcd member must go first. */
  public static final String WAITING_FOR_ETCD_MEMBER_REMOVAL = "WaitingForEtcdMemberRemoval";

  // EtcdClusterHealthy reasons.
  public static final String HEALTHY = "Healthy";
  public static final String NOT_HEALTHY = "NotHealthy";
  public static final String HEALTH_UNKNOWN = "HealthUnknown";

  /** The control plane's summary of its Machines' component conditions, as KCP's. */
  public static final String CONTROL_PLANE_COMPONENTS_HEALTHY = "ControlPlaneComponentsHealthy";

  // A control-plane Machine's health, as KubeadmControlPlane sets it (v1beta2 names).
  public static final String ETCD_MEMBER_HEALTHY = "EtcdMemberHealthy";
  public static final String API_SERVER_POD_HEALTHY = "APIServerPodHealthy";
  public static final String CONTROLLER_MANAGER_POD_HEALTHY = "ControllerManagerPodHealthy";
  public static final String SCHEDULER_POD_HEALTHY = "SchedulerPodHealthy";

  // Their reasons (EtcdMemberHealthy: Healthy, NotHealthy, InspectionFailed, Deleting).
  public static final String POD_RUNNING = "Running";
  public static final String POD_PROVISIONING = "Provisioning";
  public static final String POD_FAILED = "Failed";
  public static final String POD_DOES_NOT_EXIST = "DoesNotExist";
  public static final String INSPECTION_FAILED = "InspectionFailed";
  public static final String MACHINE_HEALTH_DELETING = "Deleting";

  private ControlPlaneConditions() {}
}
