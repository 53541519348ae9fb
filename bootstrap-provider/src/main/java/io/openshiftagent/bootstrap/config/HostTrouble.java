package io.openshiftagent.bootstrap.config;

import io.openshiftagent.api.bootstrap.v1alpha2.OpenshiftAssistedConfig;
import io.openshiftagent.bootstrap.names.Names;
import io.openshiftagent.bootstrap.names.Reasons;
import io.openshiftagent.provider.reconcile.Metadata;

/**
 * What holds back the installation of a host that booted on the config's data, as the Agent
 * controller found it and left it in the config's annotations: the reason the config's Ready
 * condition gives, and the message a user acts on.
 */
record HostTrouble(String reason, String message) {

  /** Its Agent is not approved: no disk matches the BareMetalHost's rootDeviceHints. */
  static HostTrouble noInstallationDisk(String why) {
    return new HostTrouble(Reasons.NO_DISK_MATCHES_ROOT_DEVICE_HINTS, why);
  }

  /** It fails assisted-service's validations. */
  static HostTrouble validationsFailing(String why) {
    return new HostTrouble(Reasons.HOST_VALIDATIONS_FAILING, why);
  }

  /**
   * The trouble the config's annotations record, or null. No disk says more than failing
   * validations (the Agent is not even approved), so it is the one reported when both are.
   */
  static HostTrouble of(OpenshiftAssistedConfig config) {
    String noDisk = Metadata.annotation(config, Names.NO_INSTALLATION_DISK_ANNOTATION);
    if (noDisk != null) {
      return noInstallationDisk(noDisk);
    }
    String failing = Metadata.annotation(config, Names.HOST_VALIDATIONS_FAILING_ANNOTATION);
    return failing == null ? null : validationsFailing(failing);
  }

  boolean isNoInstallationDisk() {
    return Reasons.NO_DISK_MATCHES_ROOT_DEVICE_HINTS.equals(reason);
  }
}
