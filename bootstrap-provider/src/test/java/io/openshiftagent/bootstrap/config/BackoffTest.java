package io.openshiftagent.bootstrap.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class BackoffTest {
  private static final Instant START = Instant.parse("2026-11-21T10:00:00Z");

  @Test
  void waitsDoubleWhileTheFailureLastsAndAreBounded() {
    assertThat(Backoff.next(START, START)).isEqualTo(Duration.ofSeconds(5));
    Instant t1 = START.plus(Backoff.next(START, START));
    assertThat(Backoff.next(START, t1)).isEqualTo(Duration.ofSeconds(5));
    Instant t2 = t1.plus(Backoff.next(START, t1));
    assertThat(Backoff.next(START, t2)).isEqualTo(Duration.ofSeconds(10));
    Instant t3 = t2.plus(Backoff.next(START, t2));
    assertThat(Backoff.next(START, t3)).isEqualTo(Duration.ofSeconds(20));
    assertThat(Backoff.next(START, START.plus(Duration.ofHours(3)))).isEqualTo(Backoff.MAX);
  }

  @Test
  void aNewFailureStartsShortAgain() {
    assertThat(Backoff.next(null, START)).isEqualTo(Backoff.FIRST);
  }
}
