package io.openshiftagent.simulator.benchmark;

import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.openshiftagent.simulator.ApiVersions;
import io.openshiftagent.simulator.Fields;
import io.openshiftagent.simulator.World;
import io.openshiftagent.simulator.e2e.ApiObjects;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * What a user of a provider pair sees of one installed cluster, observed at the end of a comparison
 * run: the conditions of its objects, the Events in its namespace by who reported them, its Nodes'
 * names, roles and provider IDs; then, once the Cluster is deleted, what is left in the namespace
 * and of the cluster-scoped objects. The pairs' reports set side by side are what
 * docs/from-the-go-provider.md's table is checked against.
 */
final class WhatAUserSees {
  private static final Duration DELETION_TIMEOUT = Duration.ofMinutes(5);

  /** The kinds whose conditions a user reads, and which one of each when there are several. */
  private static final List<String[]> CONDITIONS_OF =
      List.of(
          new String[] {ApiVersions.CAPI, "Cluster"},
          new String[] {ApiVersions.CONTROL_PLANE, "OpenshiftAssistedControlPlane"},
          new String[] {ApiVersions.BOOTSTRAP, "OpenshiftAssistedConfig"},
          new String[] {ApiVersions.CAPI, "Machine"},
          new String[] {ApiVersions.HIVE_EXTENSION, "AgentClusterInstall"});

  private WhatAUserSees() {}

  /** The report, as lines; deletes the Cluster {@code cluster} in {@code namespace}. */
  static String of(World world, String namespace, String cluster) throws InterruptedException {
    KubernetesClient hub = world.hub();
    StringBuilder report = new StringBuilder();
    report.append(String.format("What a user sees of %s/%s:%n", namespace, cluster));
    for (String[] kind : CONDITIONS_OF) {
      hub
          .genericKubernetesResources(kind[0], kind[1])
          .inNamespace(namespace)
          .list()
          .getItems()
          .stream()
          .min(Comparator.comparing(o -> o.getMetadata().getName()))
          .ifPresent(
              o ->
                  report.append(
                      String.format(
                          "  %s %s: %s%n",
                          kind[1], o.getMetadata().getName(), String.join(", ", conditions(o)))));
    }
    report.append("  Events (reported by, kind, type, reason: how many):\n");
    Map<String, Integer> events = new TreeMap<>();
    for (Event e : hub.v1().events().inNamespace(namespace).list().getItems()) {
      String by =
          e.getReportingComponent() != null && !e.getReportingComponent().isEmpty()
              ? e.getReportingComponent()
              : e.getSource() == null ? "?" : e.getSource().getComponent();
      events.merge(
          String.format(
              "%s, %s, %s, %s", by, e.getInvolvedObject().getKind(), e.getType(), e.getReason()),
          e.getCount() == null ? 1 : e.getCount(),
          Integer::sum);
    }
    events.forEach((k, n) -> report.append(String.format("    %s: %d%n", k, n)));
    report.append("  Nodes (name, roles, provider ID):\n");
    for (Node node : world.workload().nodes().list().getItems()) {
      if (node.getMetadata().getName().startsWith(cluster + "-")) {
        Set<String> roles = new TreeSet<>();
        node.getMetadata().getLabels().keySet().stream()
            .filter(l -> l.startsWith("node-role.kubernetes.io/"))
            .forEach(l -> roles.add(l.substring(l.indexOf('/') + 1)));
        report.append(
            String.format(
                "    %s %s %s%n",
                node.getMetadata().getName(), roles, node.getSpec().getProviderID()));
      }
    }
    Set<String> sets = imageSets(hub);
    hub.genericKubernetesResources(ApiVersions.CAPI, "Cluster")
        .inNamespace(namespace)
        .withName(cluster)
        .delete();
    long deadline = System.nanoTime() + DELETION_TIMEOUT.toNanos();
    boolean gone = false;
    long started = System.nanoTime();
    while (!gone && System.nanoTime() < deadline) {
      gone =
          hub.genericKubernetesResources(ApiVersions.CAPI, "Cluster")
                  .inNamespace(namespace)
                  .withName(cluster)
                  .get()
              == null;
      Thread.sleep(500);
    }
    report.append(
        gone
            ? String.format(
                "  the Cluster deleted: gone after %.0f s; then left in the namespace:%n",
                (System.nanoTime() - started) / 1e9)
            : String.format(
                "  the Cluster deleted: NOT gone in %s; in the namespace:%n", DELETION_TIMEOUT));
    // What the garbage collector and the baremetal-operator take a moment more for.
    Thread.sleep(10_000);
    ApiObjects.list(hub, true, namespace)
        .forEach(o -> report.append("    ").append(o).append('\n'));
    Set<String> setsLeft = imageSets(hub);
    report
        .append("  ClusterImageSets before and after: ")
        .append(sets)
        .append(" -> ")
        .append(setsLeft)
        .append('\n');
    return report.toString();
  }

  private static Set<String> imageSets(KubernetesClient hub) {
    Set<String> names = new TreeSet<>();
    hub.genericKubernetesResources(ApiVersions.HIVE, "ClusterImageSet")
        .list()
        .getItems()
        .forEach(s -> names.add(s.getMetadata().getName()));
    return names;
  }

  /** {@code type=status (reason)} of each condition the object's status has. */
  private static List<String> conditions(GenericKubernetesResource o) {
    List<Map<String, Object>> conditions = Fields.conditions(o);
    if (conditions.isEmpty()) {
      return List.of("no conditions");
    }
    return conditions.stream()
        .map(c -> c.get("type") + "=" + c.get("status") + " (" + c.get("reason") + ")")
        .toList();
  }
}
