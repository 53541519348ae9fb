package io.openshiftagent.provider.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.javaoperatorsdk.operator.api.reconciler.Constants;
import io.javaoperatorsdk.operator.processing.event.ResourceID;
import io.openshiftagent.provider.runtime.ReconcileProgress.Work;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * The bookkeeping behind {@link Liveness}, driven with java-operator-sdk's callbacks in the order
 * its EventProcessor makes them (the worker's own calls on one thread).
 */
class ReconcileProgressTest {
  private static final Map<String, Object> CONFIGS = Map.of(Constants.CONTROLLER_NAME, "configs");
  private static final Map<String, Object> OTHER = Map.of(Constants.CONTROLLER_NAME, "other");
  private static final ConfigMap A =
      new ConfigMapBuilder()
          .withNewMetadata()
          .withNamespace("ns")
          .withName("a")
          .endMetadata()
          .build();

  private final AtomicLong clock = new AtomicLong(1_000);
  private final ReconcileProgress progress = new ReconcileProgress(clock::get);

  @Test
  void workIsWaitingThenRunningThenGone() {
    assertThat(progress.snapshot().work()).isEmpty();
    assertThat(progress.snapshot().lastFinishedNanos()).isEqualTo(1_000);

    clock.set(2_000);
    progress.reconciliationSubmitted(A, null, CONFIGS);
    assertThat(progress.snapshot().work())
        .containsExactly(new Work("configs", ResourceID.fromResource(A), false, 2_000));

    clock.set(3_000);
    progress.reconciliationStarted(A, CONFIGS);
    assertThat(progress.snapshot().work())
        .containsExactly(new Work("configs", ResourceID.fromResource(A), true, 3_000));

    clock.set(4_000);
    progress.reconciliationFinished(A, null, CONFIGS);
    assertThat(progress.snapshot().work()).isEmpty();
    assertThat(progress.snapshot().lastFinishedNanos()).isEqualTo(4_000);
  }

  /** JOSDK submits again from the worker when events came meanwhile, before it calls finished. */
  @Test
  void aSubmissionMadeByTheFinishingWorkerStaysTracked() {
    progress.reconciliationSubmitted(A, null, CONFIGS);
    progress.reconciliationStarted(A, CONFIGS);
    clock.set(5_000);
    progress.reconciliationSubmitted(A, null, CONFIGS);
    progress.reconciliationFinished(A, null, CONFIGS);
    assertThat(progress.snapshot().work())
        .containsExactly(new Work("configs", ResourceID.fromResource(A), false, 5_000));
  }

  /** A resource gone from JOSDK's cache is finished without ever being started. */
  @Test
  void workNeverStartedIsForgottenWhenFinished() {
    progress.reconciliationSubmitted(A, null, CONFIGS);
    progress.reconciliationFinished(A, null, CONFIGS);
    assertThat(progress.snapshot().work()).isEmpty();
  }

  @Test
  void aDeletedResourceIsForgottenUnlessAWorkerStillReconcilesIt() {
    progress.reconciliationSubmitted(A, null, CONFIGS);
    progress.cleanupDone(ResourceID.fromResource(A), CONFIGS);
    assertThat(progress.snapshot().work()).isEmpty();

    progress.reconciliationSubmitted(A, null, CONFIGS);
    progress.reconciliationStarted(A, CONFIGS);
    progress.cleanupDone(ResourceID.fromResource(A), CONFIGS);
    assertThat(progress.snapshot().work()).extracting(Work::running).containsExactly(true);
  }

  @Test
  void controllersAreTrackedApart() {
    progress.reconciliationSubmitted(A, null, CONFIGS);
    progress.reconciliationSubmitted(A, null, OTHER);
    assertThat(progress.snapshot().work())
        .extracting(Work::controller)
        .containsExactlyInAnyOrder("configs", "other");
  }
}
