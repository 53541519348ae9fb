package io.openshiftagent.controlplane.upgrade;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.openshiftagent.api.controlplane.v1alpha3.OpenshiftAssistedControlPlane;
import io.openshiftagent.api.controlplane.v1alpha3.OpenshiftAssistedControlPlaneStatus;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class WorkloadLooksTest {
  private static final Duration POLL = Duration.ofMinutes(1);
  private final OpenshiftAssistedControlPlane cp = controlPlane(3L, 3L);
  private Instant now = Instant.parse("2026-01-01T00:00:00Z");

  @Test
  void aSettledClusterIsLookedAtHalfAsOftenAfterEachLookUpToSixteenIntervals() {
    assertThat(WorkloadLooks.due(cp, Optional.empty(), now)).isTrue();
    Duration[] expected = {
      Duration.ofMinutes(2),
      Duration.ofMinutes(4),
      Duration.ofMinutes(8),
      Duration.ofMinutes(16),
      Duration.ofMinutes(16)
    };
    Optional<WorkloadLooks.Look> last =
        Optional.of(WorkloadLooks.looked(Optional.empty(), true, POLL, now));
    assertThat(WorkloadLooks.interval(last, POLL)).isEqualTo(POLL);
    for (Duration interval : expected) {
      last = Optional.of(WorkloadLooks.looked(last, true, POLL, now));
      assertThat(WorkloadLooks.interval(last, POLL)).isEqualTo(interval);
      now = now.plus(interval.dividedBy(2).minusSeconds(1));
      assertThat(WorkloadLooks.due(cp, last, now)).isFalse();
      now = now.plusSeconds(1);
      assertThat(WorkloadLooks.due(cp, last, now)).isTrue();
    }
  }

  @Test
  void aLookThatFindsSomethingUnderWayComesBackToThePollInterval() {
    Optional<WorkloadLooks.Look> last = settledFiveTimes();
    last = Optional.of(WorkloadLooks.looked(last, false, POLL, now));
    assertThat(WorkloadLooks.interval(last, POLL)).isEqualTo(POLL);
  }

  @Test
  void aSpecChangeIsLookedAtAtOnce() {
    Optional<WorkloadLooks.Look> last = settledFiveTimes();
    assertThat(WorkloadLooks.due(cp, last, now)).isFalse();
    assertThat(WorkloadLooks.due(controlPlane(4L, 3L), last, now)).isTrue();
  }

  @Test
  void withoutALookTheNextComesAtThePollInterval() {
    assertThat(WorkloadLooks.interval(Optional.empty(), POLL)).isEqualTo(POLL);
  }

  private Optional<WorkloadLooks.Look> settledFiveTimes() {
    Optional<WorkloadLooks.Look> last = Optional.empty();
    for (int i = 0; i < 5; i++) {
      last = Optional.of(WorkloadLooks.looked(last, true, POLL, now));
    }
    return last;
  }

  private static OpenshiftAssistedControlPlane controlPlane(long generation, long observed) {
    OpenshiftAssistedControlPlane cp = new OpenshiftAssistedControlPlane();
    cp.setMetadata(
        new ObjectMetaBuilder()
            .withName("cp")
            .withNamespace("ns")
            .withGeneration(generation)
            .build());
    cp.setStatus(new OpenshiftAssistedControlPlaneStatus());
    cp.getStatus().observedGeneration = observed;
    return cp;
  }
}
