package io.openshiftagent.api.common;

import io.fabric8.crdv2.generator.v1.SchemaCustomizer;
import io.fabric8.kubernetes.api.model.apiextensions.v1.JSONSchemaProps;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.util.List;

/**
 * CRD generation only: marks a status's {@code conditions} as a list keyed by {@code type}, so
 * server-side apply merges conditions written by different managers instead of replacing the whole
 * list. A list-map key must be required, and so must a condition's status.
 */
public class ConditionsListMap implements SchemaCustomizer.Customizer {
  @Override
  public JSONSchemaProps apply(
      JSONSchemaProps statusSchema, String input, KubernetesSerialization serialization) {
    JSONSchemaProps conditions = statusSchema.getProperties().get("conditions");
    conditions.setXKubernetesListType("map");
    conditions.setXKubernetesListMapKeys(List.of("type"));
    conditions.getItems().getSchema().setRequired(List.of("type", "status"));
    return statusSchema;
  }
}
