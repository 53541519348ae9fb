package io.openshiftagent.controlplane.report;

import static org.assertj.core.api.Assertions.assertThat;

import io.openshiftagent.api.common.Conditions;
import io.openshiftagent.api.common.StatusVersion;
import io.openshiftagent.api.controlplane.v1alpha3.OpenshiftAssistedControlPlaneStatus;
import java.time.Instant;
import java.util.List;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Only messages and the counts of Machines (ready, available, up to date, per version) are details,
 * and everything but a problem while the control plane waits in its preflight.
 */
class StatusDetailsTest {
  private static final Instant T0 = Instant.parse("2026-11-26T10:00:00Z");

  @ParameterizedTest(name = "{0}: details only = {1}")
  @CsvSource({
    "message, true",
    "readyReplicas, true",
    "availableReplicas, true",
    "upToDateReplicas, true",
    "reason, false",
    "conditionStatus, false",
    "newCondition, true",
    "otherConditionStatus, true",
    "badNews, false",
    "waitToWait, false",
    "preflightWaitToWait, true",
    "preflightWaitWithTheReleaseResolved, true",
    "preflightWaitWithTheReleaseResolvedBefore, true",
    "preflightWaitWhileTheReleaseIsAskedFor, true",
    "preflightWaitAndAReleaseProblem, false",
    "preflightWaitToPaused, false",
    "preflightWaitToProblem, false",
    "preflightWaitToTheClusterInstall, false",
    "pausedCondition, false",
    "replicas, false",
    "initialized, false",
    "observedGeneration, false",
    "version, false",
    "machinesOfAVersion, true",
    "anotherVersion, false",
  })
  void onlyMessagesAndCountsAreDetails(String change, boolean detailsOnly) {
    OpenshiftAssistedControlPlaneStatus stored = status(s -> {});
    OpenshiftAssistedControlPlaneStatus desired =
        status(
            s -> {
              switch (change) {
                case "message" -> s.conditions = available("False", "Installing", "installing");
                case "readyReplicas" -> s.readyReplicas = 2;
                case "availableReplicas" -> s.availableReplicas = 2;
                case "upToDateReplicas" -> s.upToDateReplicas = 2;
                case "reason" -> s.conditions = available("False", "InstallationFailed", "ready");
                case "conditionStatus" -> s.conditions = available("True", "Installing", "ready");
                case "newCondition" ->
                    s.conditions =
                        Conditions.set(
                            s.conditions, "EtcdClusterHealthy", "True", "Healthy", "", 1L, T0);
                case "otherConditionStatus" -> {
                  s.conditions =
                      Conditions.set(s.conditions, "MachinesReady", "True", "Ready", "", 1L, T0);
                  stored.conditions =
                      Conditions.set(
                          stored.conditions, "MachinesReady", "False", "NotReady", "", 1L, T0);
                }
                case "badNews" -> {
                  s.conditions =
                      Conditions.set(
                          s.conditions, "MachinesReady", "False", "NotReady", "", 1L, T0);
                  stored.conditions =
                      Conditions.set(
                          stored.conditions, "MachinesReady", "True", "Ready", "", 1L, T0);
                }
                case "waitToWait" -> {
                  s.conditions = available("False", "WaitingForKubeconfig", "-");
                  stored.conditions = available("False", "WaitingForClusterInstall", "-");
                }
                case "preflightWaitToWait" -> {
                  s.conditions = available("False", "WaitingForControlPlaneEndpoint", "-");
                  stored.conditions = available("False", "WaitingForCluster", "-");
                }
                case "preflightWaitWithTheReleaseResolved" -> {
                  s.conditions = available("False", "WaitingForInfrastructure", "-");
                  s.conditions =
                      Conditions.set(
                          s.conditions, "ReleaseImageResolved", "True", "Resolved", "", 1L, T0);
                  s.conditions =
                      Conditions.set(s.conditions, "Paused", "False", "NotPaused", "", 1L, T0);
                  s.releaseImage = new OpenshiftAssistedControlPlaneStatus.ReleaseImage();
                  stored.conditions = available("False", "WaitingForInfrastructure", "-");
                }
                case "preflightWaitWithTheReleaseResolvedBefore" -> {
                  s.conditions = available("False", "WaitingForInfrastructure", "-");
                  s.conditions =
                      Conditions.set(
                          s.conditions, "ReleaseImageResolved", "True", "Resolved", "", 1L, T0);
                  s.releaseImage = new OpenshiftAssistedControlPlaneStatus.ReleaseImage();
                  stored.conditions = available("False", "WaitingForControlPlaneEndpoint", "-");
                  stored.conditions =
                      Conditions.set(
                          stored.conditions,
                          "ReleaseImageResolved",
                          "True",
                          "Resolved",
                          "",
                          1L,
                          T0);
                  stored.releaseImage = new OpenshiftAssistedControlPlaneStatus.ReleaseImage();
                }
                case "preflightWaitWhileTheReleaseIsAskedFor" -> {
                  s.conditions = available("False", "WaitingForControlPlaneEndpoint", "-");
                  s.conditions =
                      Conditions.set(
                          s.conditions, "ReleaseImageResolved", "False", "Resolving", "", 1L, T0);
                  stored.conditions = available("False", "WaitingForCluster", "-");
                }
                case "preflightWaitAndAReleaseProblem" -> {
                  s.conditions = available("False", "WaitingForInfrastructure", "-");
                  s.conditions =
                      Conditions.set(
                          s.conditions,
                          "ReleaseImageResolved",
                          "False",
                          "PullSecretNotFound",
                          "",
                          1L,
                          T0);
                  stored.conditions = available("False", "WaitingForInfrastructure", "-");
                }
                case "preflightWaitToPaused" -> {
                  s.conditions = available("False", "WaitingForInfrastructure", "-");
                  s.conditions =
                      Conditions.set(s.conditions, "Paused", "True", "Paused", "", 1L, T0);
                  stored.conditions = available("False", "WaitingForInfrastructure", "-");
                }
                case "preflightWaitToProblem" -> {
                  s.conditions = available("False", "ClusterDeleting", "-");
                  stored.conditions = available("False", "WaitingForInfrastructure", "-");
                }
                case "preflightWaitToTheClusterInstall" -> {
                  s.conditions = available("False", "WaitingForClusterInstall", "-");
                  stored.conditions = available("False", "WaitingForInfrastructure", "-");
                }
                case "waitToProblem" -> {
                  s.conditions = available("False", "InvalidConfiguration", "-");
                  stored.conditions = available("False", "WaitingForCluster", "-");
                }
                case "pausedCondition" ->
                    s.conditions =
                        Conditions.set(s.conditions, "Paused", "True", "Paused", "", 1L, T0);
                case "replicas" -> s.replicas = 4;
                case "initialized" -> {
                  s.initialization = new OpenshiftAssistedControlPlaneStatus.Initialization();
                  s.initialization.controlPlaneInitialized = true;
                }
                case "observedGeneration" -> s.observedGeneration = 2L;
                case "version" -> s.version = "v1.34.1";
                case "machinesOfAVersion" -> s.versions = List.of(new StatusVersion("v1.33.0", 3));
                case "anotherVersion" ->
                    s.versions =
                        List.of(new StatusVersion("v1.33.0", 1), new StatusVersion("v1.34.1", 1));
                default -> throw new IllegalArgumentException(change);
              }
            });
    assertThat(StatusDetails.onlyDetailsChanged(stored, desired)).isEqualTo(detailsOnly);
  }

  @Test
  void aNewControlPlanesFirstReportIsADetailOnlyWhileItWaitsInItsPreflight() {
    OpenshiftAssistedControlPlaneStatus waiting = new OpenshiftAssistedControlPlaneStatus();
    waiting.conditions = available("False", "WaitingForCluster", "-");
    assertThat(StatusDetails.onlyDetailsChanged(null, waiting)).isTrue();
    assertThat(StatusDetails.onlyDetailsChanged(new OpenshiftAssistedControlPlaneStatus(), waiting))
        .isTrue();

    OpenshiftAssistedControlPlaneStatus installing = status(s -> {});
    assertThat(StatusDetails.onlyDetailsChanged(null, installing)).isFalse();
  }

  private static OpenshiftAssistedControlPlaneStatus status(
      Consumer<OpenshiftAssistedControlPlaneStatus> change) {
    OpenshiftAssistedControlPlaneStatus status = new OpenshiftAssistedControlPlaneStatus();
    status.conditions = available("False", "Installing", "ready");
    status.replicas = 3;
    status.readyReplicas = 1;
    status.availableReplicas = 1;
    status.upToDateReplicas = 3;
    status.observedGeneration = 1L;
    status.versions = List.of(new StatusVersion("v1.33.0", 1));
    change.accept(status);
    return status;
  }

  private static List<io.fabric8.kubernetes.api.model.Condition> available(
      String status, String reason, String installerState) {
    return Conditions.set(
        List.of(), "Available", status, reason, "installer state: " + installerState, 1L, T0);
  }
}
