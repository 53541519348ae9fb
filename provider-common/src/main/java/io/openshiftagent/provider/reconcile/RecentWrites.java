package io.openshiftagent.provider.reconcile;

import io.fabric8.kubernetes.api.model.HasMetadata;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * Our last write of each object, until the cache has it: a reconcile that runs before the write's
 * own event sees what we wrote, not the version before, and does not write it again. The informer's
 * cache keeps a write only while nothing else changed the object in between (the JOSDK primary
 * cache), or not at all (a secondary's), and its watch lags under load: assisted-service updates an
 * Agent's status while it registers, so an approval we had just written was written twice, and at
 * 50 clusters a control-plane Machine's UpToDate condition was applied about twice (in the hub's
 * audit log). Versions are compared as the API server's etcd revisions. A write whose object went
 * before its event came is dropped after {@link #KEPT}.
 */
public final class RecentWrites<T extends HasMetadata> {
  /** Far longer than a cache takes to see a write. */
  static final Duration KEPT = Duration.ofMinutes(1);

  private record Write<T>(T object, Instant at) {}

  private final Supplier<Instant> now;
  private final Map<String, Write<T>> written = new ConcurrentHashMap<>();

  /**
   * @param now the time now (a clock's instant)
   */
  public RecentWrites(Supplier<Instant> now) {
    this.now = now;
  }

  /** {@code object} as the API server answered our write. */
  public void record(T object) {
    Instant at = now.get();
    written.values().removeIf(w -> w.at().plus(KEPT).isBefore(at));
    written.put(object.getMetadata().getUid(), new Write<>(object, at));
  }

  /** {@code cached}, or our write of it when that is newer. */
  public T newest(T cached) {
    String uid = cached.getMetadata().getUid();
    Write<T> ours = written.get(uid);
    if (ours == null) {
      return cached;
    }
    OptionalLong cachedVersion = version(cached);
    OptionalLong ourVersion = version(ours.object());
    if (cachedVersion.isPresent()
        && ourVersion.isPresent()
        && cachedVersion.getAsLong() < ourVersion.getAsLong()) {
      return ours.object();
    }
    written.remove(uid, ours);
    return cached;
  }

  private static OptionalLong version(HasMetadata object) {
    try {
      return OptionalLong.of(Long.parseLong(object.getMetadata().getResourceVersion()));
    } catch (NumberFormatException e) {
      return OptionalLong.empty();
    }
  }
}
