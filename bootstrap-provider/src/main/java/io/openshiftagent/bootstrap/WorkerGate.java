package io.openshiftagent.bootstrap;

import java.util.Set;

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

  private static final Set<String> BEFORE_INSTALLATION =
      Set.of("", "insufficient", "pending-for-input", "ready");
  private static final Set<String> INSTALLED = Set.of("adding-hosts", "installed");

  private WorkerGate() {}

  public static Decision decide(boolean controlPlane, String installationState) {
    if (controlPlane) {
      return Decision.CONTROL_PLANE;
    }
    String state = installationState == null ? "" : installationState;
    if (BEFORE_INSTALLATION.contains(state)) {
      return Decision.DAY1;
    }
    if (INSTALLED.contains(state)) {
      return Decision.DAY2;
    }
    return Decision.WAIT;
  }
}
