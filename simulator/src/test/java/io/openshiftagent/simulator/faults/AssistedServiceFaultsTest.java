package io.openshiftagent.simulator.faults;

import static io.openshiftagent.simulator.Fields.conditionField;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.openshiftagent.simulator.ApiVersions;
import io.openshiftagent.simulator.Fields;
import io.openshiftagent.simulator.assisted.AssistedServiceProcess;
import io.openshiftagent.simulator.e2e.ClusterScenario;
import io.openshiftagent.simulator.e2e.E2eWorld;
import io.openshiftagent.testsupport.ProviderJar;
import java.time.Duration;
import java.time.Instant;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The real assisted-service in trouble, with real faults: its REST port refusing connections, its
 * PostgreSQL stopped under it, the service killed (SIGKILL) and started again. In DiskImage mode
 * the bootstrap provider downloads each InfraEnv's discovery ignition from the REST API: while the
 * port refuses, each config says so in a condition with a reason; once the port accepts again, the
 * hosts boot and register. Then the database goes and the service is killed mid-installation: once
 * both are back, the installation finishes by itself with the same InfraEnvs and Agents (nothing
 * the service or the hub held is lost, nothing is made twice).
 *
 * <p>Then deletion under faults ({@link DeletionUnderFaults}): small clusters that never install,
 * each deleted while one part of the world is down (both providers SIGKILLed, the hub's API server
 * restarted, assisted-service stopped, its PostgreSQL stopped), each reporting what it waits for
 * while the fault lasts and leaving nothing once it heals; and last, with assisted-service gone for
 * good, the operator's way out of docs/operations.md, run as written.
 *
 * <p>It stops the world's one service, so it has a world of its own.
 */
@Tag(E2eWorld.HUB_OF_ITS_OWN)
// Where it starts among the worlds of their own, two lanes of about equal length (WorldClassOrder).
@Order(1)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class AssistedServiceFaultsTest {
  private static final Logger LOG = LoggerFactory.getLogger(AssistedServiceFaultsTest.class);

  /**
   * On a hub that can be restarted, with the providers electing their leader as their Deployments
   * do: a deletion rides out the hub's restart, which halts both leaders.
   */
  @RegisterExtension
  static final E2eWorld world =
      new E2eWorld(options -> options.withRestartableHub().withLeaderElection(true));

  /** How long a leader tries to renew its Lease before it halts (docs/operations.md). */
  private static final Duration RENEW_DEADLINE = Duration.ofSeconds(10);

  /** How long the database stays down under the running service. */
  private static final Duration DATABASE_OUTAGE = Duration.ofSeconds(5);

  @Test
  @Order(1)
  void refusedKilledAndWithoutItsDatabaseTheServiceLosesNothingAndTheClusterInstalls()
      throws Exception {
    long started = System.nanoTime();
    AssistedServiceProcess service = world.world().assistedService();
    ClusterScenario cluster = world.scenario("faults-assisted", "test-multinode");
    cluster.enrolHosts(3);

    service.refuseRest();
    try {
      cluster.apply("/e2e/ha.yaml", Map.of("BOOT_MODE", "DiskImage", "WORKERS", "0"));
      cluster.await(
          "3 configs reporting assisted-service unreachable",
          () -> {
            List<GenericKubernetesResource> configs = configs(cluster);
            return configs.size() == 3
                && configs.stream().allMatch(AssistedServiceFaultsTest::reportsUnreachable);
          });
      assertThat(cluster.list(ApiVersions.AGENT_INSTALL, "Agent")).isEmpty();
    } finally {
      service.acceptRest();
    }
    Instant accepting = Instant.now();

    cluster.await(
        "3 Agents registered once the port accepts again",
        () -> cluster.list(ApiVersions.AGENT_INSTALL, "Agent").size() == 3);
    Map<String, String> infraEnvs = uids(cluster, "InfraEnv");
    Map<String, String> agents = uids(cluster, "Agent");
    LOG.info(
        "assisted-service faults: Agents registered {} s after the port accepted",
        Duration.between(accepting, Instant.now()).toMillis() / 1000.0);

    // The database goes under the running service, then the service is killed; both come back.
    service.postgres().stop();
    Thread.sleep(DATABASE_OUTAGE.toMillis());
    service.kill();
    service.postgres().start();
    Instant restarting = Instant.now();
    service.start();
    LOG.info("assisted-service faults: service ready again in {}", service.lastStart());

    cluster.awaitInstalled(3);
    LOG.info(
        "assisted-service faults: installed {} s after the restart; {} s from the start",
        Duration.between(restarting, Instant.now()).toMillis() / 1000.0,
        (System.nanoTime() - started) / 1_000_000_000);
    assertThat(uids(cluster, "InfraEnv")).as("the InfraEnvs, by name and UID").isEqualTo(infraEnvs);
    assertThat(uids(cluster, "Agent")).as("the Agents, by name and UID").isEqualTo(agents);
    assertThat(configs(cluster))
        .allSatisfy(
            c -> assertThat(conditionField(c, "DataSecretAvailable", "status")).isEqualTo("True"));
  }

  @Test
  @Order(2)
  void aDeletionWaitsOutEachFaultSayingWhatForAndFinishesOnceItHeals() throws Exception {
    long started = System.nanoTime();
    AssistedServiceProcess service = world.world().assistedService();
    DeletionUnderFaults deletions = new DeletionUnderFaults(world);
    ClusterScenario killed = deletions.apply("providers-killed");
    ClusterScenario hubRestarted = deletions.apply("hub-restarted");
    ClusterScenario serviceDown = deletions.apply("service-down");
    ClusterScenario databaseDown = deletions.apply("database-down");
    for (ClusterScenario cluster : List.of(killed, hubRestarted, serviceDown, databaseDown)) {
      DeletionUnderFaults.awaitTakenByTheService(cluster);
    }
    LOG.info(
        "deletion under faults: 4 clusters held by assisted-service after {} s",
        (System.nanoTime() - started) / 1_000_000_000);

    // Both providers SIGKILLed while the control plane deletes, once it deleted its Machines and
    // released their hooks (a kill before that is docs/reliability.md's limit), then started again.
    deleteCluster(killed);
    killed.await(
        "the control plane reporting its deletion, its Machines deleted and free of its hook",
        () ->
            Fields.conditionTrue(controlPlane(killed), "Deleting")
                && DeletionUnderFaults.machinesDeletedWithoutOurHook(killed));
    world.world().killProvider(ProviderJar.BOOTSTRAP);
    world.world().killProvider(ProviderJar.CONTROLPLANE);
    assertThat(controlPlane(killed))
        .as("the control plane, still deleting when killed")
        .isNotNull();
    long restarted = System.nanoTime();
    world.world().restartProvider(ProviderJar.BOOTSTRAP);
    world.world().restartProvider(ProviderJar.CONTROLPLANE);
    DeletionUnderFaults.awaitDeleted(killed, "both providers SIGKILLed", restarted);

    // The hub's kube-apiserver and etcd restarted while the control plane deletes.
    deleteCluster(hubRestarted);
    hubRestarted.await(
        "the control plane reporting its deletion",
        () -> Fields.conditionTrue(controlPlane(hubRestarted), "Deleting"));
    Map<ProviderJar, Integer> haltsBefore = halts();
    Instant wentAway = Instant.now();
    Duration away = world.world().restartHub();
    DeletionUnderFaults.awaitDeleted(
        hubRestarted,
        "the hub restarted (away " + away.toMillis() + " ms) with leader election on",
        System.nanoTime());
    assertThat(away)
        .as("the hub away longer than the renew deadline")
        .isGreaterThan(RENEW_DEADLINE);
    for (ProviderJar jar : ProviderJar.values()) {
      List<Instant> exits = world.world().provider(jar).exitsByItself();
      assertThat(exits.size())
          .as("%s halted once it could not renew its Lease, and was started again", jar)
          .isGreaterThan(haltsBefore.get(jar));
      LOG.info(
          "hub outage with leader election on: {} halted {} times, the last {} ms after the hub"
              + " went away, and was started again at once",
          jar.command,
          exits.size() - haltsBefore.get(jar),
          Duration.between(wentAway, exits.get(exits.size() - 1)).toMillis());
    }

    // assisted-service stopped (SIGKILL, not started again) for the whole wait.
    service.kill();
    long healed;
    try {
      deleteCluster(serviceDown);
      LOG.info(
          "deletion under faults, assisted-service stopped: the control plane says {}",
          DeletionUnderFaults.awaitWaitingForTheService(serviceDown));
    } finally {
      healed = System.nanoTime();
      service.start();
    }
    DeletionUnderFaults.awaitDeleted(serviceDown, "assisted-service stopped", healed);

    // Its PostgreSQL stopped under the running service.
    service.postgres().stop();
    try {
      deleteCluster(databaseDown);
      LOG.info(
          "deletion under faults, PostgreSQL stopped: the control plane says {}",
          DeletionUnderFaults.awaitWaitingForTheService(databaseDown));
    } finally {
      healed = System.nanoTime();
      service.postgres().start();
      // A service that exited without its database is started again, as its pod would be.
      service.start();
    }
    DeletionUnderFaults.awaitDeleted(databaseDown, "PostgreSQL stopped", healed);
    LOG.info(
        "deletion under faults: {} s from the start",
        (System.nanoTime() - started) / 1_000_000_000);
  }

  @Test
  @Order(3)
  void withTheServiceGoneForGoodTheOperatorsDocumentedStepsFinishTheDeletion() throws Exception {
    long started = System.nanoTime();
    AssistedServiceProcess service = world.world().assistedService();
    ClusterScenario gone = new DeletionUnderFaults(world).apply("service-gone");
    DeletionUnderFaults.awaitTakenByTheService(gone);
    service.kill();
    try {
      deleteCluster(gone);
      DeletionUnderFaults.awaitWaitingForTheService(gone);
      long followed = System.nanoTime();
      LOG.info(
          "assisted-service gone for good, the operator's steps printed:\n{}",
          OperatorsWayOut.follow(world, gone));
      DeletionUnderFaults.awaitDeleted(gone, "assisted-service gone for good", followed);
      assertThat(service.isRunning()).as("assisted-service, never started again").isFalse();
      LOG.info(
          "assisted-service gone for good: {} s from the start",
          (System.nanoTime() - started) / 1_000_000_000);
    } finally {
      service.start();
    }
  }

  /** As a user does: {@code kubectl delete cluster}. */
  /** How many times each provider halted by itself so far (its one replica). */
  private static Map<ProviderJar, Integer> halts() {
    Map<ProviderJar, Integer> halts = new EnumMap<>(ProviderJar.class);
    for (ProviderJar jar : ProviderJar.values()) {
      halts.put(jar, world.world().provider(jar).exitsByItself().size());
    }
    return halts;
  }

  private static void deleteCluster(ClusterScenario cluster) {
    cluster.delete(ApiVersions.CAPI, "Cluster", DeletionUnderFaults.CLUSTER);
  }

  private static GenericKubernetesResource controlPlane(ClusterScenario cluster) {
    return cluster.get(
        ApiVersions.CONTROL_PLANE, "OpenshiftAssistedControlPlane", DeletionUnderFaults.CLUSTER);
  }

  private static boolean reportsUnreachable(GenericKubernetesResource config) {
    String message = conditionField(config, "DataSecretAvailable", "message");
    return "False".equals(conditionField(config, "DataSecretAvailable", "status"))
        && "DiscoveryIgnitionDownloadFailed"
            .equals(conditionField(config, "DataSecretAvailable", "reason"))
        && message != null
        && message.contains("Unreachable: ");
  }

  private static List<GenericKubernetesResource> configs(ClusterScenario cluster) {
    return cluster.list(ApiVersions.BOOTSTRAP, "OpenshiftAssistedConfig");
  }

  private static Map<String, String> uids(ClusterScenario cluster, String kind) {
    return cluster.list(ApiVersions.AGENT_INSTALL, kind).stream()
        .collect(Collectors.toMap(ClusterScenario::name, o -> o.getMetadata().getUid()));
  }
}
