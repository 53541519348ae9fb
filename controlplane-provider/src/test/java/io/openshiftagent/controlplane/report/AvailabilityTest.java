package io.openshiftagent.controlplane.report;

import static io.openshiftagent.controlplane.Fixtures.validations;
import static org.assertj.core.api.Assertions.assertThat;

import io.openshiftagent.api.external.assisted.AgentClusterInstall;
import io.openshiftagent.api.external.assisted.AgentClusterInstallStatus;
import io.openshiftagent.api.external.assisted.DebugInfo;
import io.openshiftagent.controlplane.names.ConditionUpdate;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Available follows the installer's state, once the kubeconfig is published. */
class AvailabilityTest {
  @ParameterizedTest(
      name = "release={0} invalid={1} install={2} state=''{3}'' initialized={4}: {5} {6}")
  @CsvSource(
      delimiter = '|',
      value = {
        "true  | true  | false |                    | false | False | WaitingForReleaseImage | the release image is not resolved yet; see condition ReleaseImageResolved",
        "true  | true  | true  | installed          | true  | False | WaitingForReleaseImage | the release image is not resolved yet; see condition ReleaseImageResolved",
        "false | true  | true  | installed          | true  | False | InvalidConfiguration | the cluster cannot be configured; see condition ClusterInstallConfigured",
        "false | false | false |                    | false | False | WaitingForClusterInstall | waiting for AgentClusterInstall ocp1-cp",
        "false | false | true  |                    | false | False | Installing | installer state: not reported yet",
        "false | false | true  | insufficient       | false | False | Installing | installer state: insufficient (AgentClusterInstall ocp1-cp status.debugInfo.stateInfo says why)",
        "false | false | true  | pending-for-input  | false | False | Installing | installer state: pending-for-input (AgentClusterInstall ocp1-cp status.debugInfo.stateInfo says why)",
        "false | false | true  | installing-pending-user-action | false | False | InstallationNeedsUserAction | assisted-service waits for the user: AgentClusterInstall ocp1-cp is installing-pending-user-action (info); the Agents in state installing-pending-user-action say in status.debugInfo.stateInfo what each host needs",
        "false | false | true  | ready              | false | False | Installing | the installation is under way: AgentClusterInstall ocp1-cp has the installer's state and progress",
        "false | false | true  | installing         | false | False | Installing | the installation is under way: AgentClusterInstall ocp1-cp has the installer's state and progress",
        "false | false | true  | finalizing         | false | False | Installing | the installation is under way: AgentClusterInstall ocp1-cp has the installer's state and progress",
        "false | false | true  | finalizing         | true  | True  | Available | the cluster is installed; its API server is reachable through the published kubeconfig",
        "false | false | true  | installed          | true  | True  | Available | the cluster is installed; its API server is reachable through the published kubeconfig",
        "false | false | true  | adding-hosts       | true  | True  | Available | the cluster is installed; its API server is reachable through the published kubeconfig",
        "false | false | true  | error              | true  | False | InstallationFailed | assisted-service reports the installation failed: error (info); see the events and logs of AgentClusterInstall ocp1-cp",
      })
  void availableOnlyOnceInstalledAndInitialized(
      boolean waitingForReleaseImage,
      boolean invalid,
      boolean hasInstall,
      String state,
      boolean initialized,
      String status,
      String reason,
      String message) {
    Optional<AgentClusterInstall> install =
        hasInstall ? Optional.of(install(state)) : Optional.empty();
    assertThat(
            Availability.of(
                waitingForReleaseImage, invalid, install, initialized, "ocp1-cp", List.of()))
        .isEqualTo(new ConditionUpdate("Available", status, reason, message));
  }

  @Test
  void aFailingValidationBeforeTheInstallationIsTheUsersToFix() {
    AgentClusterInstall install = install("pending-for-input");
    install.getStatus().validationsInfo =
        validations(
            Map.of(
                "network",
                List.of(
                    Map.of(
                        "id",
                        "machine-cidr-defined",
                        "status",
                        "failure",
                        "message",
                        "The Machine Network CIDR is undefined; the Machine Network CIDR can be"
                            + " defined by setting either the API or Ingress virtual IPs."))));
    ConditionUpdate available =
        Availability.of(false, false, Optional.of(install), false, "ocp1-cp", List.of());
    assertThat(available.reason()).isEqualTo("InstallationNeedsUserAction");
    assertThat(available.message())
        .isEqualTo(
            "assisted-service waits for the user: AgentClusterInstall ocp1-cp is pending-for-input"
                + " (info); failing validations: machine-cidr-defined (The Machine Network CIDR is"
                + " undefined); fix them in spec.config (the AgentClusterInstall's condition"
                + " Validated and status.validationsInfo have the service's full messages)");
    // Refused configuration comes first: it is what the user sees to fix.
    assertThat(
            Availability.of(false, true, Optional.of(install), false, "ocp1-cp", List.of())
                .reason())
        .isEqualTo("InvalidConfiguration");
  }

  @Test
  void theHostsHeldBackAreNamedWhileTheInstallationWaitsOrIsUnderWay() {
    List<String> held =
        List.of("Machine cp-a: host host-0 fails validations: NTP", "Machine cp-b: no disk");
    String named =
        "; hosts held back: Machine cp-a: host host-0 fails validations: NTP; Machine cp-b: no disk";
    ConditionUpdate waiting =
        Availability.of(
            false,
            false,
            Optional.of(install("installing-pending-user-action")),
            false,
            "ocp1-cp",
            held);
    assertThat(waiting.reason()).isEqualTo("InstallationNeedsUserAction");
    assertThat(waiting.message()).endsWith(named);
    ConditionUpdate installing =
        Availability.of(false, false, Optional.of(install("insufficient")), false, "ocp1-cp", held);
    assertThat(installing.reason()).isEqualTo("Installing");
    assertThat(installing.message())
        .isEqualTo(
            "installer state: insufficient (AgentClusterInstall ocp1-cp status.debugInfo.stateInfo"
                + " says why)"
                + named);
    assertThat(
            Availability.of(false, false, Optional.of(install("installed")), true, "ocp1-cp", held)
                .message())
        .as("installed: no host is held back any more")
        .doesNotContain("held back");
  }

  private static AgentClusterInstall install(String state) {
    AgentClusterInstall install = new AgentClusterInstall();
    if (state != null) {
      install.setStatus(new AgentClusterInstallStatus());
      install.getStatus().debugInfo = new DebugInfo();
      install.getStatus().debugInfo.state = state;
      install.getStatus().debugInfo.stateInfo = "info";
    }
    return install;
  }
}
