package io.openshiftagent.provider.runtime;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.javaoperatorsdk.operator.api.monitoring.Metrics;
import io.javaoperatorsdk.operator.api.reconciler.BaseControl;
import io.javaoperatorsdk.operator.api.reconciler.Constants;
import io.javaoperatorsdk.operator.api.reconciler.RetryInfo;
import io.javaoperatorsdk.operator.processing.Controller;
import io.javaoperatorsdk.operator.processing.event.ResourceID;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The reconcile and work-queue metrics under controller-runtime's names and labels, which Cluster
 * API's dashboards and alerts query, recorded from java-operator-sdk's callbacks:
 *
 * <ul>
 *   <li>{@code controller_runtime_reconcile_total{controller,result}}: result {@code success},
 *       {@code error} or {@code requeue_after} (a reconcile that asked to run again later);
 *   <li>{@code controller_runtime_reconcile_errors_total{controller}};
 *   <li>{@code controller_runtime_reconcile_time_seconds{controller}}: a histogram with
 *       controller-runtime's buckets;
 *   <li>{@code controller_runtime_active_workers{controller}};
 *   <li>{@code workqueue_depth}, {@code workqueue_adds_total}, {@code workqueue_retries_total} and
 *       {@code workqueue_queue_duration_seconds}, labelled {@code name} and {@code controller}: a
 *       reconcile submitted and waiting for a worker is in the queue (java-operator-sdk has no
 *       queue of its own; a retry waiting for its delay is not in it, as in controller-runtime).
 * </ul>
 *
 * Labels name controllers and results only, never objects: the series stay few.
 */
final class ControllerRuntimeMetrics implements Metrics {
  /** controller-runtime's buckets of {@code controller_runtime_reconcile_time_seconds}. */
  private static final double[] RECONCILE_BUCKETS = {
    0.005, 0.01, 0.025, 0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.45, 0.5, 0.6, 0.7, 0.8, 0.9,
    1.0, 1.25, 1.5, 1.75, 2.0, 2.5, 3.0, 3.5, 4.0, 4.5, 5, 6, 7, 8, 9, 10, 15, 20, 25, 30, 40, 50,
    60
  };

  /** client-go's work-queue buckets: 1 µs to 10 s by powers of ten. */
  private static final double[] QUEUE_BUCKETS = {1e-6, 1e-5, 1e-4, 1e-3, 1e-2, 1e-1, 1, 10};

  private final MeterRegistry registry;
  private final Map<String, AtomicInteger> active = new ConcurrentHashMap<>();
  private final Map<String, AtomicInteger> depth = new ConcurrentHashMap<>();
  private final Map<ResourceID, Long> queuedAt = new ConcurrentHashMap<>();

  ControllerRuntimeMetrics(MeterRegistry registry) {
    this.registry = registry;
  }

  @Override
  public void controllerRegistered(Controller<? extends HasMetadata> controller) {
    String name = controller.getConfiguration().getName();
    // Every series from the start, at zero, as controller-runtime registers them.
    for (String result : new String[] {"success", "error", "requeue_after"}) {
      reconciles(name, result);
    }
    errors(name);
    reconcileTime(name);
    gauge("controller_runtime_active_workers", name, active, "controller");
    gauge("workqueue_depth", name, depth, "name");
    adds(name);
    retries(name);
    queueDuration(name);
  }

  @Override
  public void reconciliationSubmitted(
      HasMetadata resource, RetryInfo retry, Map<String, Object> metadata) {
    String name = controller(metadata);
    adds(name).increment();
    if (retry != null && retry.getAttemptCount() > 0) {
      retries(name).increment();
    }
    depth.computeIfAbsent(name, n -> new AtomicInteger()).incrementAndGet();
    queuedAt.put(ResourceID.fromResource(resource), System.nanoTime());
  }

  @Override
  public void reconciliationStarted(HasMetadata resource, Map<String, Object> metadata) {
    String name = controller(metadata);
    depth.computeIfAbsent(name, n -> new AtomicInteger()).updateAndGet(d -> Math.max(0, d - 1));
    Long queued = queuedAt.remove(ResourceID.fromResource(resource));
    if (queued != null) {
      queueDuration(name).record(Duration.ofNanos(System.nanoTime() - queued));
    }
  }

  @Override
  public void cleanupDone(ResourceID resource, Map<String, Object> metadata) {
    queuedAt.remove(resource);
  }

  @Override
  public <T> T timeControllerExecution(ControllerExecution<T> execution) throws Exception {
    String name = execution.controllerName();
    AtomicInteger workers = active.computeIfAbsent(name, n -> new AtomicInteger());
    workers.incrementAndGet();
    long started = System.nanoTime();
    try {
      T result = execution.execute();
      boolean later =
          result instanceof BaseControl<?> control && control.getScheduleDelay().isPresent();
      reconciles(name, later ? "requeue_after" : "success").increment();
      return result;
    } catch (Exception e) {
      reconciles(name, "error").increment();
      errors(name).increment();
      throw e;
    } finally {
      reconcileTime(name).record(Duration.ofNanos(System.nanoTime() - started));
      workers.decrementAndGet();
    }
  }

  private static String controller(Map<String, Object> metadata) {
    return String.valueOf(metadata.getOrDefault(Constants.CONTROLLER_NAME, "unknown"));
  }

  private Counter reconciles(String controller, String result) {
    return Counter.builder("controller_runtime_reconcile")
        .description("Total number of reconciliations per controller")
        .tags("controller", controller, "result", result)
        .register(registry);
  }

  private Counter errors(String controller) {
    return Counter.builder("controller_runtime_reconcile_errors")
        .description("Total number of reconciliation errors per controller")
        .tag("controller", controller)
        .register(registry);
  }

  private Timer reconcileTime(String controller) {
    return Timer.builder("controller_runtime_reconcile_time")
        .description("Length of time per reconciliation per controller")
        .tag("controller", controller)
        .serviceLevelObjectives(durations(RECONCILE_BUCKETS))
        .register(registry);
  }

  private Counter adds(String controller) {
    return Counter.builder("workqueue_adds")
        .description("Total number of adds handled by workqueue")
        .tags("name", controller, "controller", controller)
        .register(registry);
  }

  private Counter retries(String controller) {
    return Counter.builder("workqueue_retries")
        .description("Total number of retries handled by workqueue")
        .tags("name", controller, "controller", controller)
        .register(registry);
  }

  private Timer queueDuration(String controller) {
    return Timer.builder("workqueue_queue_duration")
        .description("How long in seconds an item stays in workqueue before being requested")
        .tags("name", controller, "controller", controller)
        .serviceLevelObjectives(durations(QUEUE_BUCKETS))
        .register(registry);
  }

  private void gauge(
      String metric, String controller, Map<String, AtomicInteger> values, String label) {
    AtomicInteger value = values.computeIfAbsent(controller, n -> new AtomicInteger());
    var builder =
        io.micrometer.core.instrument.Gauge.builder(metric, value, AtomicInteger::get)
            .tag(label, controller);
    if (label.equals("name")) {
      builder.tag("controller", controller);
    }
    builder.register(registry);
  }

  private static Duration[] durations(double[] seconds) {
    Duration[] durations = new Duration[seconds.length];
    for (int i = 0; i < seconds.length; i++) {
      durations[i] = Duration.ofNanos((long) (seconds[i] * 1e9));
    }
    return durations;
  }
}
