package io.openshiftagent.api.external.metal3;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.fabric8.kubernetes.api.model.ObjectReference;
import io.fabric8.kubernetes.api.model.SecretReference;
import io.openshiftagent.api.external.UnknownFields;

/** The BareMetalHost spec: power, boot NIC, consumer and what is provisioned. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class BareMetalHostSpec extends UnknownFields {
  /** The desired power state. */
  public Boolean online;

  public String bootMACAddress;

  /** The object that claimed the host (for CAPM3, the Metal3Machine). */
  public ObjectReference consumerRef;

  public Image image;

  public SecretReference userData;

  public CustomDeploy customDeploy;

  /** Which disk to install on; assisted-service's own controller reads it too. */
  public RootDeviceHints rootDeviceHints;

  /** The image to provision (the BareMetalHost calls the disk format {@code format}). */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public static class Image extends UnknownFields {
    public String url;
    public String checksum;

    /** md5, sha256, sha512 or auto. */
    public String checksumType;

    /** raw, qcow2, vdi, vmdk or live-iso. */
    public String format;
  }

  /**
   * The hints choosing the installation disk; a disk must match every hint given. The
   * baremetal-operator admits a {@code deviceName} under /dev/ or /dev/disk/by-path/ only.
   */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public static class RootDeviceHints extends UnknownFields {
    public String deviceName;
    public String hctl;

    /** A substring of the disk's model. */
    public String model;

    /** A substring of the disk's vendor. */
    public String vendor;

    public String serialNumber;
    public Integer minSizeGigabytes;
    public String wwn;
    public String wwnWithExtension;
    public String wwnVendorExtension;
    public Boolean rotational;
  }
}
