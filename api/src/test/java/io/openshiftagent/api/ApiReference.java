package io.openshiftagent.api;

import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionVersion;
import io.fabric8.kubernetes.api.model.apiextensions.v1.JSONSchemaProps;
import io.fabric8.kubernetes.api.model.apiextensions.v1.ValidationRule;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Renders docs/api-reference.md from the committed CRDs: every field of every kind with its type,
 * default, constraints and validation messages, so the reference cannot drift from what the API
 * server enforces.
 */
final class ApiReference {
  private ApiReference() {}

  static String render(List<Path> crdFiles) {
    List<CustomResourceDefinition> crds = new ArrayList<>();
    try {
      for (Path file : crdFiles) {
        crds.add(Serialization.unmarshal(Files.readString(file), CustomResourceDefinition.class));
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    StringBuilder md = new StringBuilder();
    md.append("# API reference\n\n")
        .append(
            "Generated from `config/crd`; `hack/update-crds.sh` regenerates both after a change to\n")
        .append("the model in `api/`, and a test fails while this page is stale.\n")
        .append("Every rule listed here is enforced by the API server at admission.\n");
    for (CustomResourceDefinition crd : crds) {
      for (CustomResourceDefinitionVersion version : crd.getSpec().getVersions()) {
        String kind = crd.getSpec().getNames().getKind();
        md.append("\n## ").append(kind).append("\n\n");
        md.append("`")
            .append(crd.getSpec().getGroup())
            .append("/")
            .append(version.getName())
            .append("`");
        List<String> shortNames = crd.getSpec().getNames().getShortNames();
        if (shortNames != null && !shortNames.isEmpty()) {
          md.append(", short names `").append(String.join("`, `", shortNames)).append("`");
        }
        md.append(", contract label `cluster.x-k8s.io/v1beta2: ")
            .append(crd.getMetadata().getLabels().get("cluster.x-k8s.io/v1beta2"))
            .append("`.\n");
        Map<String, JSONSchemaProps> top = version.getSchema().getOpenAPIV3Schema().getProperties();
        for (String section : List.of("spec", "status")) {
          if (top.containsKey(section)) {
            md.append("\n| Field | Type | Description and rules |\n|---|---|---|\n");
            walk(md, section, top.get(section), false);
          }
        }
      }
    }
    return md.toString();
  }

  private static void walk(
      StringBuilder md, String path, JSONSchemaProps schema, boolean required) {
    md.append("| `").append(path).append("`").append(required ? " (required)" : "").append(" | ");
    md.append(type(schema)).append(" | ").append(describe(schema)).append(" |\n");
    JSONSchemaProps element = schema.getItems() != null ? schema.getItems().getSchema() : null;
    Map<String, JSONSchemaProps> properties =
        element != null && element.getProperties() != null
            ? element.getProperties()
            : schema.getProperties();
    String prefix = element != null ? path + "[]" : path;
    JSONSchemaProps holder = element != null ? element : schema;
    if (properties != null && !"status.conditions".equals(path)) {
      for (Map.Entry<String, JSONSchemaProps> child : new TreeMap<>(properties).entrySet()) {
        boolean childRequired =
            holder.getRequired() != null && holder.getRequired().contains(child.getKey());
        walk(md, prefix + "." + child.getKey(), child.getValue(), childRequired);
      }
    }
  }

  private static String type(JSONSchemaProps schema) {
    if ("array".equals(schema.getType()) && schema.getItems() != null) {
      return "[]" + schema.getItems().getSchema().getType();
    }
    if (schema.getAdditionalProperties() != null
        && schema.getAdditionalProperties().getSchema() != null) {
      return "map[string]" + schema.getAdditionalProperties().getSchema().getType();
    }
    return schema.getType();
  }

  private static String describe(JSONSchemaProps schema) {
    List<String> parts = new ArrayList<>();
    if (schema.getDescription() != null) {
      parts.add(schema.getDescription().replace("\n", " "));
    }
    if (schema.getDefault() != null) {
      parts.add("Default `" + schema.getDefault().toString().replace("\"", "") + "`.");
    }
    if (schema.getEnum() != null && !schema.getEnum().isEmpty()) {
      parts.add(
          "One of "
              + schema.getEnum().stream()
                  .map(e -> "`" + e.toString().replace("\"", "") + "`")
                  .toList()
              + ".");
    }
    bound(parts, "length", schema.getMinLength(), schema.getMaxLength());
    bound(parts, "items", schema.getMinItems(), schema.getMaxItems());
    if (schema.getMinimum() != null || schema.getMaximum() != null) {
      parts.add("Range " + num(schema.getMinimum()) + "–" + num(schema.getMaximum()) + ".");
    }
    if (schema.getPattern() != null) {
      parts.add("Pattern `" + schema.getPattern() + "`.");
    }
    if (schema.getXKubernetesValidations() != null) {
      for (ValidationRule rule : schema.getXKubernetesValidations()) {
        parts.add("Rule: " + rule.getMessage() + ".");
      }
    }
    if ("map".equals(schema.getXKubernetesListType())) {
      parts.add("List keyed by `" + String.join(", ", schema.getXKubernetesListMapKeys()) + "`.");
    }
    return String.join(" ", parts).replace("|", "\\|");
  }

  private static void bound(List<String> parts, String what, Long min, Long max) {
    if (min != null || max != null) {
      parts.add(
          "Up to "
              + (max == null ? "any" : max)
              + " "
              + what
              + (min != null && min > 0 ? ", at least " + min : "")
              + ".");
    }
  }

  private static String num(Double d) {
    return d == null ? "" : String.valueOf(d.longValue());
  }
}
