package io.openshiftagent.controlplane.cluster;

import io.openshiftagent.api.external.assisted.AgentClusterInstall;
import io.openshiftagent.provider.contract.InstallerStates;
import java.util.List;
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
      Set.of("pending-for-input", "insufficient", "installing-pending-user-action");

  /** The state in which hosts wait for a user during the installation (a wrong boot order...). */
  static final String PENDING_USER_ACTION = "installing-pending-user-action";

  /** The states before the installation in which a failing cluster validation holds it back. */
  static final Set<String> VALIDATING_STATES = Set.of("pending-for-input", "insufficient");

  /** The failing validations named in a message, at most: the rest are counted. */
  static final int VALIDATIONS_NAMED = 4;

  /**
   * What the user must do for the installation to go on, in assisted-service's own words, when it
   * waits for them: the state and its description, and the cluster validations that fail (their ids
   * and first words, so that the message changes when the set of failing validations changes, not
   * with every description of the hosts' progress). Empty while it waits for nothing a user must
   * do: hosts still being discovered, validations still pending.
   */
  public static Optional<String> needsUser(
      Optional<AgentClusterInstall> install, String installName) {
    String state = install.map(InstallerStates::of).orElse("");
    String described = describe(install);
    if (PENDING_USER_ACTION.equals(state)) {
      return Optional.of(
          "assisted-service waits for the user: AgentClusterInstall "
              + installName
              + " is "
              + described
              + "; the Agents in state "
              + PENDING_USER_ACTION
              + " say in status.debugInfo.stateInfo what each host needs");
    }
    if (!VALIDATING_STATES.contains(state)) {
      return Optional.empty();
    }
    List<ClusterValidations.Failing> failing = ClusterValidations.needingUser(install.get());
    if (failing.isEmpty()) {
      return Optional.empty();
    }
    List<String> named =
        failing.stream()
            .limit(VALIDATIONS_NAMED)
            .map(ClusterValidations.Failing::toString)
            .toList();
    String more =
        failing.size() > VALIDATIONS_NAMED
            ? " and " + (failing.size() - VALIDATIONS_NAMED) + " more"
            : "";
    return Optional.of(
        "assisted-service waits for the user: AgentClusterInstall "
            + installName
            + " is "
            + described
            + "; failing validations: "
            + String.join(", ", named)
            + more
            + "; fix them in spec.config (the AgentClusterInstall's condition Validated and"
            + " status.validationsInfo have the service's full messages)");
  }

  /**
   * The failing validations as {@link #needsUser} names them: what a watch of the
   * AgentClusterInstall compares, so that a change of the set wakes the control plane and nothing
   * else in {@code status.validationsInfo} does.
   */
  public static List<String> failingValidations(AgentClusterInstall install) {
    return ClusterValidations.needingUser(install).stream()
        .map(ClusterValidations.Failing::toString)
        .toList();
  }

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
