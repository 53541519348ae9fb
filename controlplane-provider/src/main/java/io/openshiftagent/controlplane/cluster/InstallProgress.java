package io.openshiftagent.controlplane.cluster;

import io.openshiftagent.api.external.assisted.AgentClusterInstall;
import io.openshiftagent.provider.contract.InstallerStates;
import java.util.Optional;
import java.util.Set;

/** Where assisted-service's installation stands, as the control plane's messages say it. */
public final class InstallProgress {
  private InstallProgress() {}

  /**
   * The installer's states in which it may wait for a user (a host that fails its validations, a
   * host to fix during the installation): the messages name them, without their description (which
   * changes with each host's validations). Otherwise they say only that the installation is under
   * way: each state it passes through would be a status write of every control plane (on a busy hub
   * each comes more than a coalescing window after the last), and the AgentClusterInstall has the
   * state and its description.
   */
  static final Set<String> WAITING_STATES =
      Set.of("insufficient", "installing-pending-user-action");

  /** Where the installation stands, as the messages of a control plane being installed say it. */
  public static String progress(Optional<AgentClusterInstall> install, String installName) {
    String state = install.map(InstallerStates::of).orElse("");
    if (state.isEmpty()) {
      return "installer state: not reported yet";
    }
    if (WAITING_STATES.contains(state)) {
      return "installer state: "
          + state
          + " (AgentClusterInstall "
          + installName
          + " status.debugInfo.stateInfo says why)";
    }
    return "the installation is under way: AgentClusterInstall "
        + installName
        + " has the installer's state and progress";
  }

  /** The installer's state as messages name it: {@code state (description)}. */
  public static String describe(Optional<AgentClusterInstall> install) {
    String state = install.map(InstallerStates::of).orElse("");
    String info = install.map(InstallerStates::infoOf).orElse(null);
    if (state.isEmpty()) {
      return "not reported yet";
    }
    return info == null || info.isEmpty() ? state : state + " (" + info + ")";
  }
}
