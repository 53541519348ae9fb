package io.openshiftagent.registry;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

/**
 * Remembers resolutions, so that reconciles never turn into registry requests. A digest found is
 * kept until the key changes: another image, architectures, mirrors, trusted CAs or pull secret, or
 * a new re-resolution token (the explicit, visible way to look a tag up again). A failure is kept
 * until its retry time, which doubles with each failure in a row ({@code firstRetry} up to {@code
 * maxRetry}). Concurrent reconciles of one key wait for one lookup.
 */
public final class ResolutionCache {
  private final Clock clock;
  private final Duration firstRetry;
  private final Duration maxRetry;
  private final int maxEntries;
  private final Map<Key, Entry> entries = new ConcurrentHashMap<>();
  private final AtomicLong lookups = new AtomicLong();

  public ResolutionCache(Clock clock, Duration firstRetry, Duration maxRetry, int maxEntries) {
    this.clock = clock;
    this.firstRetry = firstRetry;
    this.maxRetry = maxRetry;
    this.maxEntries = maxEntries;
  }

  /**
   * What a resolution depends on. Fingerprints stand for the pull secret, mirrors and CAs, so the
   * cache holds no secret.
   */
  public record Key(
      String image,
      Set<String> architectures,
      String pullSecret,
      String mirrors,
      String trust,
      String token) {}

  /**
   * A resolution and, for a failure, when it may be tried again.
   *
   * @param lookedUp whether this call asked the registries (else it came from the cache)
   */
  public record Outcome(ReleaseDigests.Resolution resolution, Instant retryAt, boolean lookedUp) {}

  /** The cached resolution of {@code key}, else {@code lookup}'s (then cached). */
  public Outcome resolve(Key key, Supplier<ReleaseDigests.Resolution> lookup) {
    Entry entry = entries.computeIfAbsent(key, k -> new Entry());
    if (entries.size() > maxEntries) {
      evictLeastRecentlyUsed(key);
    }
    return entry.get(lookup);
  }

  /** How many lookups reached the registries since start: what a benchmark of storms counts. */
  public long lookups() {
    return lookups.get();
  }

  private void evictLeastRecentlyUsed(Key keep) {
    entries.entrySet().stream()
        .filter(e -> !e.getKey().equals(keep))
        .min(Comparator.comparing(e -> e.getValue().lastUsed))
        .ifPresent(e -> entries.remove(e.getKey(), e.getValue()));
  }

  private final class Entry {
    private ReleaseDigests.Resolution resolution;
    private int failuresInARow;
    private Instant retryAt;
    private volatile Instant lastUsed = clock.instant();

    synchronized Outcome get(Supplier<ReleaseDigests.Resolution> lookup) {
      Instant now = clock.instant();
      lastUsed = now;
      if (resolution instanceof ReleaseDigests.Resolved) {
        return new Outcome(resolution, null, false);
      }
      if (resolution != null && now.isBefore(retryAt)) {
        return new Outcome(resolution, retryAt, false);
      }
      lookups.incrementAndGet();
      resolution = lookup.get();
      if (resolution instanceof ReleaseDigests.Resolved) {
        failuresInARow = 0;
        retryAt = null;
      } else {
        failuresInARow++;
        retryAt = clock.instant().plus(backoff(failuresInARow));
      }
      return new Outcome(resolution, retryAt, true);
    }
  }

  Duration backoff(int failuresInARow) {
    Duration wait = firstRetry;
    for (int i = 1; i < failuresInARow && wait.compareTo(maxRetry) < 0; i++) {
      wait = wait.multipliedBy(2);
    }
    return wait.compareTo(maxRetry) > 0 ? maxRetry : wait;
  }
}
