package io.openshiftagent.bootstrap.config;

import java.time.Duration;
import java.time.Instant;

/**
 * Exponential backoff without stored attempt counts: the next try waits as long as the failure has
 * already lasted (bounded), so the waits double (5 s, 5 s, 10 s, 20 s, ...) while the failure
 * persists and start short again once it has cleared. The failure's start is the failing
 * condition's lastTransitionTime.
 */
final class Backoff {
  static final Duration FIRST = Duration.ofSeconds(5);
  static final Duration MAX = Duration.ofMinutes(5);

  private Backoff() {}

  static Duration next(Instant failingSince, Instant now) {
    Duration failingFor =
        failingSince == null ? Duration.ZERO : Duration.between(failingSince, now);
    if (failingFor.compareTo(FIRST) < 0) {
      return FIRST;
    }
    return failingFor.compareTo(MAX) > 0 ? MAX : failingFor;
  }
}
