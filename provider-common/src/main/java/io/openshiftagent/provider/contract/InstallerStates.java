package io.openshiftagent.provider.contract;

import io.openshiftagent.api.external.assisted.AgentClusterInstall;
import java.util.Set;

/**
 * assisted-service's installation states (AgentClusterInstall {@code status.debugInfo.state}) as
 * both providers read them.
 */
public final class InstallerStates {
  /** The installation has not begun: hosts may still join day 1 and the spec may change. */
  public static final Set<String> NOT_STARTED =
      Set.of("", "insufficient", "pending-for-input", "ready");

  /** The cluster is installed and takes day-2 hosts. */
  public static final Set<String> INSTALLED = Set.of("adding-hosts", "installed");

  /** The cluster's API serves requests. */
  public static final Set<String> API_AVAILABLE = Set.of("finalizing", "installed", "adding-hosts");

  /** The installation failed. */
  public static final String ERROR = "error";

  private InstallerStates() {}

  /** The state, or "" while assisted-service has reported none. */
  public static String of(AgentClusterInstall install) {
    return install.getStatus() == null
            || install.getStatus().debugInfo == null
            || install.getStatus().debugInfo.state == null
        ? ""
        : install.getStatus().debugInfo.state;
  }

  /** The state's description, or null. */
  public static String infoOf(AgentClusterInstall install) {
    return install.getStatus() == null || install.getStatus().debugInfo == null
        ? null
        : install.getStatus().debugInfo.stateInfo;
  }
}
