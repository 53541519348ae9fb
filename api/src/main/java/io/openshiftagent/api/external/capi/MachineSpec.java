package io.openshiftagent.api.external.capi;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.openshiftagent.api.common.ContractVersionedObjectReference;
import io.openshiftagent.api.common.MachineDeletionSpec;
import io.openshiftagent.api.external.UnknownFields;
import java.util.List;

/**
 * The Machine spec, also the spec of MachineSet and MachineDeployment templates: cluster,
 * bootstrap, infrastructure reference, version and placement.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class MachineSpec extends UnknownFields {
  public String clusterName;

  public Bootstrap bootstrap;

  public ContractVersionedObjectReference infrastructureRef;

  public String failureDomain;

  /** The Kubernetes version (for OpenShift, the version of the release's kubelet). */
  public String version;

  /** Set from the infrastructure machine once provisioned; matches the Node's spec.providerID. */
  public String providerID;

  public MachineDeletionSpec deletion;

  public List<ReadinessGate> readinessGates;

  /** Taints Cluster API keeps on the Node (v1.13); as maps, so fields we do not model survive. */
  public List<java.util.Map<String, Object>> taints;

  /** Seconds the Machine must be Ready before it is Available. */
  public Integer minReadySeconds;

  /** How the Machine gets its bootstrap data: a config object, or a ready-made data Secret. */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public static class Bootstrap extends UnknownFields {
    public ContractVersionedObjectReference configRef;
    public String dataSecretName;
  }

  /** A condition on the Machine that must be true for the Machine to be Ready. */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public static class ReadinessGate extends UnknownFields {
    public String conditionType;

    /** Positive (default) or Negative. */
    public String polarity;
  }
}
