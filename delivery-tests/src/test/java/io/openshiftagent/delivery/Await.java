package io.openshiftagent.delivery;

import java.time.Duration;
import java.util.function.Supplier;

/** Polls a condition until it holds; never a fixed sleep. */
final class Await {
  private Await() {}

  static void await(String what, Duration timeout, Supplier<Boolean> condition) {
    long deadline = System.nanoTime() + timeout.toNanos();
    RuntimeException last = null;
    while (System.nanoTime() < deadline) {
      try {
        if (Boolean.TRUE.equals(condition.get())) {
          return;
        }
      } catch (RuntimeException e) {
        last = e;
      }
      try {
        Thread.sleep(100);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new AssertionError(e);
      }
    }
    throw new AssertionError("timed out after " + timeout + " waiting until " + what, last);
  }
}
