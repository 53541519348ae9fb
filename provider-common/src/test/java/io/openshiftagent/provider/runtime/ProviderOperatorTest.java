package io.openshiftagent.provider.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.javaoperatorsdk.operator.RegisteredController;
import io.javaoperatorsdk.operator.processing.retry.GenericRetry;
import io.javaoperatorsdk.operator.processing.retry.RetryExecution;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A failed reconcile is tried again as long as it fails, however long an API outage lasts. */
class ProviderOperatorTest {

  @Test
  void aFailingReconcileIsTriedAgainForeverAtMostEveryThirtySeconds() {
    RetryExecution retry = ProviderOperator.retry().initExecution();
    List<Long> delays = new ArrayList<>();
    for (int attempt = 0; attempt < 1000; attempt++) {
      delays.add(retry.nextDelay().orElseThrow());
    }
    assertThat(delays.subList(0, 3)).containsExactly(2000L, 2000L, 3000L);
    assertThat(delays).isSorted().allMatch(delay -> delay <= 30_000L);
    assertThat(delays.get(999)).isEqualTo(30_000L);
  }

  @Test
  void controllersAreRegisteredWithThatRetry() {
    try (KubernetesClient client =
        new KubernetesClientBuilder()
            .withConfig(new ConfigBuilder().withMasterUrl("https://127.0.0.1:1").build())
            .build()) {
      RegisteredController<?> controller =
          ProviderOperator.register(
              ProviderOperator.create(client, o -> {}),
              new ProviderRuntimeTest.RecordingReconciler(),
              ControllerScope.EVERYTHING.apply());
      GenericRetry retry = (GenericRetry) controller.getConfiguration().getRetry();
      assertThat(retry.getMaxAttempts()).isEqualTo(-1);
      assertThat(retry.getMaxInterval()).isEqualTo(30_000L);
    }
  }
}
