package io.openshiftagent.provider.reconcile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import org.junit.jupiter.api.Test;

class FuturesTest {
  @Test
  void aFailureInsideAFutureIsThrownAsItWas() {
    IllegalArgumentException refused = new IllegalArgumentException("refused");
    CompletableFuture<String> failed =
        CompletableFuture.supplyAsync(
            () -> {
              throw refused;
            });
    assertThatThrownBy(() -> Futures.join(failed)).isSameAs(refused);
    assertThat(Futures.join(CompletableFuture.completedFuture("made"))).isEqualTo("made");
  }

  @Test
  void aCheckedCauseIsWrappedOnce() {
    IOException io = new IOException("gone");
    assertThat(Futures.unwrap(new CompletionException(io)))
        .isInstanceOf(IllegalStateException.class)
        .hasCause(io);
    IllegalStateException plain = new IllegalStateException("plain");
    assertThat(Futures.unwrap(plain)).isSameAs(plain);
  }

  @Test
  void writersRunOnDaemonThreadsThatNeverKeepTheProcessAlive() {
    ExecutorService writers = Futures.writers(2);
    try {
      Thread writer = Futures.join(CompletableFuture.supplyAsync(Thread::currentThread, writers));
      assertThat(writer.isDaemon()).isTrue();
      assertThat(writer.getName()).isEqualTo("parallel-writer");
    } finally {
      writers.shutdownNow();
    }
  }
}
