package io.openshiftagent.api.external.metal3;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.openshiftagent.api.external.UnknownFields;

/** A custom deploy procedure of the Ironic deploy ramdisk, instead of writing an image. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class CustomDeploy extends UnknownFields {
  /** The name of the deploy method, specific to the deploy ramdisk. */
  public String method;
}
