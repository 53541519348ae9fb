package io.openshiftagent.api.external.capi;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Version;
import io.openshiftagent.api.external.ExternalKinds;
import io.openshiftagent.api.external.UnknownFields;

/**
 * A Cluster API MachineDeployment: we read it to find the worker bootstrap template and replica
 * counts.
 */
@Group(ExternalKinds.CAPI_GROUP)
@Version(ExternalKinds.CAPI_VERSION)
public class MachineDeployment
    extends CustomResource<MachineDeployment.Spec, MachineDeployment.Status> implements Namespaced {

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
