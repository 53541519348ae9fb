package io.openshiftagent.api.controlplane.v1alpha3;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.crd.generator.annotation.AdditionalPrinterColumn;
import io.fabric8.crd.generator.annotation.Labels;
import io.fabric8.crdv2.generator.v1.SchemaCustomizer;
import io.fabric8.generator.annotation.Max;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;
import io.fabric8.generator.annotation.ValidationRule;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Categories;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.ShortNames;
import io.fabric8.kubernetes.model.annotation.Version;
import io.openshiftagent.api.bootstrap.v1alpha2.OpenshiftAssistedConfigSpec;
import io.openshiftagent.api.common.Clusterctl;
import io.openshiftagent.api.common.ListMapKeys;
import io.openshiftagent.api.common.MachineDeletionSpec;
import io.openshiftagent.api.common.MachineTaint;
import io.openshiftagent.api.common.ObjectMetaTemplate;
import java.util.List;

/**
 * The control plane of a ClusterClass. The topology controller clones {@code spec.template.spec}
 * into an OpenshiftAssistedControlPlane and sets replicas, version and the infrastructure template
 * itself.
 */
@Group(ControlPlaneGroup.GROUP)
@Version(ControlPlaneGroup.VERSION)
@ShortNames({"oacpt"})
@Categories({"cluster-api"})
@Labels({ControlPlaneGroup.CONTRACT_LABEL, Clusterctl.MOVE_HIERARCHY_LABEL})
@AdditionalPrinterColumn(
    name = "Distribution Version",
    jsonPath = ".spec.template.spec.distributionVersion",
    type = AdditionalPrinterColumn.Type.STRING)
@AdditionalPrinterColumn(
    name = "Age",
    jsonPath = ".metadata.creationTimestamp",
    type = AdditionalPrinterColumn.Type.DATE)
public class OpenshiftAssistedControlPlaneTemplate
    extends CustomResource<OpenshiftAssistedControlPlaneTemplate.Spec, Void> implements Namespaced {

  /** The template. */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  @JsonIgnoreProperties(ignoreUnknown = true)
  public static class Spec {
    @Required public Resource template;
  }

  /** Metadata and spec of the control planes made from this template. */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  @JsonIgnoreProperties(ignoreUnknown = true)
  public static class Resource {
    public ObjectMetaTemplate metadata;
    @Required public ResourceSpec spec;
  }

  /**
   * The control-plane spec without what the topology sets (replicas, version, infrastructure
   * template).
   */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  @JsonIgnoreProperties(ignoreUnknown = true)
  public static class ResourceSpec {
    @JsonPropertyDescription(
        "OpenShift version; may instead be set by a ClusterClass patch. See the control plane's field.")
    @Size(min = 1, max = 64)
    // Checked here too, so that a ClusterClass with a bad version fails when it is applied rather
    // than when the topology controller makes the control plane.
    @ValidationRule(
        value = OpenshiftAssistedControlPlaneSpec.DISTRIBUTION_VERSION_RULE,
        message = OpenshiftAssistedControlPlaneSpec.DISTRIBUTION_VERSION_MESSAGE)
    @ValidationRule(
        value = OpenshiftAssistedControlPlaneSpec.DISTRIBUTION_VERSION_NUMBERS_RULE,
        message = OpenshiftAssistedControlPlaneSpec.DISTRIBUTION_VERSION_NUMBERS_MESSAGE)
    public String distributionVersion;

    public MachineTemplate machineTemplate;

    public OpenshiftAssistedConfigSpec openshiftAssistedConfigSpec;

    @Required public ClusterConfig config;

    public RolloutSpec rollout;

    public RemediationSpec remediation;
  }

  /**
   * Machine metadata and deletion timeouts; the infrastructure template comes from the
   * ClusterClass.
   */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  @JsonIgnoreProperties(ignoreUnknown = true)
  public static class MachineTemplate {
    public ObjectMetaTemplate metadata;
    public MachineSpec spec;
  }

  /** Machine spec fields a template can carry. */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  @JsonIgnoreProperties(ignoreUnknown = true)
  @SchemaCustomizer(
      value = ListMapKeys.class,
      input = "readinessGates=conditionType;taints=key+effect")
  public static class MachineSpec {
    public MachineDeletionSpec deletion;

    @Size(max = 32)
    public List<ControlPlaneMachineTemplate.ReadinessGate> readinessGates;

    @Size(max = 64)
    public List<MachineTaint> taints;

    @Min(0)
    @Max(Integer.MAX_VALUE)
    public Integer minReadySeconds;
  }
}
