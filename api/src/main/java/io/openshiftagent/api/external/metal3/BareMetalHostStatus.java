package io.openshiftagent.api.external.metal3;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import io.openshiftagent.api.external.UnknownFields;

/** The BareMetalHost status: provisioning state, operational status and power. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class BareMetalHostStatus extends UnknownFields {
  public Provisioning provisioning;

  /** OK, discovered, error, delayed, detached or servicing (may be empty). */
  public String operationalStatus;

  public Boolean poweredOn;

  /** The provisioning state machine. */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public static class Provisioning extends UnknownFields {
    /**
     * For example registering, inspecting, available, provisioning, provisioned, deprovisioning.
     */
    public String state;

    /** The Ironic node UUID. */
    @JsonProperty("ID")
    public String id;
  }
}
