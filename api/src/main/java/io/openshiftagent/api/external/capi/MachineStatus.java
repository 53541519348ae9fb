package io.openshiftagent.api.external.capi;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.fabric8.kubernetes.api.model.Condition;
import io.openshiftagent.api.external.UnknownFields;
import java.util.List;

/** The Machine status: node, phase, conditions, initialization flags and addresses. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class MachineStatus extends UnknownFields {
  public NodeReference nodeRef;

  /**
   * Pending, Provisioning, Provisioned, Running, Updating, Deleting, Deleted, Failed or Unknown.
   */
  public String phase;

  public List<Condition> conditions;

  public Initialization initialization;

  public List<MachineAddress> addresses;

  public Long observedGeneration;

  /** What the Node's kubelet reports, copied by the Machine controller. */
  public NodeInfo nodeInfo;

  /** The Node's system information (only what we read). */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public static class NodeInfo extends UnknownFields {
    public String kubeletVersion;
  }

  /** The Node of the Machine in the workload cluster. */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public static class NodeReference extends UnknownFields {
    public String name;
  }

  /**
   * Initialization flags Cluster API core copies from the bootstrap config and infrastructure
   * machine.
   */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public static class Initialization extends UnknownFields {
    public Boolean bootstrapDataSecretCreated;
    public Boolean infrastructureProvisioned;
  }

  /** An address of the Machine. */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public static class MachineAddress extends UnknownFields {
    /** Hostname, ExternalIP, InternalIP, ExternalDNS or InternalDNS. */
    public String type;

    public String address;
  }
}
