package io.openshiftagent.api.controlplane.v1alpha3;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.crdv2.generator.v1.SchemaCustomizer;
import io.fabric8.generator.annotation.Default;
import io.fabric8.generator.annotation.Max;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.Size;
import io.fabric8.generator.annotation.ValidationRule;
import io.openshiftagent.api.common.ContractVersionedObjectReference;
import io.openshiftagent.api.common.ListMapKeys;
import io.openshiftagent.api.common.MachineDeletionSpec;
import io.openshiftagent.api.common.MachineTaint;
import io.openshiftagent.api.common.ObjectMetaTemplate;
import java.util.List;

/**
 * How control-plane Machines are made. Accepts both the Go provider's layout ({@code
 * infrastructureRef} and {@code deletion} directly here) and the Cluster API v1beta2 layout under
 * {@code spec}, which ClusterClass writes.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
@ValidationRule(
    value = "has(self.infrastructureRef) || (has(self.spec) && has(self.spec.infrastructureRef))",
    message =
        "spec.machineTemplate.spec.infrastructureRef (or spec.machineTemplate.infrastructureRef) is required")
@ValidationRule(
    value =
        "!has(self.infrastructureRef) || !has(self.spec) || !has(self.spec.infrastructureRef)"
            + " || (self.infrastructureRef.apiGroup == self.spec.infrastructureRef.apiGroup"
            + " && self.infrastructureRef.kind == self.spec.infrastructureRef.kind"
            + " && self.infrastructureRef.name == self.spec.infrastructureRef.name)",
    message =
        "spec.machineTemplate.infrastructureRef and spec.machineTemplate.spec.infrastructureRef must be equal"
            + " when both are set")
public class ControlPlaneMachineTemplate {
  @JsonPropertyDescription(
      "Labels and annotations for the control-plane Machines and what they own.")
  public ObjectMetaTemplate metadata;

  @JsonPropertyDescription(
      "The infrastructure machine template to clone (Go provider layout; prefer spec.infrastructureRef).")
  public ContractVersionedObjectReference infrastructureRef;

  // The Go provider's CRD defaults this object, so its manifests (which leave it out) get the
  // same Machines from both providers.
  @JsonPropertyDescription(
      "Machine deletion timeouts (Go provider layout; prefer spec.deletion). Default, as in the Go"
          + " provider: nodeDeletionTimeoutSeconds 10.")
  @Default("{\"nodeDeletionTimeoutSeconds\":10}")
  public MachineDeletionSpec deletion;

  @JsonPropertyDescription(
      "The Machine spec fields, as Cluster API v1beta2 and ClusterClass write them.")
  public MachineSpecTemplate spec;

  /** The infrastructure template, whichever layout gave it. */
  public ContractVersionedObjectReference effectiveInfrastructureRef() {
    return spec != null && spec.infrastructureRef != null
        ? spec.infrastructureRef
        : infrastructureRef;
  }

  /** The deletion timeouts, whichever layout gave them. */
  public MachineDeletionSpec effectiveDeletion() {
    return spec != null && spec.deletion != null ? spec.deletion : deletion;
  }

  /** Machine spec fields in the Cluster API v1beta2 layout. */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  @JsonIgnoreProperties(ignoreUnknown = true)
  @SchemaCustomizer(
      value = ListMapKeys.class,
      input = "readinessGates=conditionType;taints=key+effect")
  public static class MachineSpecTemplate {
    @JsonPropertyDescription(
        "The infrastructure machine template to clone, e.g. a Metal3MachineTemplate.")
    public ContractVersionedObjectReference infrastructureRef;

    @JsonPropertyDescription("Machine deletion timeouts.")
    public MachineDeletionSpec deletion;

    @Size(max = 32)
    @JsonPropertyDescription(
        "Extra conditions a Machine needs before it is Ready; changed in place on existing Machines.")
    public List<ReadinessGate> readinessGates;

    @Size(max = 64)
    @JsonPropertyDescription(
        "Taints Cluster API keeps on the Machines' Nodes (Cluster API v1.13, feature gate"
            + " MachineTaintPropagation); changed in place on existing Machines.")
    public List<MachineTaint> taints;

    @Min(0)
    @Max(Integer.MAX_VALUE)
    @JsonPropertyDescription(
        "Seconds a Machine must be Ready before it counts as Available; changed in place on existing"
            + " Machines.")
    public Integer minReadySeconds;
  }

  /** An extra Machine condition that must be True for the Machine to be Ready. */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  @JsonIgnoreProperties(ignoreUnknown = true)
  public static class ReadinessGate {
    @io.fabric8.generator.annotation.Required
    @Size(min = 1, max = 316)
    public String conditionType;

    public String polarity;
  }
}
