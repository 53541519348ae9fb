package io.openshiftagent.api.common;

import io.fabric8.crdv2.generator.v1.SchemaCustomizer;
import io.fabric8.kubernetes.api.model.apiextensions.v1.JSONSchemaProps;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.util.Arrays;
import java.util.List;

/**
 * CRD generation only: marks list fields as maps keyed by some of their items' fields, as Cluster
 * API declares them ({@code input} is {@code "field=key+key;field=key"}), so that server-side apply
 * merges items by key and the API server refuses duplicate keys. Map keys must be required.
 */
public class ListMapKeys implements SchemaCustomizer.Customizer {
  @Override
  public JSONSchemaProps apply(
      JSONSchemaProps schema, String input, KubernetesSerialization serialization) {
    for (String entry : input.split(";")) {
      String[] fieldAndKeys = entry.trim().split("=");
      JSONSchemaProps field = schema.getProperties().get(fieldAndKeys[0]);
      if (field == null || field.getItems() == null) {
        throw new IllegalArgumentException("no list field " + fieldAndKeys[0] + " to key");
      }
      List<String> keys = Arrays.asList(fieldAndKeys[1].split("\\+"));
      field.setXKubernetesListType("map");
      field.setXKubernetesListMapKeys(keys);
      JSONSchemaProps item = field.getItems().getSchema();
      List<String> required = new java.util.ArrayList<>(keys);
      if (item.getRequired() != null) {
        item.getRequired().stream().filter(r -> !required.contains(r)).forEach(required::add);
      }
      item.setRequired(required);
    }
    return schema;
  }
}
