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
}
