package io.openshiftagent.provider.runtime;

import io.javaoperatorsdk.operator.processing.event.ResourceID;
import io.openshiftagent.provider.runtime.ReconcileProgress.Snapshot;
import io.openshiftagent.provider.runtime.ReconcileProgress.Work;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Comparator;
import java.util.List;

/**
 * What {@code /healthz} answers: 500 once reconciling is wedged, naming each stalled controller and
 * resource and since when, so that the kubelet restarts the process; 200 otherwise. Wedged is a
 * reconcile running longer than the stall timeout, or a resource waiting for a worker that long
 * while no reconcile at all finished that long. Work that waits behind reconciles that finish is
 * only a busy provider, not a wedged one.
 */
final class Liveness {
  /** At most this many stalled resources are named. */
  static final int NAMED = 10;

  private Liveness() {}

  /** The answer now, from {@code progress}. */
  static ProbeServer.Response of(ReconcileProgress progress, Duration stallTimeout) {
    return of(progress.snapshot(), System.nanoTime(), Instant.now(), stallTimeout);
  }

  /**
   * The answer at {@code nowNanos} ({@link System#nanoTime()}'s clock, which wall-clock steps do
   * not move); {@code wallNow} is the same moment, to say since when in the answer.
   */
  static ProbeServer.Response of(
      Snapshot progress, long nowNanos, Instant wallNow, Duration stallTimeout) {
    long bound = stallTimeout.toNanos();
    boolean nothingFinished = nowNanos - progress.lastFinishedNanos() > bound;
    List<Work> stalled =
        progress.work().stream()
            .filter(w -> nowNanos - w.sinceNanos() > bound && (w.running() || nothingFinished))
            .sorted(Comparator.comparingLong(Work::sinceNanos))
            .toList();
    if (stalled.isEmpty()) {
      return ProbeServer.Response.ok("ok");
    }
    StringBuilder body =
        new StringBuilder("reconciling stalled (--liveness-stall-timeout=")
            .append(flagValue(stallTimeout))
            .append("):\n");
    for (Work w : stalled.subList(0, Math.min(NAMED, stalled.size()))) {
      Duration age = Duration.ofNanos(nowNanos - w.sinceNanos());
      body.append("controller ")
          .append(w.controller())
          .append(": ")
          .append(name(w.resource()))
          .append(w.running() ? " reconciling since " : " waiting for a worker since ")
          .append(wallNow.minus(age).truncatedTo(ChronoUnit.SECONDS))
          .append(" (")
          .append(seconds(age))
          .append(")");
      if (!w.running()) {
        body.append(", no reconcile finished since ")
            .append(
                wallNow
                    .minusNanos(nowNanos - progress.lastFinishedNanos())
                    .truncatedTo(ChronoUnit.SECONDS));
      }
      body.append('\n');
    }
    if (stalled.size() > NAMED) {
      body.append("and ").append(stalled.size() - NAMED).append(" more\n");
    }
    return ProbeServer.Response.failing(body.toString());
  }

  private static String name(ResourceID id) {
    return id.getNamespace().map(ns -> ns + "/").orElse("") + id.getName();
  }

  private static String flagValue(Duration d) {
    return d.toMillis() % 1000 == 0 ? d.toSeconds() + "s" : d.toMillis() + "ms";
  }

  private static String seconds(Duration d) {
    return d.toSeconds() + "s";
  }
}
