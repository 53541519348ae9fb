package io.openshiftagent.simulator.faults;

import static io.openshiftagent.simulator.Fields.conditions;
import static io.openshiftagent.simulator.Fields.string;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.openshiftagent.assisted.DiscoveryIgnitionClient;
import io.openshiftagent.simulator.ApiVersions;
import io.openshiftagent.simulator.AssistedServiceTrouble;
import io.openshiftagent.simulator.AssistedServiceTrouble.Download;
import io.openshiftagent.simulator.AssistedServiceTrouble.Fault;
import io.openshiftagent.simulator.Fields;
import io.openshiftagent.simulator.e2e.ClusterScenario;
import io.openshiftagent.simulator.e2e.E2eWorld;
import io.openshiftagent.testsupport.ProviderJar;
import io.openshiftagent.testsupport.SecretScanner;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.junit.jupiter.api.parallel.ResourceAccessMode;
import org.junit.jupiter.api.parallel.ResourceLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * assisted-service in trouble, in the local world. In DiskImage mode the bootstrap provider
 * downloads each InfraEnv's discovery ignition from assisted-service's REST API; here that API
 * answers too slowly, with 503, or with garbage. Each config must say so in a condition with a
 * reason and a message naming the problem (and no secret), try again at growing intervals (as the
 * service sees them, not a hot loop), and finish the installation by itself once the service is
 * healthy again. In LiveISO mode assisted-service regenerates an InfraEnv's image under a new URL:
 * a host not yet provisioned boots the new one; a host already provisioned is left alone.
 */
@ResourceLock(value = E2eWorld.WORLD, mode = ResourceAccessMode.READ)
class AssistedServiceTroubleTest {
  private static final Logger LOG = LoggerFactory.getLogger(AssistedServiceTroubleTest.class);

  @RegisterExtension static final E2eWorld world = new E2eWorld();

  /** The tries each InfraEnv must have failed before the service recovers. */
  private static final Map<Fault, Integer> FAILED_TRIES =
      Map.of(Fault.SLOW, 3, Fault.SERVER_ERROR, 5, Fault.GARBAGE, 5);

  /** What the condition's message must say for each fault: the client's reason and its detail. */
  private static final Map<Fault, List<String>> MESSAGE =
      Map.of(
          Fault.SLOW, List.of("Timeout: ", "did not answer in time"),
          Fault.SERVER_ERROR, List.of("ServerError: ", "(HTTP 503)"),
          Fault.GARBAGE, List.of("BadResponse: ", "not an Ignition config"));

  // The two tests wait on different namespaces of one world; side by side they take the time of
  // one. Only the methods are concurrent: on the class it would also run beside other classes,
  // whose worlds share the hub.
  @Test
  @Execution(ExecutionMode.CONCURRENT)
  void aSlowFailingOrGarbledServiceIsAConditionRetriedWithBackoffUntilItRecovers() {
    AssistedServiceTrouble trouble = world.world().assistedServiceTrouble();
    List<CompletableFuture<Void>> cases = new ArrayList<>();
    ExecutorService side = Executors.newFixedThreadPool(Fault.values().length);
    for (Fault fault : Fault.values()) {
      ClusterScenario cluster =
          world.scenario(
              "faults-" + fault.name().toLowerCase().replace('_', '-'), "test-multinode");
      // In trouble from the start: the first download already meets the fault.
      trouble.fail(cluster.namespace(), fault);
      cases.add(
          CompletableFuture.runAsync(() -> troubleThenRecovery(cluster, fault, trouble), side));
    }
    try {
      CompletableFuture.allOf(cases.toArray(CompletableFuture[]::new)).join();
    } catch (CompletionException e) {
      if (e.getCause() instanceof AssertionError failure) {
        throw failure;
      }
      throw e;
    } finally {
      side.shutdownNow();
    }
  }

  private void troubleThenRecovery(
      ClusterScenario cluster, Fault fault, AssistedServiceTrouble trouble) {
    String ns = cluster.namespace();
    cluster.enrolHosts(3);
    cluster.apply("/e2e/ha.yaml", Map.of("BOOT_MODE", "DiskImage", "WORKERS", "0"));

    cluster.await(
        "3 configs reporting " + fault + " and " + FAILED_TRIES.get(fault) + " tries per InfraEnv",
        () -> {
          List<GenericKubernetesResource> configs = configs(cluster);
          return configs.size() == 3
              && configs.stream().allMatch(c -> reportsTheFault(c, fault))
              && triesPerInfraEnv(trouble.downloads(ns)).size() == 3
              && triesPerInfraEnv(trouble.downloads(ns)).values().stream()
                  .allMatch(tries -> tries.size() >= FAILED_TRIES.get(fault));
        });

    Map<String, List<Instant>> tries = triesPerInfraEnv(trouble.downloads(ns));
    tries.forEach(
        (infraEnv, times) -> {
          List<Duration> intervals = intervals(times);
          LOG.info(
              "{}: InfraEnv {}: intervals between tries {}", fault, infraEnv, seconds(intervals));
          // Backoff: no burst, and the waits grow while the trouble lasts.
          assertThat(intervals)
              .as(fault + ": intervals between tries of InfraEnv " + infraEnv)
              .allSatisfy(i -> assertThat(i).isGreaterThan(Duration.ofMillis(4500)));
          // The waits are what the backoff decides: an interval less the try's own length, which
          // for a slow answer is the client's read timeout (more on a loaded machine: that makes
          // the first wait look longer, against this assertion, never for it).
          Duration tryLength =
              fault == Fault.SLOW
                  ? DiscoveryIgnitionClient.Settings.DEFAULT_READ_TIMEOUT
                  : Duration.ZERO;
          Duration firstWait = intervals.get(0).minus(tryLength);
          Duration lastWait = intervals.get(intervals.size() - 1).minus(tryLength);
          assertThat(lastWait)
              .as(fault + ": the last wait grew from the first, intervals " + seconds(intervals))
              .isGreaterThanOrEqualTo(firstWait.multipliedBy(18).dividedBy(10));
        });
    SecretScanner.assertNone(secretsOf(cluster).scanNamespace(cluster.hub(), ns));
    SecretScanner.assertNone(
        secretsOf(cluster).scanFile(world.world().provider(ProviderJar.BOOTSTRAP).log()));

    Instant recovered = Instant.now();
    trouble.recover(ns);
    Duration dataReady =
        cluster.await(
            "every config's bootstrap data once the service recovered",
            () ->
                configs(cluster).stream()
                    .allMatch(c -> "True".equals(condition(c, "DataSecretAvailable", "status"))));
    Duration installed = cluster.awaitInstalled(3);
    LOG.info(
        "{}: recovered: bootstrap data {} s and cluster Available {} s after the service",
        fault,
        dataReady.toMillis() / 1000.0,
        Duration.between(recovered, Instant.now()).toMillis() / 1000.0);
    assertThat(installed).isPositive();
    // Once downloaded, never asked again: one successful try per InfraEnv.
    Map<String, Long> healthyTries =
        trouble.downloads(ns).stream()
            .filter(d -> d.fault() == null)
            .collect(Collectors.groupingBy(Download::infraEnvId, Collectors.counting()));
    assertThat(healthyTries).hasSize(3).allSatisfy((id, count) -> assertThat(count).isOne());
  }

  private static boolean reportsTheFault(GenericKubernetesResource config, Fault fault) {
    String message = condition(config, "DataSecretAvailable", "message");
    return "False".equals(condition(config, "DataSecretAvailable", "status"))
        && "DiscoveryIgnitionDownloadFailed"
            .equals(condition(config, "DataSecretAvailable", "reason"))
        && message != null
        && MESSAGE.get(fault).stream().allMatch(message::contains);
  }

  /** The api_key of each InfraEnv and the pull secret: in no condition, Event or log line. */
  private static SecretScanner secretsOf(ClusterScenario cluster) {
    Map<String, String> secrets = new HashMap<>();
    for (GenericKubernetesResource infraEnv : cluster.list(ApiVersions.AGENT_INSTALL, "InfraEnv")) {
      String url = string(infraEnv, "status", "bootArtifacts", "discoveryIgnitionURL");
      secrets.put(
          "api_key of InfraEnv " + infraEnv.getMetadata().getName(),
          url.substring(url.indexOf("api_key=") + "api_key=".length()));
    }
    secrets.put(
        "pull secret", "{\"auths\":{\"registry.example.com\":{\"auth\":\"dXNlcjpwYXNz\"}}}");
    return new SecretScanner(secrets);
  }

  @Test
  @Execution(ExecutionMode.CONCURRENT)
  void aRegeneratedIsoReachesAHostNotYetProvisionedAndLeavesAProvisionedOneAlone()
      throws InterruptedException {
    ClusterScenario cluster = world.scenario("faults-iso-url", "test-sno");
    AssistedServiceTrouble trouble = world.world().assistedServiceTrouble();
    // No host yet: the Metal3Machine gets the live ISO and waits for a host.
    cluster.apply("/e2e/sno.yaml", Map.of());
    cluster.await(
        "the Metal3Machine to boot the InfraEnv's live ISO",
        () -> {
          GenericKubernetesResource infraEnv =
              onlyOne(cluster, ApiVersions.AGENT_INSTALL, "InfraEnv");
          GenericKubernetesResource m3m = metal3Machine(cluster);
          return infraEnv != null
              && m3m != null
              && string(infraEnv, "status", "isoDownloadURL") != null
              && string(infraEnv, "status", "isoDownloadURL")
                  .equals(string(m3m, "spec", "image", "url"));
        });
    String infraEnv =
        onlyOne(cluster, ApiVersions.AGENT_INSTALL, "InfraEnv").getMetadata().getName();

    // Before the host boots: the new ISO replaces the old one, and the host boots the new one.
    String beforeBoot = trouble.regenerateImage(cluster.namespace(), infraEnv);
    Duration followed =
        cluster.await(
            "the Metal3Machine to follow the regenerated ISO",
            () -> beforeBoot.equals(string(metal3Machine(cluster), "spec", "image", "url")));
    LOG.info("regenerated ISO on the Metal3Machine after {} ms", followed.toMillis());
    assertThat(string(metal3Machine(cluster), "spec", "image", "diskFormat")).isEqualTo("live-iso");
    cluster.enrolHosts(1);
    cluster.awaitInstalled(1);
    GenericKubernetesResource host = onlyOne(cluster, ApiVersions.METAL3, "BareMetalHost");
    assertThat(string(host, "spec", "image", "url")).isEqualTo(beforeBoot);

    // After it booted: the host keeps what it booted; nothing of it is touched.
    GenericKubernetesResource m3mBefore = metal3Machine(cluster);
    GenericKubernetesResource agentBefore = onlyOne(cluster, ApiVersions.AGENT_INSTALL, "Agent");
    String afterBoot = trouble.regenerateImage(cluster.namespace(), infraEnv);
    cluster.await(
        "the InfraEnv to publish the regenerated ISO",
        () ->
            afterBoot.equals(
                string(
                    cluster.get(ApiVersions.AGENT_INSTALL, "InfraEnv", infraEnv),
                    "status",
                    "isoDownloadURL")));
    // A change would come within a second (the provider watches InfraEnvs); give it ten.
    Thread.sleep(10_000);
    GenericKubernetesResource m3mAfter = metal3Machine(cluster);
    assertThat(string(m3mAfter, "spec", "image", "url")).isEqualTo(beforeBoot);
    assertThat(m3mAfter.getMetadata().getGeneration())
        .isEqualTo(m3mBefore.getMetadata().getGeneration());
    GenericKubernetesResource hostAfter = onlyOne(cluster, ApiVersions.METAL3, "BareMetalHost");
    assertThat(string(hostAfter, "spec", "image", "url")).isEqualTo(beforeBoot);
    assertThat(hostAfter.getMetadata().getGeneration())
        .isEqualTo(host.getMetadata().getGeneration());
    assertThat(string(hostAfter, "status", "provisioning", "state")).isEqualTo("provisioned");
    GenericKubernetesResource agentAfter = onlyOne(cluster, ApiVersions.AGENT_INSTALL, "Agent");
    assertThat(agentAfter.getMetadata().getUid()).isEqualTo(agentBefore.getMetadata().getUid());
    assertThat(Fields.isTrue(agentAfter, "spec", "approved")).isTrue();
    assertThat(configs(cluster))
        .allSatisfy(
            c -> assertThat(condition(c, "DataSecretAvailable", "status")).isEqualTo("True"));
    cluster.awaitInstalled(1);
  }

  // ---- reading ----

  private static List<GenericKubernetesResource> configs(ClusterScenario cluster) {
    return cluster.list(ApiVersions.BOOTSTRAP, "OpenshiftAssistedConfig");
  }

  private static GenericKubernetesResource metal3Machine(ClusterScenario cluster) {
    return onlyOne(cluster, ApiVersions.METAL3_INFRASTRUCTURE, "Metal3Machine");
  }

  /** The one object of the kind in the namespace, or null while there is none. */
  private static GenericKubernetesResource onlyOne(
      ClusterScenario cluster, String apiVersion, String kind) {
    List<GenericKubernetesResource> all = cluster.list(apiVersion, kind);
    assertThat(all).as(kind + "s").hasSizeLessThanOrEqualTo(1);
    return all.isEmpty() ? null : all.get(0);
  }

  private static String condition(GenericKubernetesResource object, String type, String field) {
    return conditions(object).stream()
        .filter(c -> type.equals(c.get("type")))
        .map(c -> (String) c.get(field))
        .findFirst()
        .orElse(null);
  }

  private static Map<String, List<Instant>> triesPerInfraEnv(List<Download> downloads) {
    return downloads.stream()
        .collect(
            Collectors.groupingBy(
                Download::infraEnvId, Collectors.mapping(Download::at, Collectors.toList())));
  }

  private static List<Duration> intervals(List<Instant> times) {
    List<Duration> intervals = new ArrayList<>();
    for (int i = 1; i < times.size(); i++) {
      intervals.add(Duration.between(times.get(i - 1), times.get(i)));
    }
    return intervals;
  }

  private static String seconds(List<Duration> intervals) {
    return intervals.stream()
        .map(d -> String.format("%.1f s", d.toMillis() / 1000.0))
        .collect(Collectors.joining(", ", "[", "]"));
  }
}
