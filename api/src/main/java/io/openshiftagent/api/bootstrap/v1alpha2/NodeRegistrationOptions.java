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
  /**
   * Each '$' starts a reference to a host metadata variable, $NAME or ${NAME}: nothing else, so no
   * shell expression can reach the host (the Go provider ran some of these through the shell).
   */
  static final String REFERENCES =
      "^([^$]|[$][A-Za-z_][A-Za-z0-9_]*|[$][{][A-Za-z_][A-Za-z0-9_]*[}])*$";

  // These texts write no '$' right before a name or '{': clusterctl takes such text in the
  // components it installs for its own variables (an unset one fails the install).
  static final String REFERENCES_MESSAGE =
      " may reference host metadata only as a '$' sign followed by a variable name, bare or in"
          + " braces (letters, digits and '_', not starting with a digit), such as METADATA_NAME";

  @JsonPropertyDescription(
      "The node name, usually the host metadata variable METADATA_NAME after a '$' sign (resolved"
          + " from the host's config-drive metadata).")
  @Size(max = 253)
  @ValidationRule(
      value = "self.matches('" + REFERENCES + "')",
      message = "spec.nodeRegistration.name" + REFERENCES_MESSAGE)
  public String name;

  /** Extra kubelet labels as {@code key=value}. */
  @Size(max = 64)
  @ValidationRule(
      value = "self.all(l, l.matches('^[^=]+=[^=]*$'))",
      message = "each kubeletExtraLabels entry must have the form key=value")
  @ValidationRule(
      value = "self.all(l, l.matches('" + REFERENCES + "'))",
      message = "spec.nodeRegistration.kubeletExtraLabels values" + REFERENCES_MESSAGE)
  @JsonPropertyDescription(
      "Extra node labels as key=value; values may reference host metadata variables (METADATA_*,"
          + " each after a '$' sign), e.g. metal3.io/uuid with METADATA_UUID.")
  public List<String> kubeletExtraLabels;

  /**
   * A static provider ID, or a metadata variable reference such as {@code
   * openstack://$METADATA_UUID}.
   */
  @JsonPropertyDescription(
      "The kubelet's provider ID, static or with host metadata references, e.g. openstack://"
          + " followed by the variable METADATA_UUID after a '$' sign.")
  @Size(max = 512)
  @ValidationRule(
      value = "self.matches('" + REFERENCES + "')",
      message = "spec.nodeRegistration.providerID" + REFERENCES_MESSAGE)
  public String providerID;
}
