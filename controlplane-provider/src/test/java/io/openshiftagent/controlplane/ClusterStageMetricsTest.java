package io.openshiftagent.controlplane;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.ConditionBuilder;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.openshiftagent.api.controlplane.v1alpha3.OpenshiftAssistedControlPlane;
import io.openshiftagent.api.controlplane.v1alpha3.OpenshiftAssistedControlPlaneStatus;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ClusterStageMetricsTest {
  private static final Instant STARTED = Instant.parse("2026-01-01T12:00:00Z");

  @ParameterizedTest(name = "{0} -> {1}")
  @CsvSource(
      delimiter = '|',
      value = {
        "no status | Provisioning",
        "Available=False/WaitingForInfrastructure | Provisioning",
        "Available=False/WaitingForClusterInstall | Provisioning",
        "Available=False/Installing | Installing",
        "Available=True/Available | Available",
        "Available=False/InstallationFailed | Failed",
        "Available=False/InvalidConfiguration | Failed",
        "Available=True/Available,UpgradeCompleted=False/UpgradeInProgress | Upgrading",
        "Available=True/Available,UpgradeCompleted=False/UpgradeFailed | Failed",
        "Available=True/Available,UpgradeCompleted=True/UpgradeCompleted | Available",
        "Available=False/Installing,Paused=True/Paused | Paused",
        "deleting,Available=True/Available | Deleting",
      })
  void eachControlPlaneIsInOneStage(String state, String stage) {
    assertThat(ClusterStageMetrics.stage(controlPlane(state, null))).isEqualTo(stage);
  }

  @Test
  void stagesAreCountedAndTheTimeToAvailableRecordedOnceForWhatBecameAvailableSinceTheStart() {
    List<OpenshiftAssistedControlPlane> cache = new ArrayList<>();
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    new ClusterStageMetrics(registry, cache::stream, STARTED);
    // Created 40 minutes before it became Available, 5 minutes after the process started.
    cache.add(controlPlane("Available=True/Available", "2026-01-01T12:05:00Z"));
    // Available before the process started: not this process's to count.
    cache.add(controlPlane("Available=True/Available", "2026-01-01T11:00:00Z"));
    cache.add(controlPlane("Available=False/Installing", null));

    assertThat(gauge(registry, "Available")).isEqualTo(2);
    assertThat(gauge(registry, "Installing")).isEqualTo(1);
    assertThat(gauge(registry, "Deleting")).as("every stage, at zero too").isZero();
    assertThat(gauge(registry, "Available")).as("scraped again").isEqualTo(2);
    var summary = registry.find("openshift_agent_cluster_time_to_available_seconds").summary();
    assertThat(summary.count()).isEqualTo(1);
    assertThat(summary.totalAmount()).isEqualTo(40 * 60);
  }

  private static double gauge(SimpleMeterRegistry registry, String stage) {
    return registry.find("openshift_agent_clusters").tag("stage", stage).gauge().value();
  }

  /** {@code state}: "deleting" and Type=Status/Reason entries, comma-separated. */
  private static OpenshiftAssistedControlPlane controlPlane(String state, String availableAt) {
    OpenshiftAssistedControlPlane cp = new OpenshiftAssistedControlPlane();
    cp.getMetadata().setName("cp");
    cp.getMetadata().setUid(UUID.randomUUID().toString());
    Instant became = availableAt == null ? STARTED.plusSeconds(60) : Instant.parse(availableAt);
    cp.getMetadata().setCreationTimestamp(became.minusSeconds(40 * 60).toString());
    if (state.equals("no status")) {
      return cp;
    }
    List<Condition> conditions = new ArrayList<>();
    for (String entry : state.split(",")) {
      if (entry.equals("deleting")) {
        cp.getMetadata().setDeletionTimestamp(STARTED.toString());
        continue;
      }
      String[] typeRest = entry.split("=");
      String[] statusReason = typeRest[1].split("/");
      conditions.add(
          new ConditionBuilder()
              .withType(typeRest[0])
              .withStatus(statusReason[0])
              .withReason(statusReason[1])
              .withLastTransitionTime(became.toString())
              .build());
    }
    OpenshiftAssistedControlPlaneStatus status = new OpenshiftAssistedControlPlaneStatus();
    status.conditions = conditions;
    cp.setStatus(status);
    return cp;
  }
}
