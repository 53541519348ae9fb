package io.openshiftagent.testsupport;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.javaoperatorsdk.operator.api.monitoring.Metrics;
import io.javaoperatorsdk.operator.api.reconciler.RetryInfo;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Collectors;

/**
 * Every reconcile that ended in an exception, by resource, as the operator reports it through its
 * metrics hook ({@code ConfigurationServiceOverrider.withMetrics}): the exceptions JOSDK catches,
 * logs and retries. A reconciler that reports a problem as a condition records nothing here.
 */
public final class ReconcileFailures implements Metrics {
  private final Map<String, List<Exception>> failures = new ConcurrentHashMap<>();

  @Override
  public void reconciliationFailed(
      HasMetadata resource,
      RetryInfo retryInfo,
      Exception exception,
      Map<String, Object> metadata) {
    failures.computeIfAbsent(key(resource), k -> new CopyOnWriteArrayList<>()).add(exception);
  }

  /** The exceptions reconciling {@code resource} threw (any generation, same kind and name). */
  public List<Exception> of(HasMetadata resource) {
    return List.copyOf(failures.getOrDefault(key(resource), List.of()));
  }

  public List<Exception> of(String kind, String namespace, String name) {
    return List.copyOf(failures.getOrDefault(key(kind, namespace, name), List.of()));
  }

  public int total() {
    return failures.values().stream().mapToInt(List::size).sum();
  }

  /** Each failed resource with its count and first exception, for assertion messages. */
  public String describe() {
    return failures.entrySet().stream()
        .map(e -> e.getKey() + " ×" + e.getValue().size() + ": " + e.getValue().get(0))
        .collect(Collectors.joining("\n  ", "reconcile failures:\n  ", ""));
  }

  private static String key(HasMetadata resource) {
    return key(
        resource.getKind(),
        resource.getMetadata().getNamespace(),
        resource.getMetadata().getName());
  }

  private static String key(String kind, String namespace, String name) {
    return kind + " " + namespace + "/" + name;
  }
}
