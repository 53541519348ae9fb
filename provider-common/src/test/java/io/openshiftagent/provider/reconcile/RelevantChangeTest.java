package io.openshiftagent.provider.reconcile;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RelevantChangeTest {
  private final ConfigMap old =
      new ConfigMapBuilder()
          .withNewMetadata()
          .withName("a")
          .withGeneration(1L)
          .withResourceVersion("1")
          .withLabels(Map.of("l", "1"))
          .endMetadata()
          .withData(Map.of("k", "v"))
          .build();

  @Test
  void aNewResourceVersionAloneIsNotRelevant() {
    ConfigMap updated =
        new ConfigMapBuilder(old).editMetadata().withResourceVersion("2").endMetadata().build();
    assertThat(RelevantChange.ofMetadata(updated, old)).isFalse();
  }

  @Test
  void generationLabelsAnnotationsFinalizersAndDeletionAreRelevant() {
    assertThat(
            RelevantChange.ofMetadata(
                new ConfigMapBuilder(old).editMetadata().withGeneration(2L).endMetadata().build(),
                old))
        .isTrue();
    assertThat(
            RelevantChange.ofMetadata(
                new ConfigMapBuilder(old)
                    .editMetadata()
                    .addToLabels("l", "2")
                    .endMetadata()
                    .build(),
                old))
        .isTrue();
    assertThat(
            RelevantChange.ofMetadata(
                new ConfigMapBuilder(old)
                    .editMetadata()
                    .addToAnnotations("cluster.x-k8s.io/paused", "")
                    .endMetadata()
                    .build(),
                old))
        .isTrue();
    assertThat(
            RelevantChange.ofMetadata(
                new ConfigMapBuilder(old).editMetadata().addToFinalizers("f").endMetadata().build(),
                old))
        .isTrue();
    assertThat(
            RelevantChange.ofMetadata(
                new ConfigMapBuilder(old)
                    .editMetadata()
                    .withDeletionTimestamp("2026-01-01T00:00:00Z")
                    .endMetadata()
                    .build(),
                old))
        .isTrue();
  }

  @Test
  void whatTheReconcileReadsIsRelevantTheRestIsNot() {
    ConfigMap otherData =
        new ConfigMapBuilder(old).withData(Map.of("k", "v", "other", "x")).build();
    assertThat(RelevantChange.ofMetadataOr(otherData, old, c -> c.getData().get("k"))).isFalse();
    ConfigMap changed = new ConfigMapBuilder(old).withData(Map.of("k", "w")).build();
    assertThat(RelevantChange.ofMetadataOr(changed, old, c -> c.getData().get("k"))).isTrue();
  }
}
