package io.openshiftagent.api.external.assisted;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.fabric8.kubernetes.api.model.Condition;
import io.openshiftagent.api.external.UnknownFields;
import java.util.List;

/** The InfraEnv status: where the discovery image and its parts can be downloaded. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class InfraEnvStatus extends UnknownFields {
  /** The discovery ISO, for the LiveISO boot mode. */
  public String isoDownloadURL;

  public BootArtifacts bootArtifacts;

  public DebugInfo debugInfo;

  /** Conditions, notably ImageCreated. */
  public List<Condition> conditions;

  /** When the current image was created (RFC 3339). */
  public String createdTime;

  /** URLs of the discovery boot artifacts. */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public static class BootArtifacts extends UnknownFields {
    public String kernel;
    public String initrd;
    public String rootfs;
    public String ipxeScript;

    /** The discovery ignition, for the DiskImage boot mode (newer assisted-service only). */
    public String discoveryIgnitionURL;
  }

  /** Where the InfraEnv's events can be read. */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public static class DebugInfo extends UnknownFields {
    public String eventsURL;
    public String staticNetworkDownloadURL;
  }
}
