package io.openshiftagent.api.common;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;

/** A reference to an object by name in the referrer's namespace. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public class LocalObjectReference {
  @Required
  @Size(min = 1, max = 253)
  public String name;

  public LocalObjectReference() {}

  public LocalObjectReference(String name) {
    this.name = name;
  }
}
