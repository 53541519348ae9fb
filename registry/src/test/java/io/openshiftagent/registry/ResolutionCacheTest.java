package io.openshiftagent.registry;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class ResolutionCacheTest {
  private static final ReleaseDigests.Resolved RESOLVED =
      new ReleaseDigests.Resolved(
          ImageReference.parse(
              "quay.io/ocp/release@sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"),
          ImageReference.parse("quay.io/ocp/release:4.20.0-x86_64"),
          Instant.EPOCH,
          false);
  private static final ReleaseDigests.Unresolved TIMEOUT =
      new ReleaseDigests.Unresolved(Reasons.REGISTRY_TIMEOUT, "no answer");

  private final MutableClock clock = new MutableClock();
  private final ResolutionCache cache =
      new ResolutionCache(clock, Duration.ofSeconds(10), Duration.ofMinutes(5), 100);
  private final AtomicInteger calls = new AtomicInteger();

  private static ResolutionCache.Key key(String token) {
    return new ResolutionCache.Key(
        "quay.io/ocp/release:4.20.0-x86_64", Set.of("amd64"), "ps", "mirrors", "ca", token);
  }

  @Test
  void aDigestIsLookedUpOnceForAnyNumberOfReconciles() {
    for (int i = 0; i < 1000; i++) {
      clock.advance(Duration.ofMinutes(1));
      ResolutionCache.Outcome outcome = cache.resolve(key(""), this::resolved);
      assertThat(outcome.resolution()).isEqualTo(RESOLVED);
      assertThat(outcome.lookedUp()).isEqualTo(i == 0);
    }
    assertThat(calls).hasValue(1);
    assertThat(cache.lookups()).isEqualTo(1);
  }

  @Test
  void aNewTokenLooksTheTagUpAgain() {
    cache.resolve(key("first"), this::resolved);
    ResolutionCache.Outcome again = cache.resolve(key("second"), this::resolved);

    assertThat(again.lookedUp()).isTrue();
    assertThat(calls).hasValue(2);
  }

  @Test
  void aFailureIsRetriedOnlyAfterItsBackOffWhichDoubles() {
    List<Duration> waits = new ArrayList<>();
    for (int failure = 0; failure < 7; failure++) {
      ResolutionCache.Outcome outcome = cache.resolve(key(""), this::timeout);
      assertThat(outcome.lookedUp()).isTrue();
      Duration wait = Duration.between(clock.instant(), outcome.retryAt());
      waits.add(wait);
      // Reconciles before the retry time get the cached failure and the same retry time.
      clock.advance(wait.minusSeconds(1));
      ResolutionCache.Outcome early = cache.resolve(key(""), this::timeout);
      assertThat(early.lookedUp()).isFalse();
      assertThat(early.resolution()).isEqualTo(TIMEOUT);
      assertThat(early.retryAt()).isEqualTo(outcome.retryAt());
      clock.advance(Duration.ofSeconds(1));
    }
    assertThat(waits)
        .containsExactly(
            Duration.ofSeconds(10),
            Duration.ofSeconds(20),
            Duration.ofSeconds(40),
            Duration.ofSeconds(80),
            Duration.ofSeconds(160),
            Duration.ofMinutes(5),
            Duration.ofMinutes(5));
    assertThat(calls).hasValue(7);
  }

  @Test
  void aSuccessAfterFailuresIsKeptAndResetsTheBackOff() {
    cache.resolve(key(""), this::timeout);
    clock.advance(Duration.ofSeconds(10));
    assertThat(cache.resolve(key(""), this::resolved).resolution()).isEqualTo(RESOLVED);
    clock.advance(Duration.ofHours(1));
    assertThat(cache.resolve(key(""), this::timeout).resolution()).isEqualTo(RESOLVED);
  }

  @Test
  void concurrentReconcilesOfOneKeyShareOneLookup() throws Exception {
    CountDownLatch inside = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    ExecutorService pool = Executors.newFixedThreadPool(8);
    try {
      List<Future<ResolutionCache.Outcome>> outcomes = new ArrayList<>();
      outcomes.add(
          pool.submit(
              () ->
                  cache.resolve(
                      key(""),
                      () -> {
                        inside.countDown();
                        await(release);
                        return resolved();
                      })));
      inside.await();
      for (int i = 0; i < 7; i++) {
        outcomes.add(pool.submit(() -> cache.resolve(key(""), this::resolved)));
      }
      release.countDown();
      for (Future<ResolutionCache.Outcome> outcome : outcomes) {
        assertThat(outcome.get().resolution()).isEqualTo(RESOLVED);
      }
      assertThat(calls).hasValue(1);
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void theLeastRecentlyUsedEntryGoesWhenFull() {
    ResolutionCache small =
        new ResolutionCache(clock, Duration.ofSeconds(10), Duration.ofMinutes(5), 2);
    small.resolve(key("a"), this::resolved);
    clock.advance(Duration.ofSeconds(1));
    small.resolve(key("b"), this::resolved);
    clock.advance(Duration.ofSeconds(1));
    small.resolve(key("a"), this::resolved);
    clock.advance(Duration.ofSeconds(1));
    small.resolve(key("c"), this::resolved); // evicts b

    assertThat(small.resolve(key("a"), this::resolved).lookedUp()).isFalse();
    assertThat(small.resolve(key("b"), this::resolved).lookedUp()).isTrue();
  }

  private ReleaseDigests.Resolution resolved() {
    calls.incrementAndGet();
    return RESOLVED;
  }

  private ReleaseDigests.Resolution timeout() {
    calls.incrementAndGet();
    return TIMEOUT;
  }

  private static void await(CountDownLatch latch) {
    try {
      latch.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
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
