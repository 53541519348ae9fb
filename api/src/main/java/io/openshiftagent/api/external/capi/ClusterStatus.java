package io.openshiftagent.api.external.capi;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.fabric8.kubernetes.api.model.Condition;
import io.openshiftagent.api.external.UnknownFields;
import java.util.List;
import java.util.Map;

/** The Cluster status: initialization flags, failure domains, conditions and phase. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class ClusterStatus extends UnknownFields {
  public Initialization initialization;

  /**
   * The failure domains reported by the infrastructure provider (a list keyed by name in v1beta2).
   */
  public List<FailureDomain> failureDomains;

  public List<Condition> conditions;

  /** Pending, Provisioning, Provisioned, Deleting, Failed or Unknown. */
  public String phase;

  public Long observedGeneration;

  /** Initialization flags Cluster API core copies from the infrastructure and control plane. */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public static class Initialization extends UnknownFields {
    public Boolean infrastructureProvisioned;
    public Boolean controlPlaneInitialized;
  }

  /** A failure domain: where Machines can be placed. */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public static class FailureDomain extends UnknownFields {
    public String name;

    /** True if control plane Machines may be placed in this failure domain. */
    public Boolean controlPlane;

    public Map<String, String> attributes;
  }
}
