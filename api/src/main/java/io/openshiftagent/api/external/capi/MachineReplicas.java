package io.openshiftagent.api.external.capi;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.fabric8.kubernetes.api.model.LabelSelector;
import io.openshiftagent.api.external.UnknownFields;

/** The spec and status MachineSet and MachineDeployment share: replicas of a Machine template. */
public final class MachineReplicas {
  private MachineReplicas() {}

  /** Desired replicas and the template of the Machines. */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public static class Spec extends UnknownFields {
    public String clusterName;
    public Integer replicas;
    public LabelSelector selector;
    public MachineTemplateSpec template;
  }

  /** Observed replica counts. */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public static class Status extends UnknownFields {
    public Integer replicas;
    public Integer readyReplicas;
    public Integer availableReplicas;
  }
}
