package io.openshiftagent.api.bootstrap.v1alpha2;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.Arrays;
import java.util.Optional;

/** How the host gets into the assisted-installer discovery environment. */
public enum BootMode {
  /** Metal3 boots the InfraEnv's live ISO; the installer writes OpenShift to the disk. */
  @JsonProperty("LiveISO")
  LIVE_ISO("LiveISO"),
  /**
   * Metal3 writes a CoreOS disk image and passes the discovery ignition as user data;
   * assisted-service installs into the booted root (it needs INSTALL_TO_EXISTING_ROOT=true).
   */
  @JsonProperty("DiskImage")
  DISK_IMAGE("DiskImage");

  private final String wireName;

  BootMode(String wireName) {
    this.wireName = wireName;
  }

  /** The name as the CRD spells it. */
  public String wireName() {
    return wireName;
  }

  /** The mode the CRD spells {@code name}, if any. */
  public static Optional<BootMode> named(String name) {
    return Arrays.stream(values()).filter(m -> m.wireName.equals(name)).findFirst();
  }
}
