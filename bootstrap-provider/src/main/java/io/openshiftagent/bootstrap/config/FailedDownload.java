package io.openshiftagent.bootstrap.config;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

/**
 * The last failed discovery-ignition download of one config, which holds back the next try until
 * its {@link Backoff} has passed, whatever events arrive meanwhile (our own status write, Cluster
 * API's Machine updates): the service sees growing intervals, never a burst. URLs the InfraEnv
 * publishes anew (a re-signed api_key, a regenerated image) are tried at once.
 *
 * @param urls identifies the URLs that failed, without holding them (they carry the api_key)
 * @param failingSince when the download of these URLs started failing
 * @param nextTry the earliest moment to try these URLs again
 * @param retryable whether to try again by itself at {@code nextTry}; otherwise only an event after
 *     it (or new URLs) brings the next try
 */
record FailedDownload(
    int urls,
    Instant failingSince,
    Instant nextTry,
    String reason,
    String message,
    boolean retryable) {

  /** One value for the pair of URLs a download uses. */
  static int urls(String discoveryIgnitionUrl, String eventsUrl) {
    return Objects.hash(discoveryIgnitionUrl, eventsUrl);
  }

  /** The failure of a try at {@code now}; {@code previous} is the config's last one, or null. */
  static FailedDownload after(
      FailedDownload previous,
      int urls,
      Instant now,
      String reason,
      String message,
      boolean retryable) {
    Instant since = previous != null && previous.urls == urls ? previous.failingSince : now;
    return new FailedDownload(
        urls, since, now.plus(Backoff.next(since, now)), reason, message, retryable);
  }

  /** Whether a try of {@code urls} at {@code now} must wait. */
  boolean holdsBack(int urls, Instant now) {
    return this.urls == urls && now.isBefore(nextTry);
  }

  /** How long from {@code now} until the next try, never negative. */
  Duration untilNextTry(Instant now) {
    Duration left = Duration.between(now, nextTry);
    return left.isNegative() ? Duration.ZERO : left;
  }
}
