package io.openshiftagent.api.external.assisted;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.openshiftagent.api.external.UnknownFields;

/** A kernel argument of the discovery image. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class KernelArgument extends UnknownFields {
  /** append, replace or delete. */
  public String operation;

  public String value;

  public KernelArgument() {}

  public KernelArgument(String operation, String value) {
    this.operation = operation;
    this.value = value;
  }
}
