package io.openshiftagent.simulator.faults;

import static io.openshiftagent.simulator.Fields.conditions;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.openshiftagent.simulator.ApiVersions;
import io.openshiftagent.simulator.assisted.AssistedServiceProcess;
import io.openshiftagent.simulator.e2e.ClusterScenario;
import io.openshiftagent.simulator.e2e.E2eWorld;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
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
 * <p>It stops the world's one service, so it has a world of its own.
 */
@Tag(E2eWorld.HUB_OF_ITS_OWN)
class AssistedServiceFaultsTest {
  private static final Logger LOG = LoggerFactory.getLogger(AssistedServiceFaultsTest.class);

  @RegisterExtension static final E2eWorld world = E2eWorld.ofItsOwn();

  /** How long the database stays down under the running service. */
  private static final Duration DATABASE_OUTAGE = Duration.ofSeconds(5);

  @Test
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
            c -> assertThat(condition(c, "DataSecretAvailable", "status")).isEqualTo("True"));
  }

  private static boolean reportsUnreachable(GenericKubernetesResource config) {
    String message = condition(config, "DataSecretAvailable", "message");
    return "False".equals(condition(config, "DataSecretAvailable", "status"))
        && "DiscoveryIgnitionDownloadFailed"
            .equals(condition(config, "DataSecretAvailable", "reason"))
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

  private static String condition(GenericKubernetesResource object, String type, String field) {
    return conditions(object).stream()
        .filter(c -> type.equals(c.get("type")))
        .map(c -> (String) c.get(field))
        .findFirst()
        .orElse(null);
  }
}
