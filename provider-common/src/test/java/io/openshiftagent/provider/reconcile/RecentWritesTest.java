package io.openshiftagent.provider.reconcile;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** Our write is seen until the cache has that version or a newer one. */
class RecentWritesTest {
  private static final Instant T0 = Instant.parse("2026-11-26T10:00:00Z");

  private final AtomicReference<Instant> now = new AtomicReference<>(T0);
  private final RecentWrites<ConfigMap> writes = new RecentWrites<>(now::get);

  @Test
  void ourWriteIsSeenUntilTheCacheCatchesUp() {
    ConfigMap before = object("a", "10", "before");
    assertThat(writes.newest(before)).isSameAs(before); // nothing written
    ConfigMap ours = object("a", "12", "ours");
    writes.record(ours);
    assertThat(writes.newest(before)).isSameAs(ours);
    assertThat(writes.newest(object("a", "11", "someone else's, older"))).isSameAs(ours);
    ConfigMap caughtUp = object("a", "12", "ours, from the informer");
    assertThat(writes.newest(caughtUp)).isSameAs(caughtUp);
    // Forgotten once the cache had it.
    assertThat(writes.newest(before)).isSameAs(before);
  }

  @Test
  void aNewerVersionFromTheCacheWins() {
    writes.record(object("a", "12", "ours"));
    ConfigMap newer = object("a", "15", "newer");
    assertThat(writes.newest(newer)).isSameAs(newer);
  }

  @Test
  void otherObjectsAndOldWritesAreNotAffected() {
    ConfigMap ours = object("a", "12", "ours");
    writes.record(ours);
    ConfigMap other = object("b", "3", "other");
    assertThat(writes.newest(other)).isSameAs(other);
    // A write whose event never came (the object went) is dropped after a while.
    now.set(T0.plus(RecentWrites.KEPT).plusSeconds(1));
    writes.record(object("c", "20", "later"));
    ConfigMap before = object("a", "10", "before");
    assertThat(writes.newest(before)).isSameAs(before);
  }

  @Test
  void versionsThatAreNotNumbersLeaveTheCachesCopy() {
    writes.record(object("a", "x2", "ours"));
    ConfigMap cached = object("a", "x1", "cached");
    assertThat(writes.newest(cached)).isSameAs(cached);
  }

  private static ConfigMap object(String uid, String resourceVersion, String value) {
    return new ConfigMapBuilder()
        .withNewMetadata()
        .withName(uid)
        .withUid(uid)
        .withResourceVersion(resourceVersion)
        .endMetadata()
        .addToData("value", value)
        .build();
  }
}
