package io.openshiftagent.api.bootstrap.v1alpha2;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;

/**
 * A kernel argument operation applied to the installed node (coreos-installer --append-karg etc.).
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public class KernelArgument {
  /** The operation on the installed system's kernel command line. */
  public enum Operation {
    @JsonProperty("append")
    APPEND,
    @JsonProperty("replace")
    REPLACE,
    @JsonProperty("delete")
    DELETE
  }

  @Required public Operation operation;

  @JsonPropertyDescription("A kernel argument such as foo=bar; quoted values may contain spaces.")
  @Required
  @Size(min = 1, max = 1024)
  @Pattern("^(?:(?:[^ \\t\\n\\r\"]+)|(?:\"[^\"]*\"))+$")
  public String value;

  public KernelArgument() {}

  public KernelArgument(Operation operation, String value) {
    this.operation = operation;
    this.value = value;
  }
}
