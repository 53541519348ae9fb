package io.openshiftagent.controlplane.report;

import static io.openshiftagent.controlplane.names.ControlPlaneConditions.AVAILABLE;
import static io.openshiftagent.controlplane.names.ControlPlaneConditions.CLUSTER_INSTALL_CONFIGURED;
import static io.openshiftagent.controlplane.names.ControlPlaneConditions.INSTALLATION_FAILED;
import static io.openshiftagent.controlplane.names.ControlPlaneConditions.INSTALLATION_NEEDS_USER_ACTION;
import static io.openshiftagent.controlplane.names.ControlPlaneConditions.INSTALLING;
import static io.openshiftagent.controlplane.names.ControlPlaneConditions.INVALID_CONFIGURATION;
import static io.openshiftagent.controlplane.names.ControlPlaneConditions.RELEASE_IMAGE_RESOLVED;
import static io.openshiftagent.controlplane.names.ControlPlaneConditions.WAITING_FOR_CLUSTER_INSTALL;
import static io.openshiftagent.controlplane.names.ControlPlaneConditions.WAITING_FOR_RELEASE_IMAGE;

import io.openshiftagent.api.external.assisted.AgentClusterInstall;
import io.openshiftagent.controlplane.cluster.InstallProgress;
import io.openshiftagent.controlplane.names.ConditionUpdate;
import io.openshiftagent.provider.contract.InstallerStates;
import java.util.List;
import java.util.Optional;

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
   * @param hostsHeldBack the hosts whose installation is held back, each as its Machine says why
   *     ({@link io.openshiftagent.controlplane.machines.MachineStatus#hostsHeldBack}): named while
   *     the installation waits or is under way
   */
  public static ConditionUpdate of(
      boolean waitingForReleaseImage,
      boolean configurationInvalid,
      Optional<AgentClusterInstall> install,
      boolean initialized,
      String installName,
      List<String> hostsHeldBack) {
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
    String described = InstallProgress.describe(install);
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
    Optional<String> needsUser = InstallProgress.needsUser(install, installName);
    if (needsUser.isPresent()) {
      return ConditionUpdate.isFalse(
          AVAILABLE, INSTALLATION_NEEDS_USER_ACTION, needsUser.get() + heldBack(hostsHeldBack));
    }
    return ConditionUpdate.isFalse(
        AVAILABLE,
        INSTALLING,
        InstallProgress.progress(install, installName) + heldBack(hostsHeldBack));
  }

  private static String heldBack(List<String> hosts) {
    return hosts.isEmpty() ? "" : "; hosts held back: " + String.join("; ", hosts);
  }
}
