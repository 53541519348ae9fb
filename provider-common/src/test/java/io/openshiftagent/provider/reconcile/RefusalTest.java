package io.openshiftagent.provider.reconcile;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.StatusBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import org.junit.jupiter.api.Test;

class RefusalTest {
  @Test
  void invalidBadAndTooLargeWritesAreRefusalsWithTheApiServersMessage() {
    assertThat(Refusal.of(failure(422, "spec.networking.networkType: Unsupported value")))
        .hasValue("spec.networking.networkType: Unsupported value");
    assertThat(Refusal.of(failure(400, "bad request"))).isPresent();
    assertThat(Refusal.of(failure(413, "Request entity too large"))).isPresent();
    assertThat(Refusal.of(failure(500, "etcdserver: request is too large"))).isPresent();
  }

  @Test
  void conflictsOutagesAndMissingObjectsAreNotRefusals() {
    for (int code : new int[] {404, 409, 429, 503}) {
      assertThat(Refusal.of(failure(code, "transient"))).as("HTTP %d", code).isEmpty();
    }
    assertThat(Refusal.of(failure(500, "internal error"))).isEmpty();
  }

  @Test
  void aHugeMessageIsShortened() {
    String message = Refusal.of(failure(422, "x".repeat(100_000))).orElseThrow();
    assertThat(message).hasSize(Refusal.MAX_MESSAGE + 3).endsWith("...");
  }

  private static KubernetesClientException failure(int code, String message) {
    return new KubernetesClientException(
        new StatusBuilder().withCode(code).withMessage(message).build());
  }
}
