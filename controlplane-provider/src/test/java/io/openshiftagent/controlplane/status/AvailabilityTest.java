package io.openshiftagent.controlplane.status;

import static org.assertj.core.api.Assertions.assertThat;

import io.openshiftagent.api.external.assisted.AgentClusterInstall;
import io.openshiftagent.api.external.assisted.AgentClusterInstallStatus;
import io.openshiftagent.api.external.assisted.DebugInfo;
import java.util.Optional;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Available follows the installer's state, once the kubeconfig is published. */
class AvailabilityTest {
  @ParameterizedTest(name = "invalid={0} install={1} state=''{2}'' initialized={3}: {4} {5}")
  @CsvSource(
      delimiter = '|',
      value = {
        "true  | true  | installed          | true  | False | InvalidConfiguration | the cluster cannot be configured; see condition ClusterInstallConfigured",
        "false | false |                    | false | False | WaitingForClusterInstall | waiting for AgentClusterInstall ocp1-cp",
        "false | true  |                    | false | False | Installing | installer state: not reported yet",
        "false | true  | ready              | false | False | Installing | installer state: ready (info)",
        "false | true  | installing         | false | False | Installing | installer state: installing (info)",
        "false | true  | finalizing         | false | False | Installing | installer state: finalizing (info)",
        "false | true  | finalizing         | true  | True  | Available | the cluster is installed; installer state: finalizing (info)",
        "false | true  | installed          | true  | True  | Available | the cluster is installed; installer state: installed (info)",
        "false | true  | adding-hosts       | true  | True  | Available | the cluster is installed; installer state: adding-hosts (info)",
        "false | true  | error              | true  | False | InstallationFailed | assisted-service reports the installation failed: error (info); see the events and logs of AgentClusterInstall ocp1-cp",
      })
  void availableOnlyOnceInstalledAndInitialized(
      boolean invalid,
      boolean hasInstall,
      String state,
      boolean initialized,
      String status,
      String reason,
      String message) {
    Optional<AgentClusterInstall> install =
        hasInstall ? Optional.of(install(state)) : Optional.empty();
    assertThat(Availability.of(invalid, install, initialized, "ocp1-cp"))
        .isEqualTo(new ConditionUpdate("Available", status, reason, message));
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
