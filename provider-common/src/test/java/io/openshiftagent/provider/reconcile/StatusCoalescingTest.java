package io.openshiftagent.provider.reconcile;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * Details wait for the end of the window after a write, a window that grows with each write of
 * details in a row; anything else is written at once.
 */
class StatusCoalescingTest {
  private static final Instant T0 = Instant.parse("2026-11-26T10:00:00Z");

  @Test
  void detailsWaitForTheEndOfTheWindowAfterAWrite() {
    AtomicReference<Instant> now = new AtomicReference<>(T0);
    StatusCoalescing coalescing = new StatusCoalescing(now::get);
    ConfigMap object = object("uid-1");

    // Never written by this process: at once.
    assertThat(coalescing.deferral(object, true)).isEmpty();
    coalescing.written(object, false);
    now.set(T0.plusMillis(300));
    assertThat(coalescing.deferral(object, true))
        .contains(StatusCoalescing.WINDOW.minusMillis(300));
    assertThat(coalescing.deferral(object, false)).isEmpty();
    now.set(T0.plus(StatusCoalescing.WINDOW));
    assertThat(coalescing.deferral(object, true)).isEmpty();
    // Another object has a window of its own.
    now.set(T0.plusMillis(300));
    assertThat(coalescing.deferral(object("uid-2"), true)).isEmpty();
    coalescing.forget(object);
    assertThat(coalescing.deferral(object, true)).isEmpty();
  }

  @Test
  void beforeItsFirstWriteAnObjectsWindowStartsAtItsCreationAndIsTwiceAsLong() {
    AtomicReference<Instant> now = new AtomicReference<>(T0);
    StatusCoalescing coalescing = new StatusCoalescing(now::get);
    assertThat(StatusCoalescing.FIRST_WINDOW).isEqualTo(StatusCoalescing.WINDOW.multipliedBy(2));
    ConfigMap created = object("uid-new");
    Duration window = StatusCoalescing.WINDOW;
    created.getMetadata().setCreationTimestamp(T0.minus(window).toString());
    assertThat(coalescing.deferral(created, true)).contains(window);
    assertThat(coalescing.deferral(created, false)).isEmpty();
    // Once written, the usual window from that write.
    coalescing.written(created, false);
    now.set(T0.plus(window));
    assertThat(coalescing.deferral(created, true)).isEmpty();
    // Created long ago (this process restarted): at once.
    ConfigMap old = object("uid-old");
    old.getMetadata().setCreationTimestamp(T0.minus(StatusCoalescing.FIRST_WINDOW).toString());
    assertThat(coalescing.deferral(old, true)).isEmpty();
  }

  @Test
  void aKindMayHaveALongerFirstWindow() {
    AtomicReference<Instant> now = new AtomicReference<>(T0);
    Duration first = StatusCoalescing.WINDOW.multipliedBy(8);
    StatusCoalescing coalescing = new StatusCoalescing(now::get, first);
    ConfigMap created = object("uid-new");
    created.getMetadata().setCreationTimestamp(T0.minus(StatusCoalescing.FIRST_WINDOW).toString());
    assertThat(coalescing.deferral(created, true))
        .contains(first.minus(StatusCoalescing.FIRST_WINDOW));
    now.set(T0.plus(first));
    assertThat(coalescing.deferral(created, true)).isEmpty();
    // After the first write, the usual window.
    coalescing.written(created, false);
    now.set(T0.plus(first).plus(StatusCoalescing.WINDOW.dividedBy(2)));
    assertThat(coalescing.deferral(created, true)).contains(StatusCoalescing.WINDOW.dividedBy(2));
  }

  @Test
  void eachWriteOfDetailsInARowDoublesTheWindowUpToTheLongest() {
    AtomicReference<Instant> now = new AtomicReference<>(T0);
    StatusCoalescing coalescing = new StatusCoalescing(now::get);
    ConfigMap object = object("uid-1");
    Duration window = StatusCoalescing.WINDOW;
    assertThat(StatusCoalescing.LONGEST_WINDOW).isEqualTo(window.multipliedBy(8));
    coalescing.written(object, false);
    Instant last = T0;
    for (int windows : new int[] {1, 2, 4, 8, 8}) {
      now.set(last.plusMillis(1));
      assertThat(coalescing.deferral(object, true))
          .as("after a write, %d window(s)", windows)
          .contains(window.multipliedBy(windows).minusMillis(1));
      assertThat(coalescing.deferral(object, false)).isEmpty();
      last = last.plus(window.multipliedBy(windows));
      now.set(last);
      assertThat(coalescing.deferral(object, true)).isEmpty();
      coalescing.written(object, true);
    }
    // A write of anything else: one window again.
    coalescing.written(object, false);
    now.set(last.plusMillis(1));
    assertThat(coalescing.deferral(object, true)).contains(window.minusMillis(1));
  }

  @Test
  void theEarlierOfTwoDelays() {
    Optional<Duration> one = Optional.of(Duration.ofSeconds(1));
    Optional<Duration> two = Optional.of(Duration.ofSeconds(2));
    assertThat(StatusCoalescing.earliest(one, two)).isEqualTo(one);
    assertThat(StatusCoalescing.earliest(two, one)).isEqualTo(one);
    assertThat(StatusCoalescing.earliest(Optional.empty(), two)).isEqualTo(two);
    assertThat(StatusCoalescing.earliest(two, Optional.empty())).isEqualTo(two);
    assertThat(StatusCoalescing.earliest(Optional.empty(), Optional.empty())).isEmpty();
  }

  private static ConfigMap object(String uid) {
    return new ConfigMapBuilder()
        .withNewMetadata()
        .withName(uid)
        .withUid(uid)
        .endMetadata()
        .build();
  }
}
