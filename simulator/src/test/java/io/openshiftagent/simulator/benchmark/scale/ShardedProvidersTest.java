package io.openshiftagent.simulator.benchmark.scale;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.openshiftagent.simulator.ApiVersions;
import io.openshiftagent.simulator.Fields;
import io.openshiftagent.simulator.e2e.E2eWorld;
import io.openshiftagent.testsupport.AuditLog;
import io.openshiftagent.testsupport.KubeApiServerEnvironment;
import io.openshiftagent.testsupport.ProviderRequests;
import io.openshiftagent.testsupport.ReleaseRegistry;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Two shards of each provider side by side on one hub, each with {@code --watch-filter} of its own
 * (docs/operations.md, "Sharding a hub"), and single-node clusters labelled for one or the other:
 * each shard's clusters install, each object our providers write is written by one replica only,
 * the one of the object's shard. The hub is one of its own, the rest of the world the scale
 * benchmark's stand-ins ({@link ScaleWorld}): what is shown is how the providers divide the hub,
 * which the stand-ins do not decide.
 */
// With the other worlds of their own, after the shared world's classes.
@Tag(E2eWorld.HUB_OF_ITS_OWN)
// Where it starts among the worlds of their own, two lanes of about equal length (WorldClassOrder).
@Order(3)
class ShardedProvidersTest {
  private static final Map<Integer, String> SHARD_OF =
      Map.of(1, "shard-a", 2, "shard-a", 3, "shard-b", 4, "shard-b");

  @Test
  void eachShardInstallsItsOwnClustersAndNoObjectIsWrittenByBoth() throws Exception {
    Path dir = Path.of("target", "shards").toAbsolutePath();
    Path audit = dir.resolve("kube-apiserver").resolve("audit.log");
    try (KubeApiServerEnvironment hub = KubeApiServerEnvironment.startHub(audit.getParent());
        ScaleWorld world =
            ScaleWorld.start(
                hub, dir, Pace.fast(), List.of(Optional.of("shard-a"), Optional.of("shard-b")))) {
      String releases = ReleaseRegistry.shared().ocpRepository();
      SHARD_OF.forEach(
          (index, shard) -> new SnoFleet(releases, Optional.of(shard)).apply(hub.client(), index));

      awaitAvailable(hub.client(), Duration.ofMinutes(5));

      Map<String, Set<String>> writers = new TreeMap<>();
      for (AuditLog.Request r : AuditLog.read(audit)) {
        if (r.isWrite()
            && ProviderRequests.provider(r).isPresent()
            && !r.resource().equals("events")) {
          writers.computeIfAbsent(object(r), k -> new TreeSet<>()).add(replica(r.userAgent()));
        }
      }
      assertThat(writers).isNotEmpty();
      writers.forEach(
          (object, replicas) -> {
            // Both providers may write one object (the control plane makes a Metal3Machine, the
            // bootstrap provider sets its image), but only the replicas of the object's shard.
            String shard = SHARD_OF.get(index(object));
            assertThat(replicas).as("who wrote %s", object).allMatch(r -> r.endsWith("-" + shard));
          });
      Set<String> all = new TreeSet<>();
      writers.values().forEach(all::addAll);
      assertThat(all)
          .containsExactlyInAnyOrder(
              "bootstrap-provider-shard-a",
              "bootstrap-provider-shard-b",
              "controlplane-provider-shard-a",
              "controlplane-provider-shard-b");
    }
  }

  /** Waits until every cluster's Cluster is Available (the stand-in reports it so). */
  private static void awaitAvailable(KubernetesClient hub, Duration timeout)
      throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    List<String> waiting = new ArrayList<>();
    while (System.nanoTime() < deadline) {
      waiting.clear();
      for (int index : SHARD_OF.keySet()) {
        GenericKubernetesResource cluster =
            hub.genericKubernetesResources(ApiVersions.CAPI, "Cluster")
                .inNamespace(SnoFleet.namespace(index))
                .withName(SnoFleet.cluster(index))
                .get();
        if (cluster == null || !Fields.conditionTrue(cluster, "Available")) {
          waiting.add(SnoFleet.cluster(index));
        }
      }
      if (waiting.isEmpty()) {
        return;
      }
      Thread.sleep(1_000);
    }
    throw new AssertionError("not Available after " + timeout + ": " + waiting);
  }

  /** The object a request wrote: resource (without subresource), namespace and name. */
  private static String object(AuditLog.Request r) {
    return r.resource().replaceFirst("/.*", "") + " " + r.namespace() + "/" + r.name();
  }

  /**
   * The cluster an object belongs to: its namespace, or for a ClusterImageSet its name ({@code
   * <namespace>.<cluster>}).
   */
  private static int index(String object) {
    String where = object.substring(object.indexOf(' ') + 1);
    String namespace = where.startsWith("/") ? where.substring(1, where.indexOf('.')) : where;
    return Integer.parseInt(namespace.replaceAll("^scale-(\\d+).*$", "$1"));
  }

  /** The replica's pod name, from {@code openshift-agent-<provider>/<version> (<pod>_<suffix>)}. */
  private static String replica(String userAgent) {
    return userAgent.replaceAll("^.*\\((.*)_[^_)]*\\)$", "$1");
  }
}
