package io.openshiftagent.simulator.faults;

import static io.openshiftagent.simulator.Fields.conditionTrue;
import static io.openshiftagent.simulator.Fields.label;
import static io.openshiftagent.simulator.Fields.string;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.Secret;
import io.openshiftagent.api.external.ExternalKinds;
import io.openshiftagent.bootstrap.names.Names;
import io.openshiftagent.simulator.ApiVersions;
import io.openshiftagent.simulator.benchmark.Percentiles;
import io.openshiftagent.simulator.e2e.ClusterScenario;
import io.openshiftagent.simulator.e2e.E2eWorld;
import io.openshiftagent.testsupport.AuditLog;
import io.openshiftagent.testsupport.ProviderJar;
import io.openshiftagent.testsupport.ReleaseRegistry;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Crash anywhere: the HA flow (3 control-plane Machines, 2 workers, LiveISO) while each provider is
 * killed with SIGKILL at random moments and started again, at least {@link #KILLS} times each, and
 * the real Cluster API manager, CAPM3 and baremetal-operator {@link #UPSTREAM_KILLS} times each.
 * Once the cluster is Available the kills go on while the workers are scaled up and down, so that
 * they keep landing while the providers have work. Afterwards the cluster is Available and
 * everything the providers make exists exactly once per purpose, and no Machine ever had two
 * approved Agents.
 *
 * <p>System properties: {@code crashAnywhere.seed} (replays a run's choices of moments; the seed is
 * logged), {@code crashAnywhere.kills} (per provider, default 30), {@code crashAnywhere.maxDelayMs}
 * (longest wait before a kill, default 2500).
 */
@Tag(E2eWorld.HUB_OF_ITS_OWN)
// Its 60 provider restarts are JVM starts: beside the shared world's classes each took over a
// minute, beside DeletionAtAnyStageTest's clusters 12 s, beside a class that mostly waits 2-3 s.
// So it starts after AssistedServiceFaultsTest, in the lane opposite DeletionAtAnyStageTest, which
// has ended by then; LeaderFailoverTest (waiting for Leases to expire) runs beside it.
@Order(2)
class CrashAnywhereTest {
  private static final Logger LOG = LoggerFactory.getLogger(CrashAnywhereTest.class);

  private static final long SEED =
      Long.getLong("crashAnywhere.seed", new SecureRandom().nextLong());
  private static final int KILLS = Integer.getInteger("crashAnywhere.kills", 30);

  /** CAPM3 and the baremetal-operator: fewer kills, further apart (see the test). */
  private static final int UPSTREAM_KILLS = Integer.getInteger("crashAnywhere.upstreamKills", 10);

  private static final Duration UPSTREAM_MAX_DELAY = Duration.ofSeconds(12);

  private static final Duration MAX_DELAY =
      Duration.ofMillis(Long.getLong("crashAnywhere.maxDelayMs", 2500));

  /** How long the kills may go on; the flow normally needs a minute without them. */
  private static final Duration RUN_LIMIT = Duration.ofMinutes(8);

  private static final String CLUSTER = "test-multinode";
  private static final String WORKERS = CLUSTER + "-worker";
  private static final int CONTROL_PLANE_MACHINES = 3;

  /**
   * The last 4.20 patch release the world's registry holds: the control plane resolves each
   * upgrade's release image there, so the day-2 upgrades stop at it.
   */
  private static final int LAST_PATCH_RELEASE =
      ReleaseRegistry.shared().catalog().stream()
          .filter(r -> r.architecture().equals("x86_64") && r.version().matches("4\\.20\\.\\d+"))
          .mapToInt(r -> Integer.parseInt(r.version().substring("4.20.".length())))
          .max()
          .orElseThrow();

  /** 3 control-plane hosts, 2 workers and one spare for the day-2 scale-ups. */
  private static final int HOSTS = 6;

  /** A provider's write within this before its kill: the kill landed while it had work. */
  private static final Duration WORK_IN_FLIGHT = Duration.ofSeconds(1);

  @RegisterExtension static final E2eWorld world = E2eWorld.ofItsOwn();

  @Test
  void installsAnHaClusterWhileEachProviderIsKilledAtRandomMoments() throws Exception {
    LOG.info(
        "crash anywhere: seed {} (replay with -DcrashAnywhere.seed={}), {} kills per provider,"
            + " up to {} ms before each",
        SEED,
        SEED,
        KILLS,
        MAX_DELAY.toMillis());
    ClusterScenario cluster = world.scenario("crash", CLUSTER);
    cluster.enrolHosts(HOSTS);
    try (Changes changes = new Changes(cluster.hub(), cluster.namespace());
        Approvals approvals = new Approvals(cluster.hub(), cluster.namespace())) {
      Random seeds = new Random(SEED);
      List<ProcessKiller> killers = new ArrayList<>();
      for (ProviderJar jar : ProviderJar.values()) {
        killers.add(
            new ProcessKiller(
                world.world().process(jar),
                jar.userAgentPrefix,
                seeds.nextLong(),
                MAX_DELAY,
                Integer.MAX_VALUE,
                changes));
      }
      // The real Metal3 too: CAPM3 (its user agent is its controller's name) and the namespace's
      // baremetal-operator (client-go's default: its binary's name). The operator's test mode keeps
      // what its stand-in for Ironic is doing in the operator's memory, so a killed operator starts
      // each host's provisioning (10 s) again: killed every few seconds it could never finish. So
      // these two are killed UPSTREAM_KILLS times each, up to UPSTREAM_MAX_DELAY apart. So is the
      // Cluster API manager: while it is down its webhooks refuse every write of its kinds, the
      // control-plane Machines our provider creates among them.
      killers.add(
          new ProcessKiller(
              world.world().clusterApi(),
              "capi-manager-",
              seeds.nextLong(),
              UPSTREAM_MAX_DELAY,
              UPSTREAM_KILLS,
              changes));
      killers.add(
          new ProcessKiller(
              world.world().capm3(),
              "cluster-api-provider-metal3-manager",
              seeds.nextLong(),
              UPSTREAM_MAX_DELAY,
              UPSTREAM_KILLS,
              changes));
      killers.add(
          new ProcessKiller(
              world.world().bareMetalOperator(cluster.namespace()),
              "baremetal-operator",
              seeds.nextLong(),
              UPSTREAM_MAX_DELAY,
              UPSTREAM_KILLS,
              changes));
      long started = System.nanoTime();
      killers.forEach(ProcessKiller::start);
      cluster.apply("/e2e/ha.yaml", Map.of("BOOT_MODE", "LiveISO", "WORKERS", "2"));

      Duration available = null;
      int workers = 2;
      int patchRelease = 0; // of 4.20
      int scalings = 0;
      int upgrades = 0;
      try {
        while (available == null
            || killers.stream().anyMatch(k -> k.killCount() < Math.min(KILLS, k.maxKills()))) {
          Duration elapsed = Duration.ofNanos(System.nanoTime() - started);
          assertThat(elapsed)
              .as(
                  "kills per provider so far %s, cluster Available: %s",
                  killCounts(killers), available != null)
              .isLessThan(RUN_LIMIT);
          for (ProcessKiller killer : killers) {
            assertThat(killer.failure()).as("the killer of " + killer.name()).isNull();
          }
          if (cluster.isInstalled(CONTROL_PLANE_MACHINES + workers)
              && upgraded(cluster, patchRelease)) {
            if (available == null) {
              available = elapsed;
              LOG.info("crash anywhere: Available after {} ms", available.toMillis());
            }
            // Day 2 while the kills go on, work for each provider in turn: the workers scaled
            // 2 -> 3 -> 2 ... (bootstrap), an upgrade to the next patch release (control plane)
            // while the world's release registry holds one; after that only scalings.
            boolean canUpgrade = patchRelease < LAST_PATCH_RELEASE;
            if ((scalings + upgrades) % 2 == 0 || !canUpgrade) {
              workers = workers == 2 ? 3 : 2;
              cluster.setSpec(ApiVersions.CAPI, "MachineDeployment", WORKERS, "replicas", workers);
              scalings++;
            } else {
              patchRelease++;
              cluster.setSpec(
                  ApiVersions.CONTROL_PLANE,
                  "OpenshiftAssistedControlPlane",
                  CLUSTER,
                  "distributionVersion",
                  version(patchRelease));
              upgrades++;
            }
          }
          Thread.sleep(250);
        }
      } finally {
        killers.forEach(ProcessKiller::stopKilling); // both at once, even if one failed
        for (ProcessKiller killer : killers) {
          killer.stop();
        }
      }
      Duration killing = Duration.ofNanos(System.nanoTime() - started);
      int machines = CONTROL_PLANE_MACHINES + workers;
      int release = patchRelease;
      Duration settled =
          cluster.await(
              "the cluster Available with "
                  + machines
                  + " Machines Running, and nothing left being deleted",
              () ->
                  cluster.isInstalled(machines)
                      && upgraded(cluster, release)
                      && nothingDeleting(cluster));

      assertEverythingExistsOncePerPurpose(cluster, workers);
      assertEachMachineHadOneApprovedAgent(cluster, approvals);

      LOG.info(
          "crash anywhere: seed {}; kills {} (during startup {}); with a write of the killed"
              + " provider in the {} ms before {}; Available after {} s; then {} worker scalings"
              + " and {} upgrades; kills done after {} s, settled {} s later; ready after restart"
              + " p50/max {}; {} Agents approved",
          SEED,
          killCounts(killers),
          startupKills(killers),
          WORK_IN_FLIGHT.toMillis(),
          withWorkInFlight(killers),
          available.toSeconds(),
          scalings,
          upgrades,
          killing.toSeconds(),
          settled.toSeconds(),
          readyTimes(killers),
          approvals.flips().size());
    }
  }

  // ---- what must hold ----

  /**
   * Exactly one of each object per purpose: per Machine one config, InfraEnv, Metal3Machine and
   * bootstrap data Secret; per cluster one ClusterDeployment, AgentClusterInstall, ClusterImageSet
   * and kubeconfig Secret; and no other Secret than the user's and assisted-service's.
   */
  private static void assertEverythingExistsOncePerPurpose(ClusterScenario cluster, int workers) {
    List<GenericKubernetesResource> machines = cluster.machines();
    assertThat(cluster.controlPlaneMachines()).hasSize(CONTROL_PLANE_MACHINES);
    assertThat(cluster.workerMachines()).hasSize(workers);
    Set<String> configs = names(machines, m -> string(m, "spec", "bootstrap", "configRef", "name"));
    assertThat(configs).hasSize(machines.size());
    assertThat(names(cluster.list(ApiVersions.BOOTSTRAP, "OpenshiftAssistedConfig")))
        .as("OpenshiftAssistedConfigs, one per Machine")
        .isEqualTo(configs);
    assertThat(names(cluster.list(ApiVersions.METAL3_INFRASTRUCTURE, "Metal3Machine")))
        .as("Metal3Machines, one per Machine")
        .isEqualTo(names(machines, m -> string(m, "spec", "infrastructureRef", "name")));
    List<GenericKubernetesResource> infraEnvs = cluster.list(ApiVersions.AGENT_INSTALL, "InfraEnv");
    assertThat(names(infraEnvs)).as("InfraEnvs, one per config").isEqualTo(configs);
    assertThat(names(infraEnvs, e -> label(e, Names.CONFIG_LABEL))).isEqualTo(configs);

    String controlPlane = cluster.controlPlane().getMetadata().getName();
    assertThat(names(cluster.list(ApiVersions.HIVE, "ClusterDeployment")))
        .containsExactly(controlPlane);
    List<GenericKubernetesResource> installs =
        cluster.list(ApiVersions.HIVE_EXTENSION, "AgentClusterInstall");
    assertThat(names(installs)).containsExactly(controlPlane);
    // Cluster-wide: the shared hub holds other tests' image sets too; ours carry our namespace.
    assertThat(
            names(
                cluster
                    .hub()
                    .genericKubernetesResources(ApiVersions.HIVE, "ClusterImageSet")
                    .list()
                    .getItems()
                    .stream()
                    .filter(
                        s ->
                            cluster
                                    .namespace()
                                    .equals(label(s, "controlplane.cluster.x-k8s.io/namespace"))
                                || s.getMetadata().getName().startsWith(cluster.namespace() + "."))
                    .toList()))
        .as("ClusterImageSets of this namespace, cluster-wide")
        .containsExactly(cluster.namespace() + "." + controlPlane);

    List<Secret> secrets =
        cluster.hub().secrets().inNamespace(cluster.namespace()).list().getItems();
    Set<String> expected = new TreeSet<>(configs); // bootstrap data, named like their configs
    expected.add(CLUSTER + "-kubeconfig");
    expected.add("pull-secret");
    IntStream.range(0, HOSTS).forEach(i -> expected.add("host-" + i + "-bmc"));
    // What assisted-service publishes once installed: the admin kubeconfig and password.
    expected.add(
        string(installs.get(0), "spec", "clusterMetadata", "adminKubeconfigSecretRef", "name"));
    expected.add(
        string(installs.get(0), "spec", "clusterMetadata", "adminPasswordSecretRef", "name"));
    assertThat(names(secrets)).as("Secrets").isEqualTo(expected);
    // The bootstrap data and the kubeconfig: one per Machine's config and one for the cluster.
    List<Secret> clusterSecrets =
        secrets.stream()
            .filter(s -> ExternalKinds.CLUSTER_SECRET_TYPE.equals(s.getType()))
            .toList();
    Set<String> dataOwners = new TreeSet<>(configs);
    dataOwners.add(controlPlane);
    assertThat(clusterSecrets.stream().map(CrashAnywhereTest::controller).toList())
        .as("controllers of the cluster.x-k8s.io/secret Secrets, once each")
        .containsExactlyInAnyOrderElementsOf(dataOwners);
    for (Secret secret : clusterSecrets) {
      assertThat(label(secret, ExternalKinds.CLUSTER_NAME_LABEL))
          .as("cluster of Secret " + secret.getMetadata().getName())
          .isEqualTo(CLUSTER);
    }
  }

  /**
   * Every Machine's config had exactly one Agent approved during the whole run, and no Agent was
   * approved more than once (or ever unapproved).
   */
  private static void assertEachMachineHadOneApprovedAgent(
      ClusterScenario cluster, Approvals approvals) {
    List<Approvals.Flip> flips = approvals.flips();
    assertThat(flips).as("approval changes of the Agents").allMatch(Approvals.Flip::approved);
    assertThat(flips.stream().collect(Collectors.groupingBy(Approvals.Flip::uid)).values())
        .as("approvals per Agent")
        .allMatch(perAgent -> perAgent.size() == 1);
    Map<String, Set<String>> byConfig = approvals.approvedAgentsByConfig();
    assertThat(byConfig.values())
        .as("approved Agents per Machine's config, during the whole run: %s", byConfig)
        .allMatch(agents -> agents.size() == 1);
    assertThat(byConfig.keySet())
        .containsAll(
            names(cluster.machines(), m -> string(m, "spec", "bootstrap", "configRef", "name")));
  }

  private static String version(int patchRelease) {
    return "4.20." + patchRelease;
  }

  /** The control plane reports the upgrade to {@code 4.20.<patchRelease>} completed. */
  private static boolean upgraded(ClusterScenario cluster, int patchRelease) {
    GenericKubernetesResource cp = cluster.controlPlane();
    return version(patchRelease).equals(string(cp, "status", "distributionVersion"))
        && conditionTrue(cp, "UpgradeCompleted");
  }

  private static boolean nothingDeleting(ClusterScenario cluster) {
    return List.of(
            List.of(ApiVersions.CAPI, "Machine"),
            List.of(ApiVersions.BOOTSTRAP, "OpenshiftAssistedConfig"),
            List.of(ApiVersions.METAL3_INFRASTRUCTURE, "Metal3Machine"),
            List.of(ApiVersions.AGENT_INSTALL, "InfraEnv"),
            List.of(ApiVersions.AGENT_INSTALL, "Agent"))
        .stream()
        .flatMap(kind -> cluster.list(kind.get(0), kind.get(1)).stream())
        .allMatch(o -> o.getMetadata().getDeletionTimestamp() == null);
  }

  // ---- figures ----

  private static Map<String, Integer> killCounts(List<ProcessKiller> killers) {
    return killers.stream().collect(Collectors.toMap(k -> k.name(), ProcessKiller::killCount));
  }

  private static Map<String, Long> startupKills(List<ProcessKiller> killers) {
    return killers.stream()
        .collect(
            Collectors.toMap(
                k -> k.name(),
                k -> k.kills().stream().filter(kill -> kill.readyAfterRestart() == null).count()));
  }

  /** Per provider: how many kills came within {@link #WORK_IN_FLIGHT} of a write of its own. */
  private static Map<String, Long> withWorkInFlight(List<ProcessKiller> killers) {
    List<AuditLog.Request> requests = AuditLog.read(world.world().hubAuditLog());
    return killers.stream()
        .collect(
            Collectors.toMap(
                k -> k.name(),
                k -> {
                  List<Instant> writes =
                      requests.stream()
                          .filter(r -> r.userAgent().startsWith(k.userAgentPrefix()))
                          .filter(AuditLog.Request::isWrite)
                          .filter(
                              r ->
                                  !r.resource().startsWith("events")
                                      && !r.resource().startsWith("leases"))
                          .map(AuditLog.Request::received)
                          .toList();
                  return k.kills().stream()
                      .filter(
                          kill ->
                              writes.stream()
                                  .anyMatch(
                                      w ->
                                          !w.isAfter(kill.at())
                                              && w.isAfter(kill.at().minus(WORK_IN_FLIGHT))))
                      .count();
                }));
  }

  private static Map<String, String> readyTimes(List<ProcessKiller> killers) {
    return killers.stream()
        .collect(
            Collectors.toMap(
                k -> k.name(),
                k -> {
                  Percentiles p =
                      Percentiles.of(
                          k.kills().stream()
                              .map(ProcessKiller.Kill::readyAfterRestart)
                              .filter(Objects::nonNull)
                              .map(Duration::toMillis)
                              .toList());
                  return p.p50() + "/" + p.max() + " ms";
                }));
  }

  // ---- reading ----

  private static Set<String> names(List<? extends HasMetadata> objects) {
    return names(objects, o -> o.getMetadata().getName());
  }

  private static <T> Set<String> names(List<T> objects, Function<T, String> name) {
    return objects.stream().map(name).collect(Collectors.toCollection(TreeSet::new));
  }

  /** The name of the object's controller (owner reference with controller: true), or null. */
  private static String controller(HasMetadata object) {
    return object.getMetadata().getOwnerReferences().stream()
        .filter(o -> Boolean.TRUE.equals(o.getController()))
        .map(OwnerReference::getName)
        .findFirst()
        .orElse(null);
  }
}
