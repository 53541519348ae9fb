package io.openshiftagent.api.common;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;
import java.util.Objects;

/**
 * A reference without a version (Cluster API v1beta2): the version is resolved at run time from the
 * contract label on the referenced kind's CRD.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public class ContractVersionedObjectReference {
  @JsonPropertyDescription("API group of the referenced kind.")
  @Required
  @Size(min = 1, max = 253)
  @Pattern("^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$")
  public String apiGroup;

  @JsonPropertyDescription("Kind of the referenced object.")
  @Required
  @Size(min = 1, max = 63)
  @Pattern("^[a-zA-Z][a-zA-Z0-9]*$")
  public String kind;

  @JsonPropertyDescription("Name of the referenced object, in the same namespace.")
  @Required
  @Size(min = 1, max = 253)
  @Pattern("^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$")
  public String name;

  public ContractVersionedObjectReference() {}

  public ContractVersionedObjectReference(String apiGroup, String kind, String name) {
    this.apiGroup = apiGroup;
    this.kind = kind;
    this.name = name;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof ContractVersionedObjectReference other
        && Objects.equals(apiGroup, other.apiGroup)
        && Objects.equals(kind, other.kind)
        && Objects.equals(name, other.name);
  }

  @Override
  public int hashCode() {
    return Objects.hash(apiGroup, kind, name);
  }

  @Override
  public String toString() {
    return kind + "." + apiGroup + "/" + name;
  }
}
