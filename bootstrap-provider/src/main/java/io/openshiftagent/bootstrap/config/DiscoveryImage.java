package io.openshiftagent.bootstrap.config;

import io.fabric8.kubernetes.api.model.Condition;
import io.openshiftagent.api.common.Conditions;
import io.openshiftagent.api.external.assisted.InfraEnv;
import io.openshiftagent.api.external.assisted.InfraEnvStatus;
import io.openshiftagent.api.external.metal3.Metal3Machine;
import io.openshiftagent.api.external.metal3.Metal3MachineSpec;
import java.util.List;
import java.util.Optional;

/**
 * The discovery image of a config's InfraEnv, as assisted-service publishes it in the InfraEnv's
 * status (the ISO, the discovery ignition, the events), and whether a Metal3Machine boots it.
 */
final class DiscoveryImage {
  /** LiveISO hosts boot the ISO, not user data; Cluster API still needs a Secret to exist. */
  static final String LIVE_ISO_USER_DATA = "{\"ignition\":{\"version\":\"3.2.0\"}}";

  /** The InfraEnv condition assisted-service sets on each attempt to create the image. */
  static final String IMAGE_CREATED = "ImageCreated";

  static final String IMAGE_CREATION_ERROR = "ImageCreationError";

  /** How the service words a failure it retries by itself (not the spec's fault). */
  private static final String INTERNAL_ERROR = "due to an internal error";

  private DiscoveryImage() {}

  /**
   * assisted-service's words when it refused to create the image from the InfraEnv's spec
   * (ImageCreated False, reason ImageCreationError, such as "Failed to create image: SSH key is not
   * valid"). Not a failure it retries by itself, nor ImageCreated Unknown (the cluster not in its
   * database yet: a race it resolves).
   */
  static Optional<String> refusal(InfraEnv infraEnv) {
    InfraEnvStatus status = infraEnv.getStatus();
    if (status == null) {
      return Optional.empty();
    }
    return Conditions.find(status.conditions, IMAGE_CREATED)
        .filter(c -> Conditions.FALSE.equals(c.getStatus()))
        .filter(c -> IMAGE_CREATION_ERROR.equals(c.getReason()))
        .map(Condition::getMessage)
        .flatMap(DiscoveryImage::nonBlank)
        .filter(message -> !message.contains(INTERNAL_ERROR));
  }

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

  /**
   * What the steps read of an InfraEnv's status, the rest dropped: the URLs of its image and its
   * ImageCreated condition (a refusal). The configs' cache keeps only this, and only a change of it
   * (or of the metadata) wakes them; null for no status.
   */
  static InfraEnvStatus readBySteps(InfraEnv infraEnv) {
    InfraEnvStatus read = infraEnv.getStatus();
    if (read == null) {
      return null;
    }
    InfraEnvStatus kept = new InfraEnvStatus();
    kept.isoDownloadURL = read.isoDownloadURL;
    if (read.bootArtifacts != null) {
      kept.bootArtifacts = new InfraEnvStatus.BootArtifacts();
      kept.bootArtifacts.discoveryIgnitionURL = read.bootArtifacts.discoveryIgnitionURL;
    }
    if (read.debugInfo != null) {
      kept.debugInfo = new InfraEnvStatus.DebugInfo();
      kept.debugInfo.eventsURL = read.debugInfo.eventsURL;
    }
    kept.conditions = Conditions.find(read.conditions, IMAGE_CREATED).map(List::of).orElse(null);
    return kept;
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
