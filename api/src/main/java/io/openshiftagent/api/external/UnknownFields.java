package io.openshiftagent.api.external;

import com.fasterxml.jackson.annotation.JsonAnyGetter;
import com.fasterxml.jackson.annotation.JsonAnySetter;
import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Base of every model of an external kind's spec, status and nested object: keeps the JSON fields
 * the model does not declare, in their original order, and writes them back. An update or patch
 * built from a model that was read from the API server therefore never drops fields set by the
 * owner of the kind or by a newer version of its CRD.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public abstract class UnknownFields {
  private final Map<String, Object> unknownFields = new LinkedHashMap<>();

  /**
   * The fields this model does not declare, by JSON name; values are maps, lists, strings, numbers.
   */
  @JsonAnyGetter
  public Map<String, Object> unknownFields() {
    return unknownFields;
  }

  @JsonAnySetter
  public void setUnknownField(String name, Object value) {
    unknownFields.put(name, value);
  }
}
