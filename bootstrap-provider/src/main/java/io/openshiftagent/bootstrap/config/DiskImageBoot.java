package io.openshiftagent.bootstrap.config;

import io.openshiftagent.api.bootstrap.v1alpha2.OpenshiftAssistedConfig;
import io.openshiftagent.bootstrap.config.ConfigStatus.Outcome;
import io.openshiftagent.bootstrap.config.ConfigSteps.DownloadIgnition;
import io.openshiftagent.bootstrap.ignition.DiscoveryIgnitionSource;
import io.openshiftagent.bootstrap.ignition.IgnitionMerge;
import io.openshiftagent.bootstrap.names.Reasons;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The DiskImage boot mode's download: the discovery ignition from assisted-service, with the node
 * registration merged in, becomes the bootstrap data that Metal3 hands to a CoreOS disk image. Each
 * config's last failure is remembered (by UID, in this process) to hold back the next try.
 */
final class DiskImageBoot {
  private final DiscoveryIgnitionSource discoveryIgnition;

  /** Each config's last failed discovery-ignition download (by UID), for the backoff. */
  private final Map<String, FailedDownload> failedDownloads = new ConcurrentHashMap<>();

  DiskImageBoot(DiscoveryIgnitionSource discoveryIgnition) {
    this.discoveryIgnition = discoveryIgnition;
  }

  /** The bootstrap data, or why there is none yet. */
  sealed interface Result {}

  record Data(String ignition) implements Result {}

  record Failed(Outcome outcome) implements Result {}

  Optional<FailedDownload> lastFailure(OpenshiftAssistedConfig config) {
    return Optional.ofNullable(failedDownloads.get(config.getMetadata().getUid()));
  }

  Result download(OpenshiftAssistedConfig config, DownloadIgnition step) {
    int urls = FailedDownload.urls(step.discoveryIgnitionUrl(), step.eventsUrl());
    String merged;
    try {
      merged =
          IgnitionMerge.merge(
              discoveryIgnition.download(
                  config.getMetadata().getNamespace(),
                  step.discoveryIgnitionUrl(),
                  step.eventsUrl()),
              config.getSpec().nodeRegistration);
    } catch (DiscoveryIgnitionSource.DownloadException e) {
      return failed(
          config,
          urls,
          Reasons.DISCOVERY_IGNITION_DOWNLOAD_FAILED,
          "downloading the discovery ignition failed: " + e.getMessage(),
          e.retryable());
    } catch (IllegalArgumentException e) {
      return failed(config, urls, Reasons.INVALID_DISCOVERY_IGNITION, e.getMessage(), true);
    }
    forget(config);
    return new Data(merged);
  }

  void forget(OpenshiftAssistedConfig config) {
    failedDownloads.remove(config.getMetadata().getUid());
  }

  /** Records a failed try and reports it; the next try waits for the backoff. */
  private Failed failed(
      OpenshiftAssistedConfig config, int urls, String reason, String message, boolean retryable) {
    Instant now = Instant.now();
    FailedDownload failure =
        failedDownloads.compute(
            config.getMetadata().getUid(),
            (uid, previous) ->
                FailedDownload.after(previous, urls, now, reason, message, retryable));
    return new Failed(outcome(failure, now));
  }

  /**
   * How a failure is reported: its reason, and a look again when its backoff ends (if retryable).
   */
  static Outcome outcome(FailedDownload failure, Instant now) {
    Outcome outcome = Outcome.waiting(failure.reason(), failure.message());
    return failure.retryable() ? outcome.recheckAfter(failure.untilNextTry(now)) : outcome;
  }
}
