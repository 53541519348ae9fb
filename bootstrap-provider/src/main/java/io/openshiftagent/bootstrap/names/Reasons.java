package io.openshiftagent.bootstrap.names;

import io.openshiftagent.provider.contract.SharedNames;

/**
 * Condition types and reasons of OpenshiftAssistedConfig status; docs/bootstrap.md explains each.
 */
public final class Reasons {
  public static final String READY = "Ready";
  public static final String DATA_SECRET_AVAILABLE = "DataSecretAvailable";
  public static final String PAUSED = "Paused";

  /**
   * Whether a disk of the host matches its BareMetalHost's rootDeviceHints; only on a config whose
   * host had none matching at some time.
   */
  public static final String INSTALLATION_DISK_FOUND = "InstallationDiskFound";

  public static final String NO_DISK_MATCHES_ROOT_DEVICE_HINTS =
      SharedNames.NO_DISK_MATCHES_ROOT_DEVICE_HINTS;

  /** Ready: the host fails assisted-service's validations, and its installation waits. */
  public static final String HOST_VALIDATIONS_FAILING = SharedNames.HOST_VALIDATIONS_FAILING;

  public static final String ROOT_DEVICE_HINTS_MATCHED = "RootDeviceHintsMatched";

  public static final String NOT_PAUSED = "NotPaused";
  public static final String SECRET_AVAILABLE = "SecretAvailable";
  public static final String WAITING_FOR_MACHINE = "WaitingForMachine";
  public static final String MACHINE_POOL_NOT_SUPPORTED = "MachinePoolNotSupported";
  public static final String INVALID_NODE_REGISTRATION = "InvalidNodeRegistration";
  public static final String WAITING_FOR_CLUSTER = "WaitingForCluster";
  public static final String DELETING = "Deleting";
  // The waits of a config's deletion, the reasons of its Deleting condition.
  public static final String WAITING_FOR_MACHINE_DELETION = "WaitingForMachineDeletion";
  public static final String WAITING_FOR_ASSISTED_SERVICE = "WaitingForAssistedService";
  public static final String WAITING_FOR_INFRA_ENV_DELETION = "WaitingForInfraEnvDeletion";
  public static final String WAITING_FOR_AGENT_DELETION = "WaitingForAgentDeletion";
  public static final String WAITING_FOR_CLUSTER_INFRASTRUCTURE = "WaitingForClusterInfrastructure";
  public static final String WAITING_FOR_CONTROL_PLANE = "WaitingForControlPlane";
  public static final String WAITING_FOR_CLUSTER_DEPLOYMENT = "WaitingForClusterDeployment";
  public static final String WAITING_FOR_AGENT_CLUSTER_INSTALL = "WaitingForAgentClusterInstall";
  public static final String WAITING_FOR_INSTALLATION_TO_COMPLETE =
      "WaitingForInstallationToComplete";
  public static final String INVALID_DISCOVERY_IGNITION_OVERRIDE =
      "InvalidDiscoveryIgnitionOverride";
  public static final String INVALID_IGNITION_OVERRIDE = "InvalidIgnitionOverride";
  public static final String INSTALL_IGNITION_TOO_LARGE = "InstallIgnitionTooLarge";
  public static final String INFRA_ENV_REFUSED = "InfraEnvRefused";
  public static final String INFRA_ENV_NOT_OURS = "InfraEnvNotOurs";
  public static final String WAITING_FOR_DISCOVERY_IMAGE = "WaitingForDiscoveryImage";
  public static final String DISCOVERY_IMAGE_REFUSED = "DiscoveryImageRefused";
  public static final String UNSUPPORTED_INFRASTRUCTURE = "UnsupportedInfrastructure";
  public static final String WAITING_FOR_INFRASTRUCTURE_MACHINE = "WaitingForInfrastructureMachine";
  public static final String WAITING_FOR_DISCOVERY_IGNITION = "WaitingForDiscoveryIgnition";
  public static final String DISCOVERY_IGNITION_DOWNLOAD_FAILED = "DiscoveryIgnitionDownloadFailed";
  public static final String INVALID_DISCOVERY_IGNITION = "InvalidDiscoveryIgnition";

  private Reasons() {}
}
