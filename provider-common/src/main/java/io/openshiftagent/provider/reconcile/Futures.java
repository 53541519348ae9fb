package io.openshiftagent.provider.reconcile;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * Writes made in parallel, waited for: their failures as they were thrown (a {@code
 * KubernetesClientException} a caller reports), not wrapped in a {@link CompletionException}.
 */
public final class Futures {
  private Futures() {}

  /**
   * Threads for writes that do not depend on each other, made at once. Each mostly waits for the
   * API server.
   */
  public static ExecutorService writers(int threads) {
    return Executors.newFixedThreadPool(threads, DaemonThreads.named("parallel-writer"));
  }

  /** Waits for {@code write}; its failure is thrown as it was. */
  public static <T> T join(CompletableFuture<T> write) {
    try {
      return write.join();
    } catch (CompletionException e) {
      throw unwrap(e);
    }
  }

  /** A failure inside a future, as it was thrown there. */
  public static RuntimeException unwrap(Throwable failure) {
    Throwable cause =
        failure instanceof CompletionException && failure.getCause() != null
            ? failure.getCause()
            : failure;
    return cause instanceof RuntimeException r ? r : new IllegalStateException(cause);
  }
}
