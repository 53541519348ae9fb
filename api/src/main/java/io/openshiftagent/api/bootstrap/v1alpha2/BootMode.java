package io.openshiftagent.api.bootstrap.v1alpha2;

import com.fasterxml.jackson.annotation.JsonProperty;

/** How the host gets into the assisted-installer discovery environment. */
public enum BootMode {
  /** Metal3 boots the InfraEnv's live ISO; the installer writes OpenShift to the disk. */
  @JsonProperty("LiveISO")
  LIVE_ISO,
  /**
   * Metal3 writes a CoreOS disk image and passes the discovery ignition as user data;
   * assisted-service installs into the booted root (it needs INSTALL_TO_EXISTING_ROOT=true).
   */
  @JsonProperty("DiskImage")
  DISK_IMAGE
}
