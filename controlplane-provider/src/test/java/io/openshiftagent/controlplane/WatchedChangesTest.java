package io.openshiftagent.controlplane;

import static io.openshiftagent.controlplane.Fixtures.validations;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ConditionBuilder;
import io.openshiftagent.api.bootstrap.v1alpha2.OpenshiftAssistedConfig;
import io.openshiftagent.api.bootstrap.v1alpha2.OpenshiftAssistedConfigStatus;
import io.openshiftagent.api.external.assisted.AgentClusterInstall;
import io.openshiftagent.api.external.assisted.AgentClusterInstallStatus;
import io.openshiftagent.api.external.assisted.DebugInfo;
import io.openshiftagent.api.external.capi.Machine;
import io.openshiftagent.api.external.capi.MachineStatus;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Which AgentClusterInstall and config updates wake the control plane. */
class WatchedChangesTest {
  @ParameterizedTest(name = "BootstrapConfigReady {0} -> {1}: {2}")
  @CsvSource({
    "WaitingForInfraEnv, HostValidationsFailing, true",
    "HostValidationsFailing, Ready, true",
    "HostValidationsFailing, HostValidationsFailing, false",
  })
  void aMachineWakesTheControlPlaneWhenWhetherItsHostIsHeldBackChanges(
      String oldReason, String newReason, boolean wakes) {
    assertThat(WatchedChanges.machine(machine(newReason), machine(oldReason))).isEqualTo(wakes);
  }

  private static Machine machine(String bootstrapConfigReadyReason) {
    Machine machine = Fixtures.machine("m", "2026-01-01T00:00:00Z", null);
    machine.setStatus(new MachineStatus());
    machine.getStatus().conditions =
        List.of(
            Fixtures.condition(
                "BootstrapConfigReady",
                "Ready".equals(bootstrapConfigReadyReason) ? "True" : "False",
                bootstrapConfigReadyReason,
                "the message, not watched: " + bootstrapConfigReadyReason.length()));
    return machine;
  }

  @ParameterizedTest(name = "{0}/{1} -> {2}/{3}: {4}")
  @CsvSource({
    // A stay the service may have missed begins while the state stays ready.
    "ready, UnapprovedAgents, ready, UnsyncedAgents, true",
    "ready, UnapprovedAgents, ready, ClusterIsReady, true",
    "ready, UnsyncedAgents, ready, ClusterIsReady, true",
    "ready, UnsyncedAgents, ready, UnapprovedAgents, true",
    // Reasons that change nothing we decide.
    "ready, UnapprovedAgents, ready, InsufficientAgents, false",
    "insufficient, ClusterNotReady, insufficient, InsufficientAgents, false",
    "ready, UnsyncedAgents, ready, UnsyncedAgents, false",
    // A change of state always counts.
    "ready, UnsyncedAgents, installing, ClusterAlreadyInstalling, true",
  })
  void aClusterInstallWakesTheControlPlaneWhenWhatItWaitsForMatters(
      String oldState, String oldReason, String newState, String newReason, boolean wakes) {
    assertThat(
            WatchedChanges.clusterInstall(
                clusterInstall(newState, newReason), clusterInstall(oldState, oldReason)))
        .isEqualTo(wakes);
  }

  @org.junit.jupiter.api.Test
  void aChangeOfTheFailingValidationsWakesTheControlPlaneAndTheirRewordingDoesNot() {
    AgentClusterInstall none = clusterInstall("pending-for-input", "ClusterNotReady");
    AgentClusterInstall failing =
        withValidation("failure", "The Machine Network CIDR is undefined");
    assertThat(WatchedChanges.clusterInstall(failing, none)).isTrue();
    assertThat(
            WatchedChanges.clusterInstall(
                withValidation("failure", "The Machine Network CIDR is undefined; set the VIPs"),
                failing))
        .as("the advice after the first clause")
        .isFalse();
    assertThat(
            WatchedChanges.clusterInstall(
                withValidation("pending", "Hosts have not been discovered yet"), none))
        .as("a validation still pending")
        .isFalse();
  }

  @org.junit.jupiter.api.Test
  void aConfigWakesTheControlPlaneWhenWhatItsDeletionWaitsForChangesAndNotForItsOtherConditions() {
    OpenshiftAssistedConfig ready = config("Ready", "True", "SecretAvailable");
    OpenshiftAssistedConfig waiting =
        config("Deleting", "True", "WaitingForInfraEnvDeletion", "waiting for InfraEnv cp-0");
    assertThat(WatchedChanges.config(waiting, ready)).as("the deletion starts waiting").isTrue();
    assertThat(
            WatchedChanges.config(
                config("Deleting", "True", "WaitingForAgentDeletion", "waiting for Agents"),
                waiting))
        .as("another wait")
        .isTrue();
    assertThat(
            WatchedChanges.config(
                config("Deleting", "True", "WaitingForInfraEnvDeletion", "reworded"), waiting))
        .as("the same wait, reworded")
        .isFalse();
    assertThat(WatchedChanges.config(config("Ready", "False", "Paused"), ready))
        .as("another condition")
        .isFalse();
  }

  private static OpenshiftAssistedConfig config(String type, String... statusReasonMessage) {
    OpenshiftAssistedConfig config = new OpenshiftAssistedConfig();
    config.getMetadata().setName("cp-0");
    config.getMetadata().setNamespace("ns");
    config.setStatus(new OpenshiftAssistedConfigStatus());
    config.getStatus().conditions =
        List.of(
            new ConditionBuilder()
                .withType(type)
                .withStatus(statusReasonMessage[0])
                .withReason(statusReasonMessage[1])
                .withMessage(statusReasonMessage.length > 2 ? statusReasonMessage[2] : "")
                .build());
    return config;
  }

  private static AgentClusterInstall withValidation(String status, String message) {
    AgentClusterInstall aci = clusterInstall("pending-for-input", "ClusterNotReady");
    aci.getStatus().validationsInfo =
        validations(
            Map.of(
                "network",
                List.of(
                    Map.of("id", "machine-cidr-defined", "status", status, "message", message))));
    return aci;
  }

  private static AgentClusterInstall clusterInstall(String state, String requirementsReason) {
    AgentClusterInstall aci = new AgentClusterInstall();
    aci.getMetadata().setName("cp");
    aci.getMetadata().setNamespace("ns");
    aci.setStatus(new AgentClusterInstallStatus());
    aci.getStatus().debugInfo = new DebugInfo();
    aci.getStatus().debugInfo.state = state;
    aci.getStatus().conditions =
        List.of(
            new ConditionBuilder(Fixtures.requirementsMet(requirementsReason))
                .withMessage("the service's words for " + requirementsReason)
                .build());
    return aci;
  }
}
