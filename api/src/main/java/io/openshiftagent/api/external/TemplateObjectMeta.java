package io.openshiftagent.api.external;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.Map;

/**
 * Cluster API's ObjectMeta in templates (MachineSet, MachineDeployment, Metal3MachineTemplate): the
 * labels and annotations propagated to the objects created from the template.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class TemplateObjectMeta extends UnknownFields {
  public Map<String, String> labels;
  public Map<String, String> annotations;
}
