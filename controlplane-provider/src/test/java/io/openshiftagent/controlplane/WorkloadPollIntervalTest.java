package io.openshiftagent.controlplane;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

class WorkloadPollIntervalTest {

  @Test
  void defaultsToOneMinute() {
    assertThat(ControlPlaneProvider.workloadPollInterval(Map.of())).hasMinutes(1);
    assertThat(ControlPlaneProvider.workloadPollInterval(Map.of("WORKLOAD_POLL_INTERVAL", " ")))
        .hasMinutes(1);
  }

  @Test
  void readsMillisecondsSecondsMinutesAndHours() {
    assertThat(interval("500ms")).isEqualTo(Duration.ofMillis(500));
    assertThat(interval("5s")).isEqualTo(Duration.ofSeconds(5));
    assertThat(interval("10m")).isEqualTo(Duration.ofMinutes(10));
    assertThat(interval("2h")).isEqualTo(Duration.ofHours(2));
  }

  @Test
  void refusesZeroNegativeAndUnitlessValuesNamingTheVariable() {
    for (String bad : new String[] {"0s", "-5s", "30", "1d", "PT5S", "five"}) {
      assertThatThrownBy(() -> interval(bad))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("WORKLOAD_POLL_INTERVAL")
          .hasMessageContaining("'" + bad + "'");
    }
  }

  private static Duration interval(String value) {
    return ControlPlaneProvider.workloadPollInterval(Map.of("WORKLOAD_POLL_INTERVAL", value));
  }
}
