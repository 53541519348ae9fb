package io.openshiftagent.api.bootstrap.v1alpha2;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.crdv2.generator.v1.SchemaCustomizer;
import io.fabric8.generator.annotation.Size;
import io.fabric8.generator.annotation.ValidationRule;
import io.openshiftagent.api.common.ItemsMaxLength;
import java.util.List;

/**
 * How the node registers. Values may reference host metadata variables ({@code $METADATA_NAME} or
 * {@code ${METADATA_UUID}}) that the host resolves from its config-drive metadata.
 */
@JsonInclude(JsonInclude.Include.NON_EMPTY)
@JsonIgnoreProperties(ignoreUnknown = true)
@SchemaCustomizer(value = ItemsMaxLength.class, input = "kubeletExtraLabels=512")
public class NodeRegistrationOptions {
  @JsonPropertyDescription("The node name, usually $METADATA_NAME.")
  @Size(max = 253)
  public String name;

  /** Extra kubelet labels as {@code key=value}. */
  @Size(max = 64)
  @ValidationRule(
      value = "self.all(l, l.matches('^[^=]+=[^=]*$'))",
      message = "each kubeletExtraLabels entry must have the form key=value")
  @JsonPropertyDescription(
      "Extra node labels as key=value; values may reference $METADATA_* variables (e.g. metal3.io/uuid=$METADATA_UUID).")
  public List<String> kubeletExtraLabels;

  /**
   * A static provider ID, or a metadata variable reference such as {@code
   * openstack://$METADATA_UUID}.
   */
  @Size(max = 512)
  public String providerID;
}
