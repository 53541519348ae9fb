package io.openshiftagent.provider.runtime;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.javaoperatorsdk.operator.Operator;
import io.javaoperatorsdk.operator.RegisteredController;
import io.javaoperatorsdk.operator.api.config.ConfigurationServiceOverrider;
import io.javaoperatorsdk.operator.api.config.ControllerConfigurationOverrider;
import io.javaoperatorsdk.operator.api.reconciler.Reconciler;
import io.javaoperatorsdk.operator.processing.retry.GenericRetry;
import io.openshiftagent.provider.reconcile.CachedObjects;
import java.time.Duration;
import java.util.function.Consumer;

/**
 * Builds the java-operator-sdk Operator both providers run their controllers in, and registers
 * those controllers, with our defaults.
 */
public final class ProviderOperator {
  /** The longest wait between two tries of a failing reconcile. */
  static final Duration MAX_RETRY_INTERVAL = Duration.ofSeconds(30);

  private ProviderOperator() {}

  /**
   * An Operator on {@code client}. {@code overrides} adds process-level settings (leader election,
   * metrics, concurrency) on top of our defaults.
   */
  public static Operator create(
      KubernetesClient client, Consumer<ConfigurationServiceOverrider> overrides) {
    return new Operator(
        o -> {
          o.withKubernetesClient(client)
              // Let in-flight reconciles finish on shutdown instead of cutting them off.
              .withReconciliationTerminationTimeout(Duration.ofSeconds(10))
              // A missing CRD or RBAC rule is reported by the readiness probe, not by exiting.
              .withStopOnInformerErrorDuringStartup(false)
              // The client is closed by whoever made it, once the Events still queued are written:
              // closed under an Event being written, it never answers, and the process-wide Event
              // writer waits for it forever (seen in OperatorRestartTest under load).
              // Our own writes (a finalizer, a status) stay in the cache until the informer has
              // that version or a newer one: java-operator-sdk compares resourceVersions (its
              // default, comparableResourceVersions), which are the API server's etcd revisions.
              .withCloseClientOnStop(false);
          overrides.accept(o);
        });
  }

  /**
   * Registers a controller with our {@link #retry()}, its cache trimmed ({@link CachedObjects}),
   * restricted by {@code scope} (see {@link ControllerScope}).
   */
  public static <P extends HasMetadata> RegisteredController<P> register(
      Operator operator,
      Reconciler<P> reconciler,
      Consumer<ControllerConfigurationOverrider<P>> scope) {
    return operator.register(
        reconciler,
        o -> {
          o.withRetry(retry());
          o.withItemStore(CachedObjects.store());
          scope.accept(o);
        });
  }

  /**
   * How a failed reconcile is tried again: after 2 s, twice, then 1.5 times later each time up to
   * {@link #MAX_RETRY_INTERVAL}, and never given up. JOSDK's default gives up after five tries,
   * about two minutes into an API outage (each try also spends some 19 s in the client's own
   * request retries); a resource whose reconcile failed until then was left alone until its next
   * event, however long after the API came back (docs/reliability.md). 30 s is about the longest
   * the informers themselves wait between two reconnects.
   */
  static GenericRetry retry() {
    return new GenericRetry()
        .setInitialInterval(Duration.ofSeconds(2))
        .setIntervalMultiplier(1.5)
        .setMaxInterval(MAX_RETRY_INTERVAL.toMillis())
        .withoutMaxAttempts();
  }
}
