package io.openshiftagent.provider.runtime;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.javaoperatorsdk.operator.api.monitoring.Metrics;
import io.javaoperatorsdk.operator.api.reconciler.Constants;
import io.javaoperatorsdk.operator.api.reconciler.RetryInfo;
import io.javaoperatorsdk.operator.processing.event.ResourceID;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;

/**
 * What reconciling is doing, from java-operator-sdk's callbacks: each resource waiting for a worker
 * or being reconciled, since when, and when a reconcile last finished. {@link Liveness} judges it.
 * It keeps one map entry per resource in flight and nothing else.
 *
 * <p>java-operator-sdk may submit a resource again from within its worker, after the reconcile and
 * before {@code reconciliationFinished}: the worker then removes only the entry it put itself, so
 * that new submission stays tracked.
 */
final class ReconcileProgress implements Metrics {
  /** A resource waiting for a worker ({@code running} false) or being reconciled, since then. */
  record Work(String controller, ResourceID resource, boolean running, long sinceNanos) {}

  /** The work in flight and when a reconcile last finished (or tracking began). */
  record Snapshot(List<Work> work, long lastFinishedNanos) {}

  private final LongSupplier nanos;
  private final Map<String, Map<ResourceID, Work>> work = new ConcurrentHashMap<>();
  private final ThreadLocal<Work> started = new ThreadLocal<>();
  private volatile long lastFinished;

  ReconcileProgress() {
    this(System::nanoTime);
  }

  ReconcileProgress(LongSupplier nanos) {
    this.nanos = nanos;
    this.lastFinished = nanos.getAsLong();
  }

  Snapshot snapshot() {
    List<Work> all = new ArrayList<>();
    work.values().forEach(resources -> all.addAll(resources.values()));
    return new Snapshot(all, lastFinished);
  }

  @Override
  public void reconciliationSubmitted(
      HasMetadata resource, RetryInfo retry, Map<String, Object> metadata) {
    String controller = controller(metadata);
    ResourceID id = ResourceID.fromResource(resource);
    of(controller).put(id, new Work(controller, id, false, nanos.getAsLong()));
  }

  @Override
  public void reconciliationStarted(HasMetadata resource, Map<String, Object> metadata) {
    String controller = controller(metadata);
    ResourceID id = ResourceID.fromResource(resource);
    Work running = new Work(controller, id, true, nanos.getAsLong());
    of(controller).put(id, running);
    started.set(running);
  }

  @Override
  public void reconciliationFinished(
      HasMetadata resource, RetryInfo retry, Map<String, Object> metadata) {
    Work mine = started.get();
    started.set(null);
    lastFinished = nanos.getAsLong();
    Map<ResourceID, Work> resources = of(controller(metadata));
    if (mine != null) {
      resources.remove(mine.resource(), mine);
    } else {
      // Never started: the resource had left the cache by the time a worker took it.
      resources.remove(ResourceID.fromResource(resource));
    }
  }

  /** The resource is gone: forget it unless a worker still reconciles it. */
  @Override
  public void cleanupDone(ResourceID resource, Map<String, Object> metadata) {
    of(controller(metadata)).computeIfPresent(resource, (id, w) -> w.running() ? w : null);
  }

  private Map<ResourceID, Work> of(String controller) {
    return work.computeIfAbsent(controller, c -> new ConcurrentHashMap<>());
  }

  private static String controller(Map<String, Object> metadata) {
    return String.valueOf(metadata.getOrDefault(Constants.CONTROLLER_NAME, "unknown"));
  }
}
