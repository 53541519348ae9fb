package io.openshiftagent.bootstrap.config;

import io.openshiftagent.api.external.assisted.InfraEnv;
import io.openshiftagent.api.external.assisted.InfraEnvStatus;
import io.openshiftagent.api.external.metal3.Metal3Machine;
import io.openshiftagent.api.external.metal3.Metal3MachineSpec;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * The discovery image of a config's InfraEnv, as assisted-service publishes it in the InfraEnv's
 * status (the ISO, the discovery ignition, the events), and whether a Metal3Machine boots it.
 */
final class DiscoveryImage {
  /** LiveISO hosts boot the ISO, not user data; Cluster API still needs a Secret to exist. */
  static final String LIVE_ISO_USER_DATA = "{\"ignition\":{\"version\":\"3.2.0\"}}";

  private DiscoveryImage() {}

  static Optional<String> isoUrl(InfraEnv infraEnv) {
    return Optional.ofNullable(infraEnv.getStatus())
        .map(s -> s.isoDownloadURL)
        .flatMap(DiscoveryImage::nonBlank);
  }

  static Optional<String> ignitionUrl(InfraEnv infraEnv) {
    InfraEnvStatus status = infraEnv.getStatus();
    return status == null || status.bootArtifacts == null
        ? Optional.empty()
        : nonBlank(status.bootArtifacts.discoveryIgnitionURL);
  }

  static Optional<String> eventsUrl(InfraEnv infraEnv) {
    InfraEnvStatus status = infraEnv.getStatus();
    return status == null || status.debugInfo == null
        ? Optional.empty()
        : nonBlank(status.debugInfo.eventsURL);
  }

  /** What the steps read of an InfraEnv's status: the URLs of its image. */
  static List<String> urls(InfraEnv infraEnv) {
    InfraEnvStatus status = infraEnv.getStatus();
    return status == null
        ? List.of()
        : Arrays.asList(
            status.isoDownloadURL,
            status.bootArtifacts == null ? null : status.bootArtifacts.discoveryIgnitionURL,
            status.debugInfo == null ? null : status.debugInfo.eventsURL);
  }

  /** Whether the Metal3Machine boots {@code isoUrl} as a live ISO already. */
  static boolean bootsLiveIso(Metal3Machine machine, String isoUrl) {
    Metal3MachineSpec.Image image = machine.getSpec() == null ? null : machine.getSpec().image;
    return image != null
        && isoUrl.equals(image.url)
        && Metal3MachineSpec.DISK_FORMAT_LIVE_ISO.equals(image.diskFormat);
  }

  private static Optional<String> nonBlank(String value) {
    return value == null || value.isBlank() ? Optional.empty() : Optional.of(value);
  }
}
