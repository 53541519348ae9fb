package io.openshiftagent.api.external.metal3;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Version;
import io.openshiftagent.api.external.ExternalKinds;
import io.openshiftagent.api.external.TemplateObjectMeta;
import io.openshiftagent.api.external.UnknownFields;

/**
 * The template CAPM3 clones into Metal3Machines: we read it to check the image the control plane
 * and worker Machines will get.
 */
@Group(ExternalKinds.INFRASTRUCTURE_GROUP)
@Version(ExternalKinds.METAL3_INFRASTRUCTURE_VERSION)
public class Metal3MachineTemplate
    extends CustomResource<Metal3MachineTemplate.Spec, Metal3MachineTemplate.Status>
    implements Namespaced {

  /** The template and whether hosts are reused across rolling upgrades. */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public static class Spec extends UnknownFields {
    public Resource template;

    /** True keeps a host for the Machine that replaces its Machine in the same MachineSet. */
    public Boolean nodeReuse;
  }

  /** What each cloned Metal3Machine gets. */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public static class Resource extends UnknownFields {
    public TemplateObjectMeta metadata;
    public Metal3MachineSpec spec;
  }

  /**
   * The v1beta2 CRD has no status; a class rather than Void so that any status survives a round
   * trip.
   */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public static class Status extends UnknownFields {}
}
