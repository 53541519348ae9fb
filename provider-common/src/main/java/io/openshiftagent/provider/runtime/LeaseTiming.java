package io.openshiftagent.provider.runtime;

import java.time.Duration;

/**
 * The Lease's timings ({@code --leader-elect-lease-duration}, {@code
 * --leader-elect-renew-deadline}, {@code --leader-elect-retry-period}), checked as client-go checks
 * them.
 */
public record LeaseTiming(Duration leaseDuration, Duration renewDeadline, Duration retryPeriod) {
  /** client-go's defaults, which Cluster API's managers keep. */
  public static final LeaseTiming DEFAULT =
      new LeaseTiming(Duration.ofSeconds(15), Duration.ofSeconds(10), Duration.ofSeconds(2));

  public LeaseTiming {
    if (leaseDuration.compareTo(renewDeadline) <= 0) {
      throw new IllegalArgumentException(
          "--leader-elect-lease-duration must be longer than --leader-elect-renew-deadline");
    }
    // client-go: the renew deadline must exceed the retry period with its jitter (1.2).
    if (renewDeadline.compareTo(retryPeriod.multipliedBy(12).dividedBy(10)) <= 0) {
      throw new IllegalArgumentException(
          "--leader-elect-renew-deadline must be longer than 1.2 x --leader-elect-retry-period");
    }
  }

  /**
   * Per Lease request. A renew is one request ({@link OptimisticLeaseLock}); one that times out,
   * the retry period and one more renew fit in the renew deadline. Shorter would fail renews that a
   * loaded API server answers in a few seconds (2.5 s did, under a load of 40 on two cores).
   */
  Duration requestTimeout() {
    return renewDeadline.minus(retryPeriod).dividedBy(2);
  }
}
