package io.openshiftagent.provider;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.javaoperatorsdk.operator.Operator;
import io.javaoperatorsdk.operator.api.config.ConfigurationServiceOverrider;
import java.time.Duration;
import java.util.function.Consumer;

/**
 * Builds the java-operator-sdk Operator both providers run their controllers in, with our defaults.
 */
public final class ProviderOperator {
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
              .withStopOnInformerErrorDuringStartup(false);
          overrides.accept(o);
        });
  }
}
