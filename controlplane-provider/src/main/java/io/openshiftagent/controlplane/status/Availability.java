package io.openshiftagent.controlplane.status;

import static io.openshiftagent.controlplane.status.ControlPlaneConditions.AVAILABLE;
import static io.openshiftagent.controlplane.status.ControlPlaneConditions.CLUSTER_INSTALL_CONFIGURED;
import static io.openshiftagent.controlplane.status.ControlPlaneConditions.INSTALLATION_FAILED;
import static io.openshiftagent.controlplane.status.ControlPlaneConditions.INSTALLING;
import static io.openshiftagent.controlplane.status.ControlPlaneConditions.INVALID_CONFIGURATION;
import static io.openshiftagent.controlplane.status.ControlPlaneConditions.RELEASE_IMAGE_RESOLVED;
import static io.openshiftagent.controlplane.status.ControlPlaneConditions.WAITING_FOR_CLUSTER_INSTALL;
import static io.openshiftagent.controlplane.status.ControlPlaneConditions.WAITING_FOR_RELEASE_IMAGE;

import io.openshiftagent.api.external.assisted.AgentClusterInstall;
import io.openshiftagent.provider.contract.InstallerStates;
import java.util.Optional;
import java.util.Set;

/** The Available condition, from the installer's state and what this reconcile reported. */
public final class Availability {
  private Availability() {}

  /**
   * @param waitingForReleaseImage whether ClusterInstallConfigured is False because the release
   *     image is not resolved yet (a registry, or the pull secret or mirrors it needs)
   * @param configurationInvalid whether ClusterInstallConfigured is False before the installation
   *     started: the spec cannot be used
   * @param install the AgentClusterInstall, if it exists
   * @param initialized whether the kubeconfig is published
   * @param installName the AgentClusterInstall's name, for the messages
   */
  public static ConditionUpdate of(
      boolean waitingForReleaseImage,
      boolean configurationInvalid,
      Optional<AgentClusterInstall> install,
      boolean initialized,
      String installName) {
    if (waitingForReleaseImage) {
      return ConditionUpdate.isFalse(
          AVAILABLE,
          WAITING_FOR_RELEASE_IMAGE,
          "the release image is not resolved yet; see condition " + RELEASE_IMAGE_RESOLVED);
    }
    if (configurationInvalid) {
      return ConditionUpdate.isFalse(
          AVAILABLE,
          INVALID_CONFIGURATION,
          "the cluster cannot be configured; see condition " + CLUSTER_INSTALL_CONFIGURED);
    }
    if (install.isEmpty()) {
      return ConditionUpdate.isFalse(
          AVAILABLE, WAITING_FOR_CLUSTER_INSTALL, "waiting for AgentClusterInstall " + installName);
    }
    String state = InstallerStates.of(install.get());
    String described = describe(install);
    if (InstallerStates.ERROR.equals(state)) {
      return ConditionUpdate.isFalse(
          AVAILABLE,
          INSTALLATION_FAILED,
          "assisted-service reports the installation failed: "
              + described
              + "; see the events and logs of AgentClusterInstall "
              + installName);
    }
    if (InstallerStates.API_AVAILABLE.contains(state) && initialized) {
      // Without the installer's state: what follows (installed, adding-hosts) is no news, and
      // would be a status write each.
      return ConditionUpdate.isTrue(
          AVAILABLE,
          AVAILABLE,
          "the cluster is installed; its API server is reachable through the published kubeconfig");
    }
    return ConditionUpdate.isFalse(AVAILABLE, INSTALLING, progress(install, installName));
  }

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
