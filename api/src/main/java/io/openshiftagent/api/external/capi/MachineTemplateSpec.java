package io.openshiftagent.api.external.capi;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.openshiftagent.api.external.TemplateObjectMeta;
import io.openshiftagent.api.external.UnknownFields;

/** The Machine template of a MachineSet or MachineDeployment. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class MachineTemplateSpec extends UnknownFields {
  public TemplateObjectMeta metadata;
  public MachineSpec spec;
}
