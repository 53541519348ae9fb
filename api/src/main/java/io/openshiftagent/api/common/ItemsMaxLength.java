package io.openshiftagent.api.common;

import io.fabric8.crdv2.generator.v1.SchemaCustomizer;
import io.fabric8.kubernetes.api.model.apiextensions.v1.JSONSchemaProps;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;

/**
 * CRD generation only: bounds the length of the strings in list fields ({@code input} is {@code
 * "field=max,field=max"}). The API server estimates the cost of CEL rules from these bounds, and an
 * annotation cannot be put on a list's element type.
 */
public class ItemsMaxLength implements SchemaCustomizer.Customizer {
  @Override
  public JSONSchemaProps apply(
      JSONSchemaProps schema, String input, KubernetesSerialization serialization) {
    for (String entry : input.split(",")) {
      String[] fieldAndMax = entry.trim().split("=");
      JSONSchemaProps field = schema.getProperties().get(fieldAndMax[0]);
      if (field == null || field.getItems() == null) {
        throw new IllegalArgumentException("no list field " + fieldAndMax[0] + " to bound");
      }
      field.getItems().getSchema().setMaxLength(Long.parseLong(fieldAndMax[1]));
    }
    return schema;
  }
}
