package io.openshiftagent.simulator.faults;

import static io.openshiftagent.simulator.Fields.annotation;
import static io.openshiftagent.simulator.Fields.conditionTrue;
import static io.openshiftagent.simulator.Fields.string;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import io.openshiftagent.api.external.ExternalKinds;
import io.openshiftagent.simulator.ApiVersions;
import io.openshiftagent.simulator.Fields;
import io.openshiftagent.simulator.SimulatedDurations;
import io.openshiftagent.simulator.World;
import io.openshiftagent.simulator.e2e.ApiObjects;
import io.openshiftagent.simulator.e2e.ClusterScenario;
import io.openshiftagent.simulator.e2e.E2eWorld;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Deletion at any stage: one world, one HA cluster (3 control-plane Machines and 1 worker, LiveISO)
 * per stage of the flow, each in its own namespace, all at once. Each cluster is deleted as a user
 * does ({@code kubectl delete cluster}) the moment a watch shows its stage, and must then leave
 * nothing behind: in its namespace only what the user created that the Cluster did not own (pull
 * secret, BMC Secrets, BareMetalHosts, templates), every host released and deprovisioned, nothing
 * left deleting; and, once all are gone, no cluster-scoped object (our ClusterImageSets) beyond
 * those from before, and a namespace the user then deletes is emptied and removed. Logs, per stage,
 * what existed when the deletion was requested and how long the deletion took.
 */
@Tag(E2eWorld.HUB_OF_ITS_OWN)
// Where it starts among the worlds of their own, two lanes of about equal length (WorldClassOrder).
@Order(6)
class DeletionAtAnyStageTest {
  private static final Logger LOG = LoggerFactory.getLogger(DeletionAtAnyStageTest.class);

  /**
   * Long enough for a watch to catch each stage before the flow moves on: a host's boot takes a
   * second, each installation step half a second (the real baremetal-operator's provisioning takes
   * its own seconds). One API server for every installed cluster: the clusters' Node names (their
   * Machines') are unique, and no stage needs an upgrade.
   */
  private static final SimulatedDurations DURATIONS =
      new SimulatedDurations(Duration.ofSeconds(1), Duration.ofMillis(500));

  @RegisterExtension
  static final E2eWorld world =
      new E2eWorld(
          options -> options.withDurations(DURATIONS).withWorkloads(World.Workloads.SHARED));

  private static final String CLUSTER = "test-multinode";

  private static final String DETACHED = DeletionChecks.DETACHED;

  private static final String WORKERS = "test-multinode-worker";

  /** What a user deletes at a stage. */
  enum Target {
    CLUSTER,
    /** The control plane first (and waits until it is gone), then the Cluster. */
    CONTROL_PLANE_THEN_CLUSTER
  }

  /**
   * A point of the flow, recognised by the first watch event of {@code kind} that {@code reached}
   * accepts (existing objects included: the watch starts with them). No kind: right after apply.
   */
  record Stage(
      String name,
      String apiVersion,
      String kind,
      Predicate<GenericKubernetesResource> reached,
      boolean scaleUpFirst,
      Target target) {

    static Stage of(
        String name, String apiVersion, String kind, Predicate<GenericKubernetesResource> reached) {
      return new Stage(name, apiVersion, kind, reached, false, Target.CLUSTER);
    }
  }

  /** The control plane's Available reasons before it makes anything (null: no status yet). */
  private static final Set<String> PREFLIGHT =
      Set.of(
          "null",
          "WaitingForCluster",
          "WaitingForControlPlaneEndpoint",
          "WaitingForInfrastructure");

  static final List<Stage> STAGES =
      List.of(
          Stage.of("applied", null, null, o -> true),
          // Linked to its Cluster and not past its preflight: the control plane writes no status
          // for those first seconds unless they last (they are details), so its Available
          // condition may not say it yet.
          Stage.of(
              "waiting-for-infrastructure",
              ApiVersions.CONTROL_PLANE,
              "OpenshiftAssistedControlPlane",
              cp ->
                  cp.getMetadata().getOwnerReferences().stream()
                          .anyMatch(r -> "Cluster".equals(r.getKind()))
                      && PREFLIGHT.contains(String.valueOf(conditionReason(cp, "Available")))),
          Stage.of(
              "cluster-install-created",
              ApiVersions.HIVE_EXTENSION,
              "AgentClusterInstall",
              aci -> true),
          Stage.of("infraenv-created", ApiVersions.AGENT_INSTALL, "InfraEnv", i -> true),
          Stage.of(
              "host-provisioning",
              ApiVersions.METAL3,
              "BareMetalHost",
              h -> "provisioning".equals(string(h, "status", "provisioning", "state"))),
          Stage.of("agent-registered", ApiVersions.AGENT_INSTALL, "Agent", a -> true),
          Stage.of(
              "installing-host-detached",
              ApiVersions.METAL3,
              "BareMetalHost",
              h -> annotation(h, DETACHED) != null),
          Stage.of("available", ApiVersions.CAPI, "Cluster", c -> conditionTrue(c, "Available")),
          new Stage(
              "scaling-up-worker-installing",
              ApiVersions.AGENT_INSTALL,
              "Agent",
              a -> {
                String stage = string(a, "status", "progress", "currentStage");
                return stage != null && !"Done".equals(stage);
              },
              true,
              Target.CLUSTER),
          new Stage(
              "installing-control-plane-deleted-first",
              ApiVersions.METAL3,
              "BareMetalHost",
              h -> annotation(h, DETACHED) != null,
              false,
              Target.CONTROL_PLANE_THEN_CLUSTER));

  /** What one stage's deletion measured. */
  record Outcome(
      Stage stage,
      String trigger,
      long reactionMillis,
      String atRequest,
      Duration clusterGone,
      Duration namespaceClean,
      int looks,
      Duration controlPlaneDeletion) {}

  /**
   * When the control plane was first seen being deleted and when it was gone: how long our
   * finalizer took (its Machines, ClusterDeployment and the rest), Cluster API's order aside.
   */
  private static final class ControlPlaneDeletion implements Watcher<GenericKubernetesResource> {
    private volatile long deleting;
    private volatile long gone;

    @Override
    public void eventReceived(Action action, GenericKubernetesResource cp) {
      long now = System.nanoTime();
      if (deleting == 0 && cp.getMetadata().getDeletionTimestamp() != null) {
        deleting = now;
      }
      if (action == Action.DELETED) {
        gone = now;
      }
    }

    @Override
    public void onClose(WatcherException cause) {}

    Duration took() {
      return deleting == 0 || gone == 0 ? null : Duration.ofNanos(gone - deleting);
    }
  }

  @Test
  void deletingAtEachStageLeavesNothingBehindAndNoFinalizerStuck() throws Exception {
    List<ClusterScenario> scenarios = new ArrayList<>();
    for (Stage stage : STAGES) {
      ClusterScenario scenario = world.scenario("delete-" + stage.name(), CLUSTER);
      scenario.enrolHosts(stage.scaleUpFirst() ? 5 : 4);
      scenarios.add(scenario);
    }
    Set<String> clusterScopedBefore = ApiObjects.list(world.world().hub(), false, null);

    ExecutorService pool = Executors.newFixedThreadPool(STAGES.size());
    List<Future<Outcome>> running = new ArrayList<>();
    try {
      for (int i = 0; i < STAGES.size(); i++) {
        Stage stage = STAGES.get(i);
        ClusterScenario scenario = scenarios.get(i);
        running.add(pool.submit(() -> deleteAt(stage, scenario)));
      }
      List<Outcome> outcomes = new ArrayList<>();
      List<String> failures = new ArrayList<>();
      for (int i = 0; i < running.size(); i++) {
        try {
          outcomes.add(running.get(i).get(12, TimeUnit.MINUTES));
        } catch (ExecutionException e) {
          failures.add(STAGES.get(i).name() + ": " + e.getCause());
        }
      }
      outcomes.forEach(DeletionAtAnyStageTest::log);
      assertThat(failures).as("stages whose deletion left something behind").isEmpty();
    } finally {
      pool.shutdownNow();
    }

    // Cluster-wide: our ClusterImageSets are gone, and nothing else of ours is left.
    assertThat(ApiObjects.list(world.world().hub(), false, null)).isEqualTo(clusterScopedBefore);

    // The user then deletes a namespace the deletion left: the hub's namespace controller empties
    // it (the hosts, their Secrets, the templates) and removes it; nothing of ours holds it.
    ClusterScenario first = scenarios.get(0);
    var namespace = world.world().hub().namespaces().withName(first.namespace());
    namespace.delete();
    Duration removed =
        first.await(
            "namespace " + first.namespace() + " emptied and removed by the namespace controller",
            () -> namespace.get() == null);
    LOG.info(
        "namespace {} removed {} ms after its deletion", first.namespace(), removed.toMillis());
  }

  private Outcome deleteAt(Stage stage, ClusterScenario scenario) throws Exception {
    CompletableFuture<Seen> reached = new CompletableFuture<>();
    Watch watch = null;
    ControlPlaneDeletion controlPlaneDeletion = new ControlPlaneDeletion();
    try (Watch controlPlaneWatch =
        scenario
            .hub()
            .genericKubernetesResources(ApiVersions.CONTROL_PLANE, "OpenshiftAssistedControlPlane")
            .inNamespace(scenario.namespace())
            .watch(controlPlaneDeletion)) {
      if (!stage.scaleUpFirst()) {
        watch = watchFor(stage, scenario, reached);
      }
      scenario.apply("/e2e/ha.yaml", Map.of("BOOT_MODE", "LiveISO", "WORKERS", "1"));
      if (stage.scaleUpFirst()) {
        CompletableFuture<Seen> available = new CompletableFuture<>();
        try (Watch cluster =
            watch(
                scenario,
                ApiVersions.CAPI,
                "Cluster",
                c -> conditionTrue(c, "Available"),
                available)) {
          available.get(ClusterScenario.TIMEOUT.toSeconds(), TimeUnit.SECONDS);
        }
        scenario.setSpec(ApiVersions.CAPI, "MachineDeployment", WORKERS, "replicas", 2);
        watch = watchFor(stage, scenario, reached);
      }
      Seen trigger =
          stage.kind() == null
              ? new Seen(null, System.nanoTime())
              : reached.get(ClusterScenario.TIMEOUT.toSeconds(), TimeUnit.SECONDS);
      // As a user would: kubectl delete (background propagation, as clusterctl and kubectl do).
      if (stage.target() == Target.CONTROL_PLANE_THEN_CLUSTER) {
        scenario.delete(ApiVersions.CONTROL_PLANE, "OpenshiftAssistedControlPlane", CLUSTER);
      } else {
        scenario.delete(ApiVersions.CAPI, "Cluster", CLUSTER);
      }
      long requested = System.nanoTime();
      String atRequest = whatExists(scenario);
      if (stage.target() == Target.CONTROL_PLANE_THEN_CLUSTER) {
        scenario.await(
            "the control plane and its Machines, ClusterDeployment and AgentClusterInstall deleted",
            () ->
                scenario.controlPlane() == null
                    && scenario.list(ApiVersions.HIVE, "ClusterDeployment").isEmpty()
                    && scenario.list(ApiVersions.HIVE_EXTENSION, "AgentClusterInstall").isEmpty()
                    && scenario.list(ApiVersions.CAPI, "Machine").stream()
                        .noneMatch(
                            m -> Fields.label(m, ExternalKinds.CONTROL_PLANE_LABEL) != null));
        scenario.delete(ApiVersions.CAPI, "Cluster", CLUSTER);
      }
      scenario.await("Cluster " + CLUSTER + " to be deleted", () -> scenario.cluster() == null);
      Duration clusterGone = Duration.ofNanos(System.nanoTime() - requested);
      int looks = DeletionChecks.awaitNothingLeft(scenario);
      Duration namespaceClean = Duration.ofNanos(System.nanoTime() - requested);
      DeletionChecks.assertHostsReleased(scenario);
      DeletionChecks.assertImageSetGone(scenario, CLUSTER);
      return new Outcome(
          stage,
          trigger.object() == null
              ? "apply"
              : trigger.object().getKind() + " " + ClusterScenario.name(trigger.object()),
          (requested - trigger.nanos()) / 1_000_000,
          atRequest,
          clusterGone,
          namespaceClean,
          looks,
          controlPlaneDeletion.took());
    } catch (AssertionError | TimeoutException e) {
      throw new AssertionError(stage.name() + ": " + e + "\n" + scenario.dump(), e);
    } finally {
      if (watch != null) {
        watch.close();
      }
    }
  }

  /** The object a watch event brought and when it arrived. */
  record Seen(GenericKubernetesResource object, long nanos) {}

  private static Watch watchFor(
      Stage stage, ClusterScenario scenario, CompletableFuture<Seen> reached) {
    return stage.kind() == null
        ? null
        : watch(scenario, stage.apiVersion(), stage.kind(), stage.reached(), reached);
  }

  /**
   * Watches {@code kind} in the scenario's namespace (the existing objects first) and completes
   * {@code reached} with the first object {@code accepts}. Returns the watch, to close.
   */
  private static Watch watch(
      ClusterScenario scenario,
      String apiVersion,
      String kind,
      Predicate<GenericKubernetesResource> accepts,
      CompletableFuture<Seen> reached) {
    return scenario
        .hub()
        .genericKubernetesResources(apiVersion, kind)
        .inNamespace(scenario.namespace())
        .watch(
            new Watcher<>() {
              @Override
              public void eventReceived(Action action, GenericKubernetesResource object) {
                if (action != Action.DELETED && accepts.test(object)) {
                  reached.complete(new Seen(object, System.nanoTime()));
                }
              }

              @Override
              public void onClose(WatcherException cause) {
                reached.completeExceptionally(cause);
              }
            });
  }

  /** What of the flow existed just after the deletion was requested, for the log. */
  private static String whatExists(ClusterScenario scenario) {
    List<GenericKubernetesResource> agents = scenario.list(ApiVersions.AGENT_INSTALL, "Agent");
    String installState =
        scenario.list(ApiVersions.HIVE_EXTENSION, "AgentClusterInstall").stream()
            .map(aci -> string(aci, "status", "debugInfo", "state"))
            .map(String::valueOf)
            .collect(Collectors.joining(","));
    Map<String, Long> hosts =
        scenario.list(ApiVersions.METAL3, "BareMetalHost").stream()
            .collect(
                Collectors.groupingBy(
                    h ->
                        String.valueOf(string(h, "status", "provisioning", "state"))
                            + (annotation(h, DETACHED) == null ? "" : "+detached"),
                    java.util.TreeMap::new,
                    Collectors.counting()));
    return String.format(
        "control plane %s, ClusterDeployment %d, AgentClusterInstall %d (%s), Machines %d,"
            + " configs %d, InfraEnvs %d, Agents %d (approved %d), hosts %s",
        scenario.controlPlane() == null ? "absent" : "present",
        scenario.list(ApiVersions.HIVE, "ClusterDeployment").size(),
        scenario.list(ApiVersions.HIVE_EXTENSION, "AgentClusterInstall").size(),
        installState,
        scenario.list(ApiVersions.CAPI, "Machine").size(),
        scenario.list(ApiVersions.BOOTSTRAP, "OpenshiftAssistedConfig").size(),
        scenario.list(ApiVersions.AGENT_INSTALL, "InfraEnv").size(),
        agents.size(),
        agents.stream().filter(a -> Fields.isTrue(a, "spec", "approved")).count(),
        hosts);
  }

  private static void log(Outcome outcome) {
    LOG.info(
        "deletion at stage {}: triggered by {}, requested {} ms later; Cluster gone after {} ms"
            + " (the control plane's own deletion {} ms); namespace clean after {} ms (at look {},"
            + " each listing every namespaced kind); just after the request: {}",
        outcome.stage().name(),
        outcome.trigger(),
        outcome.reactionMillis(),
        outcome.clusterGone().toMillis(),
        outcome.controlPlaneDeletion() == null ? -1 : outcome.controlPlaneDeletion().toMillis(),
        outcome.namespaceClean().toMillis(),
        outcome.looks(),
        outcome.atRequest());
  }

  private static String conditionReason(GenericKubernetesResource object, String type) {
    return Fields.conditions(object).stream()
        .filter(c -> type.equals(c.get("type")))
        .map(c -> (String) c.get("reason"))
        .findFirst()
        .orElse(null);
  }
}
