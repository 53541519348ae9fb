package io.openshiftagent.api.common;

import io.fabric8.crdv2.generator.v1.SchemaCustomizer;
import io.fabric8.kubernetes.api.model.apiextensions.v1.JSONSchemaProps;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;

/**
 * CRD generation only: the OpenAPI format of string fields ({@code input} is {@code
 * "field=format,field=format"}), e.g. {@code date-time}, which the API server then checks and names
 * the field when it refuses a value.
 */
public class StringFormats implements SchemaCustomizer.Customizer {
  @Override
  public JSONSchemaProps apply(
      JSONSchemaProps schema, String input, KubernetesSerialization serialization) {
    for (String entry : input.split(",")) {
      String[] fieldAndFormat = entry.trim().split("=");
      JSONSchemaProps field = schema.getProperties().get(fieldAndFormat[0]);
      if (field == null) {
        throw new IllegalArgumentException("no field " + fieldAndFormat[0] + " to format");
      }
      field.setFormat(fieldAndFormat[1]);
    }
    return schema;
  }
}
