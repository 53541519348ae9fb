package io.openshiftagent.simulator.e2e;

import io.fabric8.kubernetes.api.model.APIResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.openshiftagent.simulator.World;
import io.openshiftagent.testsupport.AuditLog;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * Which objects of a namespace the hub's garbage collector deleted (the world's real
 * kube-controller-manager), as the hub's audit log records its requests: an object the user created
 * may leave with a deleted Cluster only that way (Cluster API makes the Cluster the owner of the
 * worker templates), never because one of our providers or anything else deleted it.
 */
final class GarbageCollection {
  private GarbageCollection() {}

  /**
   * Those of {@code objects} ({@code apiVersion kind name}, in {@code namespace}) the garbage
   * collector deleted.
   */
  static Set<String> collected(
      KubernetesClient hub, Path auditLog, String namespace, Set<String> objects) {
    Set<String> collected = new TreeSet<>();
    if (objects.isEmpty()) {
      return collected;
    }
    List<AuditLog.Request> deletes =
        AuditLog.deletesBy(auditLog, World.GARBAGE_COLLECTOR_USER_AGENT, namespace);
    for (String object : objects) {
      String[] parts = object.split(" ");
      String apiVersion = parts[0];
      String group =
          apiVersion.contains("/") ? apiVersion.substring(0, apiVersion.indexOf('/')) : "";
      String plural =
          hub.getApiResources(apiVersion).getResources().stream()
              .filter(r -> r.getKind().equals(parts[1]) && !r.getName().contains("/"))
              .map(APIResource::getName)
              .findFirst()
              .orElse(null);
      boolean deleted =
          deletes.stream()
              .anyMatch(
                  d ->
                      d.apiGroup().equals(group)
                          && d.resource().equals(plural)
                          && d.name().equals(parts[2]));
      if (deleted) {
        collected.add(object);
      }
    }
    return collected;
  }

  /**
   * Everything the garbage collector deleted in {@code namespace} ({@code resource name}, e.g.
   * {@code secrets test-admin-kubeconfig}), in the order it did.
   */
  static List<String> deletedIn(Path auditLog, String namespace) {
    return AuditLog.deletesBy(auditLog, World.GARBAGE_COLLECTOR_USER_AGENT, namespace).stream()
        .map(d -> d.resource() + " " + d.name())
        .toList();
  }
}
