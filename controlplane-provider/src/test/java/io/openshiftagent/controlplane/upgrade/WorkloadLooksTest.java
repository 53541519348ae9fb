package io.openshiftagent.controlplane.upgrade;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.openshiftagent.api.controlplane.v1alpha3.OpenshiftAssistedControlPlane;
import io.openshiftagent.api.controlplane.v1alpha3.OpenshiftAssistedControlPlaneStatus;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;

class WorkloadLooksTest {
  private final MutableClock clock = new MutableClock();
  private final WorkloadLooks looks = new WorkloadLooks(Duration.ofMinutes(1), clock);
  private final OpenshiftAssistedControlPlane cp = controlPlane(3L, 3L);

  @Test
  void aSettledClusterIsLookedAtHalfAsOftenAfterEachLookUpToSixteenIntervals() {
    assertThat(looks.due(cp)).isTrue();
    Duration[] expected = {
      Duration.ofMinutes(2),
      Duration.ofMinutes(4),
      Duration.ofMinutes(8),
      Duration.ofMinutes(16),
      Duration.ofMinutes(16)
    };
    looks.looked(cp, true);
    assertThat(looks.interval(cp)).isEqualTo(Duration.ofMinutes(1));
    for (Duration interval : expected) {
      looks.looked(cp, true);
      assertThat(looks.interval(cp)).isEqualTo(interval);
      clock.advance(interval.dividedBy(2).minusSeconds(1));
      assertThat(looks.due(cp)).isFalse();
      clock.advance(Duration.ofSeconds(1));
      assertThat(looks.due(cp)).isTrue();
    }
  }

  @Test
  void aLookThatFindsSomethingUnderWayComesBackToThePollInterval() {
    for (int i = 0; i < 5; i++) {
      looks.looked(cp, true);
    }
    looks.looked(cp, false);
    assertThat(looks.interval(cp)).isEqualTo(Duration.ofMinutes(1));
  }

  @Test
  void aSpecChangeIsLookedAtAtOnce() {
    for (int i = 0; i < 5; i++) {
      looks.looked(cp, true);
    }
    assertThat(looks.due(cp)).isFalse();
    assertThat(looks.due(controlPlane(4L, 3L))).isTrue();
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

  private static final class MutableClock extends Clock {
    private Instant now = Instant.parse("2026-01-01T00:00:00Z");

    void advance(Duration d) {
      now = now.plus(d);
    }

    @Override
    public Instant instant() {
      return now;
    }

    @Override
    public java.time.ZoneId getZone() {
      return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(java.time.ZoneId zone) {
      return this;
    }
  }
}
