package io.openshiftagent.provider.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import io.javaoperatorsdk.operator.processing.event.ResourceID;
import io.openshiftagent.provider.runtime.ReconcileProgress.Snapshot;
import io.openshiftagent.provider.runtime.ReconcileProgress.Work;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The liveness decision: work in flight and the clock in, 200 or 500 with the reason out. */
class LivenessTest {
  private static final Duration TIMEOUT = Duration.ofMinutes(5);
  private static final long NOW = Duration.ofHours(3).toNanos();
  private static final Instant WALL_NOW = Instant.parse("2026-01-01T12:00:00Z");

  /** {@code secondsAgo} before now. */
  private static long ago(long secondsAgo) {
    return NOW - Duration.ofSeconds(secondsAgo).toNanos();
  }

  private static Work running(String name, long secondsAgo) {
    return new Work("configs", new ResourceID(name, "ns"), true, ago(secondsAgo));
  }

  private static Work waiting(String name, long secondsAgo) {
    return new Work("configs", new ResourceID(name, "ns"), false, ago(secondsAgo));
  }

  static Stream<Arguments> cases() {
    return Stream.of(
        Arguments.of("nothing in flight, nothing ever finished", List.of(), 3600, 200),
        Arguments.of(
            "a reconcile running just under the bound", List.of(running("a", 299)), 0, 200),
        Arguments.of("a reconcile running over the bound", List.of(running("a", 301)), 0, 500),
        Arguments.of(
            "work waiting over the bound behind reconciles that finish: busy, not wedged",
            List.of(waiting("a", 400)),
            1,
            200),
        Arguments.of(
            "work waiting over the bound and no reconcile finished that long",
            List.of(waiting("a", 400)),
            301,
            500),
        Arguments.of(
            "an idle provider's new work, waiting under the bound",
            List.of(waiting("a", 10)),
            3600,
            200),
        Arguments.of(
            "one stalled reconcile among healthy ones",
            List.of(running("a", 1), waiting("b", 2), running("c", 600)),
            0,
            500));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void healthyUnlessAReconcileRunsOrWorkWaitsWithNoProgressPastTheBound(
      String name, List<Work> work, long lastFinishedSecondsAgo, int status) {
    ProbeServer.Response response =
        Liveness.of(new Snapshot(work, ago(lastFinishedSecondsAgo)), NOW, WALL_NOW, TIMEOUT);
    assertThat(response.status()).isEqualTo(status);
    if (status == 200) {
      assertThat(response.body()).isEqualTo("ok");
    }
  }

  @Test
  void theAnswerNamesTheControllerTheResourceAndSinceWhen() {
    Snapshot progress =
        new Snapshot(
            List.of(
                running("healthy", 3),
                waiting("queued", 420),
                new Work("control-planes", new ResourceID("wedged", "team-a"), true, ago(360))),
            ago(330));
    ProbeServer.Response response = Liveness.of(progress, NOW, WALL_NOW, TIMEOUT);
    assertThat(response.status()).isEqualTo(500);
    assertThat(response.body())
        .isEqualTo(
            """
            reconciling stalled (--liveness-stall-timeout=300s):
            controller configs: ns/queued waiting for a worker since 2026-01-01T11:53:00Z (420s),\
             no reconcile finished since 2026-01-01T11:54:30Z
            controller control-planes: team-a/wedged reconciling since 2026-01-01T11:54:00Z (360s)
            """);
  }

  @Test
  void aClusterScopedResourceIsNamedAlone() {
    Snapshot progress =
        new Snapshot(List.of(new Work("images", new ResourceID("img"), true, ago(301))), NOW);
    assertThat(Liveness.of(progress, NOW, WALL_NOW, Duration.ofMillis(1500)).body())
        .isEqualTo(
            """
            reconciling stalled (--liveness-stall-timeout=1500ms):
            controller images: img reconciling since 2026-01-01T11:54:59Z (301s)
            """);
  }

  @Test
  void atMostTenAreNamedOldestFirst() {
    List<Work> work = new ArrayList<>();
    for (int i = 0; i < 13; i++) {
      work.add(running("r" + i, 400 + i));
    }
    String body = Liveness.of(new Snapshot(work, NOW), NOW, WALL_NOW, TIMEOUT).body();
    assertThat(body.lines()).hasSize(12);
    assertThat(body.lines().skip(1).findFirst())
        .hasValueSatisfying(l -> assertThat(l).contains("ns/r12 "));
    assertThat(body).doesNotContain("ns/r2 ").endsWith("and 3 more\n");
  }
}
