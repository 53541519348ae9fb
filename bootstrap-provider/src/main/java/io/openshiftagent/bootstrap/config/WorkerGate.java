package io.openshiftagent.bootstrap.config;

import io.openshiftagent.provider.contract.InstallerStates;

/**
 * Whether a Machine may get its InfraEnv now, from the installation state of its cluster
 * (AgentClusterInstall status.debugInfo.state). Control-plane Machines always may. A worker joins
 * day 1 while the installation has not started, or day 2 once the cluster is installed, never while
 * the installation runs: assisted-service would neither include it nor add it then.
 */
public final class WorkerGate {
  /** What the gate decided. */
  public enum Decision {
    CONTROL_PLANE,
    DAY1,
    DAY2,
    WAIT
  }

  private WorkerGate() {}

  public static Decision decide(boolean controlPlane, String installationState) {
    if (controlPlane) {
      return Decision.CONTROL_PLANE;
    }
    String state = installationState == null ? "" : installationState;
    if (InstallerStates.NOT_STARTED.contains(state)) {
      return Decision.DAY1;
    }
    if (InstallerStates.INSTALLED.contains(state)) {
      return Decision.DAY2;
    }
    return Decision.WAIT;
  }
}
