package io.openshiftagent.simulator.faults;

import static io.openshiftagent.simulator.Fields.annotation;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.openshiftagent.simulator.ApiVersions;
import io.openshiftagent.simulator.Fields;
import io.openshiftagent.simulator.e2e.ClusterScenario;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a deleted cluster must leave, checked the same way by every deletion test: the namespace
 * holds only what the user created and the Cluster did not own, every host is released, the
 * cluster's ClusterImageSet is gone.
 */
final class DeletionChecks {
  private static final Logger LOG = LoggerFactory.getLogger(DeletionChecks.class);

  /** What the bootstrap provider sets on a host whose Agent boots from disk (LiveISO). */
  static final String DETACHED = "baremetalhost.metal3.io/detached";

  private DeletionChecks() {}

  /**
   * Waits until the namespace holds only what the user created and the Cluster did not own (and
   * what the baremetal-operator keeps for the user's hosts): everything else deleted, by its
   * owners' controllers or by the hub's real garbage collector, nothing excused; on timeout, names
   * each leftover with its deletion timestamp and finalizers, and what of the user's went another
   * way than the garbage collector. Returns how many looks it took.
   */
  static int awaitNothingLeft(ClusterScenario scenario) {
    AtomicInteger looks = new AtomicInteger();
    try {
      scenario.await(
          "the namespace to hold only what the user created and the Cluster did not own (and"
              + " what the baremetal-operator keeps for the user's hosts)",
          () ->
              looks.incrementAndGet() > 0
                  && scenario
                      .everythingInTheNamespace()
                      .equals(scenario.whatDeletingTheClusterMustLeave()));
      LOG.info(
          "{}: the garbage collector deleted {}",
          scenario.namespace(),
          scenario.whatTheGarbageCollectorDeleted());
      return looks.get();
    } catch (AssertionError e) {
      Set<String> present = scenario.everythingInTheNamespace();
      Set<String> expected = scenario.whatDeletingTheClusterMustLeave();
      Set<String> leftovers = new TreeSet<>(present);
      leftovers.removeAll(expected);
      Set<String> missing = new TreeSet<>(expected);
      missing.removeAll(present);
      throw new AssertionError(
          e.getMessage()
              + "; left: "
              + leftovers.stream()
                  .map(o -> o + describeDeletion(scenario, o))
                  .collect(Collectors.joining(", "))
              + "; the user's, deleted but not by the garbage collector: "
              + missing,
          e);
    }
  }

  private static String describeDeletion(ClusterScenario scenario, String described) {
    String[] parts = described.split(" ");
    GenericKubernetesResource object = scenario.get(parts[0], parts[1], parts[2]);
    if (object == null || object.getMetadata().getDeletionTimestamp() == null) {
      return "";
    }
    return " (deleting since "
        + object.getMetadata().getDeletionTimestamp()
        + ", finalizers "
        + object.getMetadata().getFinalizers()
        + ")";
  }

  /**
   * Every host is back with the baremetal-operator, deprovisioned, unclaimed and available: no
   * consumer, image, user data or power, not detached, not being deleted.
   */
  static void assertHostsReleased(ClusterScenario scenario) {
    for (GenericKubernetesResource host : scenario.list(ApiVersions.METAL3, "BareMetalHost")) {
      String name = "host " + ClusterScenario.name(host);
      assertThat(ClusterScenario.isFree(host)).as(name + " free").isTrue();
      assertThat(Fields.get(host, "spec", "image")).as(name + " image").isNull();
      assertThat(Fields.get(host, "spec", "userData")).as(name + " user data").isNull();
      assertThat(Fields.isTrue(host, "spec", "online")).as(name + " online").isFalse();
      assertThat(annotation(host, DETACHED)).as(name + " detached").isNull();
      assertThat(host.getMetadata().getDeletionTimestamp()).as(name + " deleting").isNull();
    }
  }

  /** The ClusterImageSet {@code <namespace>.<control plane>} our finalizer deletes is gone. */
  static void assertImageSetGone(ClusterScenario scenario, String controlPlane) {
    assertThat(
            scenario
                .hub()
                .genericKubernetesResources(ApiVersions.HIVE, "ClusterImageSet")
                .withName(scenario.namespace() + "." + controlPlane)
                .get())
        .as("ClusterImageSet of " + scenario.namespace())
        .isNull();
  }
}
