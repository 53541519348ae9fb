package io.openshiftagent.simulator.faults;

import static io.openshiftagent.simulator.Fields.conditions;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.openshiftagent.simulator.ApiVersions;
import io.openshiftagent.simulator.e2e.ClusterScenario;
import io.openshiftagent.simulator.e2e.E2eWorld;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Clusters deleted while a part of the world is down, and what is checked of each: small clusters
 * that never install (three control-plane Machines and one host, so one Agent registers and the
 * installation never starts), which carry every finalizer of assisted-service a deletion meets
 * (Agent, InfraEnv, AgentClusterInstall, ClusterDeployment) without the cost of an installation.
 */
final class DeletionUnderFaults {
  private static final Logger LOG = LoggerFactory.getLogger(DeletionUnderFaults.class);

  static final String CLUSTER = "test-multinode";

  /** Cluster API's pre-terminate hook annotations; the control plane's is one of them. */
  private static final String PRE_TERMINATE_HOOK =
      "pre-terminate.delete.hook.machine.cluster.x-k8s.io";

  /**
   * assisted-service's finalizer on each kind, by resource (as kubectl names them): what the
   * service removes once it has deregistered the object, and what docs/operations.md has the
   * operator remove when the service is gone for good.
   */
  static final Map<String, String> SERVICE_FINALIZERS =
      Map.of(
          "Agent", "agent.agent-install.openshift.io/ai-deprovision",
          "InfraEnv", "infraenv.agent-install.openshift.io/ai-deprovision",
          "AgentClusterInstall", "agentclusterinstall.agent-install.openshift.io/ai-deprovision",
          "ClusterDeployment", "clusterdeployments.agent-install.openshift.io/ai-deprovision");

  /** The config's Deleting reasons that wait for assisted-service (docs/bootstrap.md). */
  private static final Set<String> WAITS_FOR_THE_SERVICE =
      Set.of("WaitingForAssistedService", "WaitingForInfraEnvDeletion", "WaitingForAgentDeletion");

  private final E2eWorld world;

  DeletionUnderFaults(E2eWorld world) {
    this.world = world;
  }

  /** A cluster of its own namespace, applied: three control-plane Machines, one host, LiveISO. */
  ClusterScenario apply(String name) {
    ClusterScenario scenario = world.scenario("delete-" + name, CLUSTER);
    scenario.enrolHosts(1);
    scenario.apply("/e2e/ha.yaml", Map.of("BOOT_MODE", "LiveISO", "WORKERS", "0"));
    return scenario;
  }

  /**
   * Waits until the host registered and assisted-service holds each of its objects by its
   * finalizer: what a deletion must then wait for.
   */
  static void awaitTakenByTheService(ClusterScenario scenario) {
    scenario.await(
        "an Agent registered, and assisted-service's finalizer on the Agent, every InfraEnv, the"
            + " AgentClusterInstall and the ClusterDeployment",
        () ->
            scenario.list(ApiVersions.AGENT_INSTALL, "Agent").size() == 1
                && heldByTheService(scenario, ApiVersions.AGENT_INSTALL, "Agent")
                && heldByTheService(scenario, ApiVersions.AGENT_INSTALL, "InfraEnv")
                && scenario.list(ApiVersions.HIVE_EXTENSION, "AgentClusterInstall").size() == 1
                && heldByTheService(scenario, ApiVersions.HIVE_EXTENSION, "AgentClusterInstall")
                && scenario.list(ApiVersions.HIVE, "ClusterDeployment").size() == 1
                && heldByTheService(scenario, ApiVersions.HIVE, "ClusterDeployment"));
  }

  /**
   * Every control-plane Machine left is being deleted and no longer carries the control plane's
   * pre-terminate hook.
   */
  static boolean machinesDeletedWithoutOurHook(ClusterScenario scenario) {
    return scenario.list(ApiVersions.CAPI, "Machine").stream()
        .allMatch(
            m ->
                m.getMetadata().getDeletionTimestamp() != null
                    && m.getMetadata().getAnnotations().keySet().stream()
                        .noneMatch(a -> a.startsWith(PRE_TERMINATE_HOOK)));
  }

  private static boolean heldByTheService(
      ClusterScenario scenario, String apiVersion, String kind) {
    List<GenericKubernetesResource> objects = scenario.list(apiVersion, kind);
    return !objects.isEmpty()
        && objects.stream()
            .allMatch(o -> o.getMetadata().getFinalizers().contains(SERVICE_FINALIZERS.get(kind)));
  }

  /**
   * While the fault lasts: every config left says on its Deleting condition that it waits for
   * assisted-service (reason and message) and since when (its transition, not before the config's
   * deletion); the control plane says it waits for its Machines and names the configs' waits. Its
   * Agents and InfraEnvs are still there, held. Returns what the control plane said.
   */
  static String awaitWaitingForTheService(ClusterScenario scenario) {
    scenario.await(
        "every config saying it waits for assisted-service, and the control plane naming it",
        () -> configsWaitForTheService(scenario) && controlPlaneNamesTheWaits(scenario));
    for (GenericKubernetesResource config : configs(scenario)) {
      Map<String, Object> deleting = deleting(config);
      assertThat((String) deleting.get("message"))
          .as("what config %s waits for", ClusterScenario.name(config))
          .contains("assisted-service");
      assertThat(since(deleting))
          .as("since when config %s waits", ClusterScenario.name(config))
          .isAfterOrEqualTo(Instant.parse(config.getMetadata().getDeletionTimestamp()))
          .isBeforeOrEqualTo(Instant.now());
    }
    GenericKubernetesResource controlPlane = controlPlane(scenario);
    Map<String, Object> deleting = deleting(controlPlane);
    assertThat(since(deleting))
        .as("since when the control plane waits")
        .isAfterOrEqualTo(Instant.parse(controlPlane.getMetadata().getDeletionTimestamp()));
    assertThat(scenario.list(ApiVersions.AGENT_INSTALL, "Agent"))
        .as("the Agent, held by assisted-service's finalizer")
        .hasSize(1);
    return deleting.get("reason") + ": " + deleting.get("message");
  }

  private static boolean configsWaitForTheService(ClusterScenario scenario) {
    List<GenericKubernetesResource> configs = configs(scenario);
    return !configs.isEmpty()
        && configs.stream()
            .allMatch(
                c ->
                    c.getMetadata().getDeletionTimestamp() != null
                        && WAITS_FOR_THE_SERVICE.contains(
                            String.valueOf(deleting(c).get("reason"))));
  }

  private static boolean controlPlaneNamesTheWaits(ClusterScenario scenario) {
    Map<String, Object> deleting = deleting(controlPlane(scenario));
    String message = String.valueOf(deleting.get("message"));
    return "True".equals(deleting.get("status"))
        && "WaitingForMachinesDeleted".equals(deleting.get("reason"))
        && message.contains("their bootstrap configs wait")
        && WAITS_FOR_THE_SERVICE.stream().anyMatch(message::contains);
  }

  /**
   * Once the fault healed: the Cluster gone, the namespace holding only what the user created and
   * the Cluster did not own, no Agent, InfraEnv, AgentClusterInstall or ClusterDeployment left at
   * all (not even one a garbage collector would delete), every host released, the ClusterImageSet
   * gone. Returns how long it took from {@code healed}.
   */
  static Duration awaitDeleted(ClusterScenario scenario, String fault, long healed) {
    scenario.await("Cluster " + CLUSTER + " to be deleted", () -> scenario.cluster() == null);
    DeletionChecks.awaitNothingLeft(scenario);
    scenario.await(
        "no Agent, InfraEnv, AgentClusterInstall or ClusterDeployment left, not even held",
        () -> assistedObjects(scenario).isEmpty());
    DeletionChecks.assertHostsReleased(scenario);
    DeletionChecks.assertImageSetGone(scenario, CLUSTER);
    Duration took = Duration.ofNanos(System.nanoTime() - healed);
    LOG.info(
        "deletion under faults, {}: everything gone {} ms after the fault healed",
        fault,
        took.toMillis());
    return took;
  }

  /** The Agents, InfraEnvs, AgentClusterInstalls and ClusterDeployments in the namespace. */
  static List<GenericKubernetesResource> assistedObjects(ClusterScenario scenario) {
    return Stream.of(
            scenario.list(ApiVersions.AGENT_INSTALL, "Agent"),
            scenario.list(ApiVersions.AGENT_INSTALL, "InfraEnv"),
            scenario.list(ApiVersions.HIVE_EXTENSION, "AgentClusterInstall"),
            scenario.list(ApiVersions.HIVE, "ClusterDeployment"))
        .flatMap(List::stream)
        .toList();
  }

  private static List<GenericKubernetesResource> configs(ClusterScenario scenario) {
    return scenario.list(ApiVersions.BOOTSTRAP, "OpenshiftAssistedConfig");
  }

  private static GenericKubernetesResource controlPlane(ClusterScenario scenario) {
    return scenario.get(ApiVersions.CONTROL_PLANE, "OpenshiftAssistedControlPlane", CLUSTER);
  }

  private static Map<String, Object> deleting(GenericKubernetesResource object) {
    return conditions(object).stream()
        .filter(c -> "Deleting".equals(c.get("type")))
        .findFirst()
        .orElse(Map.of());
  }

  private static Instant since(Map<String, Object> condition) {
    return Instant.parse((String) condition.get("lastTransitionTime"));
  }
}
