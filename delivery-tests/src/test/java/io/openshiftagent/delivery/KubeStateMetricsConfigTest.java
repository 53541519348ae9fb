package io.openshiftagent.delivery;

import static org.assertj.core.api.Assertions.assertThat;

import io.openshiftagent.testsupport.TestPaths;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * The kube-state-metrics configuration names our four kinds at the versions we serve, and every
 * path it reads is a field of their CRDs' schemas: a renamed field fails here, not silently as a
 * metric that never shows.
 */
class KubeStateMetricsConfigTest {
  private static final Path CONFIG =
      TestPaths.repoRoot().resolve("config/kube-state-metrics/custom-resource-state.yaml");

  @Test
  @SuppressWarnings("unchecked")
  void everyKindIsOursAndEveryPathIsInItsSchema() {
    Map<String, Object> config = Release.objects(CONFIG).get(0);
    assertThat(config).containsEntry("kind", "CustomResourceStateMetrics");
    List<Map<String, Object>> resources =
        (List<Map<String, Object>>) ((Map<String, Object>) config.get("spec")).get("resources");
    Set<String> kinds = new TreeSet<>();
    List<String> missing = new ArrayList<>();
    for (Map<String, Object> resource : resources) {
      Map<String, Object> gvk = (Map<String, Object>) resource.get("groupVersionKind");
      kinds.add(gvk.get("kind") + "." + gvk.get("group") + "/" + gvk.get("version"));
      Map<String, Object> schema = schema(gvk);
      ((Map<String, List<String>>) resource.get("labelsFromPath"))
          .values()
          .forEach(p -> check(schema, p, gvk, missing));
      for (Map<String, Object> metric : (List<Map<String, Object>>) resource.get("metrics")) {
        Map<String, Object> each = (Map<String, Object>) metric.get("each");
        Map<String, Object> kind =
            (Map<String, Object>) each.get(lowerFirst(each.get("type").toString()));
        List<String> path = (List<String>) kind.getOrDefault("path", List.of());
        check(schema, path, gvk, missing);
        if (!path.isEmpty() && path.get(0).equals("metadata")) {
          continue; // owner references: ObjectMeta's
        }
        Map<String, Object> items = items(schema, path);
        ((Map<String, List<String>>) kind.getOrDefault("labelsFromPath", Map.of()))
            .values()
            .forEach(p -> check(items, p, gvk, missing));
        if (kind.get("valueFrom") instanceof List<?> valueFrom) {
          check(items, (List<String>) valueFrom, gvk, missing);
        }
      }
    }
    assertThat(kinds)
        .containsExactly(
            "OpenshiftAssistedConfig.bootstrap.cluster.x-k8s.io/v1alpha2",
            "OpenshiftAssistedConfigTemplate.bootstrap.cluster.x-k8s.io/v1alpha2",
            "OpenshiftAssistedControlPlane.controlplane.cluster.x-k8s.io/v1alpha3",
            "OpenshiftAssistedControlPlaneTemplate.controlplane.cluster.x-k8s.io/v1alpha3");
    assertThat(missing).as("paths not in the CRDs' schemas").isEmpty();
  }

  /** The openAPIV3Schema of the served version the entry names. */
  @SuppressWarnings("unchecked")
  private static Map<String, Object> schema(Map<String, Object> gvk) {
    String plural = gvk.get("kind").toString().toLowerCase() + "s";
    Path crd =
        TestPaths.ourCrds()
            .resolve(
                gvk.get("group").toString().startsWith("bootstrap") ? "bootstrap" : "controlplane")
            .resolve(gvk.get("group") + "_" + plural + ".yaml");
    Map<String, Object> spec = (Map<String, Object>) Release.objects(crd).get(0).get("spec");
    for (Map<String, Object> version : (List<Map<String, Object>>) spec.get("versions")) {
      if (version.get("name").equals(gvk.get("version"))
          && Boolean.TRUE.equals(version.get("served"))) {
        return (Map<String, Object>)
            ((Map<String, Object>) version.get("schema")).get("openAPIV3Schema");
      }
    }
    throw new AssertionError("no served version " + gvk.get("version") + " in " + crd);
  }

  /** The schema of the elements at {@code path} (an array's items), or of the field itself. */
  @SuppressWarnings("unchecked")
  private static Map<String, Object> items(Map<String, Object> schema, List<String> path) {
    Map<String, Object> at = resolve(schema, path);
    if (at == null) {
      return Map.of();
    }
    return at.containsKey("items") ? (Map<String, Object>) at.get("items") : at;
  }

  private static void check(
      Map<String, Object> schema,
      List<String> path,
      Map<String, Object> gvk,
      List<String> missing) {
    if (!path.isEmpty() && path.get(0).equals("metadata")) {
      return; // ObjectMeta: not in a CRD's schema
    }
    if (resolve(schema, path) == null) {
      missing.add(gvk.get("kind") + " " + path);
    }
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> resolve(Map<String, Object> schema, List<String> path) {
    Map<String, Object> at = schema;
    for (String field : path) {
      if (at.containsKey("items")) {
        at = (Map<String, Object>) at.get("items");
      }
      Map<String, Object> properties = (Map<String, Object>) at.get("properties");
      if (properties == null || !properties.containsKey(field)) {
        return null;
      }
      at = (Map<String, Object>) properties.get(field);
    }
    return at;
  }

  private static String lowerFirst(String type) {
    return Character.toLowerCase(type.charAt(0)) + type.substring(1);
  }
}
