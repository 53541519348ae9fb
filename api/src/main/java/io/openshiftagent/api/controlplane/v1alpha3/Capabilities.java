package io.openshiftagent.api.controlplane.v1alpha3;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.crdv2.generator.v1.SchemaCustomizer;
import io.fabric8.generator.annotation.Size;
import io.fabric8.generator.annotation.ValidationRule;
import io.openshiftagent.api.common.ItemsMaxLength;
import java.util.List;

/** OpenShift optional capabilities (install-config capabilities). */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
@SchemaCustomizer(value = ItemsMaxLength.class, input = "additionalEnabledCapabilities=64")
public class Capabilities {
  /** None, vCurrent or v4.N. */
  @Size(max = 16)
  @ValidationRule(
      value = "self.matches('^(None|vCurrent|v4\\\\.[0-9]+)$')",
      message = "spec.config.capabilities.baselineCapability must be None, vCurrent or v4.N")
  public String baselineCapability;

  @Size(max = 64)
  @JsonPropertyDescription("Capabilities enabled on top of the baseline.")
  public List<String> additionalEnabledCapabilities;
}
