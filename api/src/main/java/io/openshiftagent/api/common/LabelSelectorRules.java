package io.openshiftagent.api.common;

import com.fasterxml.jackson.databind.node.TextNode;
import io.fabric8.crdv2.generator.v1.SchemaCustomizer;
import io.fabric8.kubernetes.api.model.apiextensions.v1.JSONSchemaProps;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.util.List;

/**
 * CRD generation only: the rules Kubernetes applies to a label selector's expressions (key and
 * operator required, the operator one of In, NotIn, Exists, DoesNotExist), for the label-selector
 * field named by {@code input}. Without them the API server would admit a selector that the objects
 * we copy it to (an InfraEnv) refuse.
 */
public class LabelSelectorRules implements SchemaCustomizer.Customizer {
  static final List<String> OPERATORS = List.of("In", "NotIn", "Exists", "DoesNotExist");

  @Override
  public JSONSchemaProps apply(
      JSONSchemaProps schema, String input, KubernetesSerialization serialization) {
    JSONSchemaProps selector = schema.getProperties().get(input.trim());
    JSONSchemaProps expressions =
        selector == null ? null : selector.getProperties().get("matchExpressions");
    if (expressions == null || expressions.getItems() == null) {
      throw new IllegalArgumentException("no label selector " + input + " to constrain");
    }
    JSONSchemaProps expression = expressions.getItems().getSchema();
    expression.setRequired(List.of("key", "operator"));
    expression
        .getProperties()
        .get("operator")
        .setEnum(
            OPERATORS.stream()
                .map(o -> (com.fasterxml.jackson.databind.JsonNode) new TextNode(o))
                .toList());
    return schema;
  }
}
