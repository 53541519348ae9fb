package io.openshiftagent.api.controlplane.v1alpha3;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.crdv2.generator.v1.SchemaCustomizer;
import io.fabric8.generator.annotation.Max;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.Size;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.model.annotation.LabelSelector;
import io.fabric8.kubernetes.model.annotation.StatusReplicas;
import io.openshiftagent.api.common.ConditionsListMap;
import java.util.List;

/** Status per the Cluster API v1beta2 control-plane contract. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
@SchemaCustomizer(ConditionsListMap.class)
public class OpenshiftAssistedControlPlaneStatus {
  @JsonPropertyDescription(
      "Conditions: Available, Initialized, KubeconfigAvailable, MachinesReady, MachinesUpToDate, ScalingUp, ScalingDown, RollingOut, Paused, Deleting and the upgrade conditions.")
  @Size(max = 32)
  public List<Condition> conditions;

  public Initialization initialization;

  @JsonPropertyDescription(
      "Label selector of the control-plane Machines, for the scale subresource.")
  @LabelSelector
  @Size(min = 1, max = 4096)
  public String selector;

  /** Control-plane Machines that exist. */
  @Min(0)
  @Max(Integer.MAX_VALUE)
  @StatusReplicas
  public Integer replicas;

  @JsonPropertyDescription("Control-plane Machines whose Ready condition is True.")
  @Min(0)
  @Max(Integer.MAX_VALUE)
  public Integer readyReplicas;

  @JsonPropertyDescription("Control-plane Machines whose Available condition is True.")
  @Min(0)
  @Max(Integer.MAX_VALUE)
  public Integer availableReplicas;

  @JsonPropertyDescription("Control-plane Machines that match the current spec.")
  @Min(0)
  @Max(Integer.MAX_VALUE)
  public Integer upToDateReplicas;

  @JsonPropertyDescription(
      "Kubernetes version the control-plane nodes run (the lowest, during an upgrade).")
  @Size(min = 1, max = 256)
  public String version;

  @JsonPropertyDescription("OpenShift version the cluster runs.")
  @Size(min = 1, max = 256)
  public String distributionVersion;

  @Min(1)
  public Long observedGeneration;

  /** Initialization flags read by Cluster API core. */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  @JsonIgnoreProperties(ignoreUnknown = true)
  public static class Initialization {
    /**
     * True once the workload cluster's API server accepts requests (the kubeconfig Secret exists).
     */
    public Boolean controlPlaneInitialized;
  }
}
