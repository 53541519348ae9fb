package io.openshiftagent.api.external.assisted;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.openshiftagent.api.external.UnknownFields;

/** A reference to a ClusterDeployment by name and namespace. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class ClusterReference extends UnknownFields {
  public String name;
  public String namespace;

  public ClusterReference() {}

  public ClusterReference(String name, String namespace) {
    this.name = name;
    this.namespace = namespace;
  }
}
