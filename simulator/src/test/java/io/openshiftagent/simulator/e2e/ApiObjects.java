package io.openshiftagent.simulator.e2e;

import io.fabric8.kubernetes.api.model.APIGroup;
import io.fabric8.kubernetes.api.model.APIResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Every object an API server holds, found through discovery (each group's preferred version, each
 * listable kind), as {@code apiVersion kind name}: to show that a deletion left nothing behind.
 */
public final class ApiObjects {
  private ApiObjects() {}

  /**
   * @param namespaced the namespaced kinds (in {@code namespace}) or the cluster-scoped ones
   */
  public static Set<String> list(KubernetesClient client, boolean namespaced, String namespace) {
    return new TreeSet<>(objects(client, namespaced, namespace).keySet());
  }

  /**
   * The same objects, by {@code apiVersion kind name}; with their owner references (items of a list
   * may lack their kind, so the key says it).
   */
  public static Map<String, GenericKubernetesResource> objects(
      KubernetesClient client, boolean namespaced, String namespace) {
    Map<String, GenericKubernetesResource> objects = new TreeMap<>();
    for (String groupVersion : groupVersions(client)) {
      for (APIResource kind : client.getApiResources(groupVersion).getResources()) {
        if (kind.getName().contains("/")
            || !kind.getVerbs().contains("list")
            || kind.getNamespaced() != namespaced
            || kind.getKind().equals("Event")) {
          continue;
        }
        ResourceDefinitionContext context =
            new ResourceDefinitionContext.Builder()
                .withGroup(groupVersion.contains("/") ? groupVersion.split("/")[0] : "")
                .withVersion(groupVersion.contains("/") ? groupVersion.split("/")[1] : groupVersion)
                .withKind(kind.getKind())
                .withPlural(kind.getName())
                .withNamespaced(namespaced)
                .build();
        var resources = client.genericKubernetesResources(context);
        List<GenericKubernetesResource> items =
            namespaced
                ? resources.inNamespace(namespace).list().getItems()
                : resources.list().getItems();
        for (GenericKubernetesResource item : items) {
          objects.put(
              ClusterScenario.describe(groupVersion, kind.getKind(), item.getMetadata().getName()),
              item);
        }
      }
    }
    return objects;
  }

  private static List<String> groupVersions(KubernetesClient client) {
    List<String> groupVersions = new ArrayList<>(List.of("v1"));
    for (APIGroup group : client.getApiGroups().getGroups()) {
      groupVersions.add(group.getPreferredVersion().getGroupVersion());
    }
    return groupVersions;
  }
}
