package io.openshiftagent.api.common;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import java.util.Map;

/**
 * Cluster API's ObjectMeta: the labels and annotations a template propagates to what it creates.
 */
@JsonInclude(JsonInclude.Include.NON_EMPTY)
@JsonIgnoreProperties(ignoreUnknown = true)
public class ObjectMetaTemplate {
  @JsonPropertyDescription("Labels to set.")
  public Map<String, String> labels;

  @JsonPropertyDescription("Annotations to set.")
  public Map<String, String> annotations;
}
