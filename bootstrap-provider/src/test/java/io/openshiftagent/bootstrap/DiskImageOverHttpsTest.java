package io.openshiftagent.bootstrap;

import static io.openshiftagent.provider.testing.TestWorld.await;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ConditionBuilder;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.javaoperatorsdk.operator.Operator;
import io.micrometer.core.instrument.Metrics;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.openshiftagent.api.bootstrap.v1alpha2.BootMode;
import io.openshiftagent.api.bootstrap.v1alpha2.OpenshiftAssistedConfigSpec;
import io.openshiftagent.api.common.Conditions;
import io.openshiftagent.api.external.assisted.InfraEnv;
import io.openshiftagent.api.external.assisted.InfraEnvStatus;
import io.openshiftagent.assisted.DiscoveryIgnitionClient;
import io.openshiftagent.bootstrap.ignition.AssistedServiceIgnitionSource;
import io.openshiftagent.bootstrap.ignition.CaBundleSource;
import io.openshiftagent.bootstrap.ignition.DiscoveryIgnitionSource;
import io.openshiftagent.bootstrap.names.Reasons;
import io.openshiftagent.provider.reconcile.EventRecorder;
import io.openshiftagent.provider.runtime.ControllerScope;
import io.openshiftagent.provider.runtime.Logging;
import io.openshiftagent.provider.runtime.ProviderOperator;
import io.openshiftagent.provider.testing.TestWorld;
import io.openshiftagent.testsupport.FakeAssistedService;
import io.openshiftagent.testsupport.KubeApiServerEnvironment;
import io.openshiftagent.testsupport.LogCapture;
import io.openshiftagent.testsupport.SecretScanner;
import io.openshiftagent.testsupport.TestPki;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import javax.net.ssl.SSLContext;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * DiskImage mode with the production download path: the operator reads the CA bundle from a Secret
 * and fetches the discovery ignition over real HTTPS from a server whose certificate that CA
 * signed. A failing or slow server gives a condition with a reason, retries with backoff, recovers,
 * and never leaks the token.
 */
class DiskImageOverHttpsTest {
  private static final String TOKEN = "eyJhbGciOiJIUzI1NiJ9.c2VjcmV0LXRva2Vu.c2lnbmF0dXJl";
  private static final String IGNITION =
      "{\"ignition\":{\"version\":\"3.1.0\"},\"systemd\":{\"units\":[{\"name\":\"agent.service\"}]}}";

  /** What must never reach a log line, an Event or a condition. */
  private static final SecretScanner SECRETS =
      new SecretScanner(
          Map.of(
              "assisted-service token", TOKEN,
              "token signature", TOKEN.substring(TOKEN.lastIndexOf('.') + 1),
              "discovery ignition", IGNITION));

  private static KubeApiServerEnvironment env;
  private static TestWorld world;
  private static Operator operator;
  private static SSLContext serverTls;
  private static LogCapture logs;
  private static final SimpleMeterRegistry METERS = new SimpleMeterRegistry();

  @BeforeAll
  static void startOperatorTrustingTheCaFromASecret() throws Exception {
    logs = new LogCapture();
    Metrics.globalRegistry.add(METERS);
    // Every level, as the provider's own logging setup (-v=9) allows it.
    Logging.neverLogHttpBodies();
    env = KubeApiServerEnvironment.shared();
    world = Fixtures.readyWorld(env, "diskimage-https", "");
    TestPki ca = TestPki.newCertificateAuthority("assisted-service test CA");
    serverTls = ca.serverContextFor127001();
    world
        .client
        .resource(
            new SecretBuilder()
                .withNewMetadata()
                .withName("assisted-ca")
                .withNamespace(world.ns)
                .endMetadata()
                .addToStringData("ca.crt", ca.caPem())
                .build())
        .create();

    KubernetesClient client = env.newClient();
    operator = ProviderOperator.create(client, o -> {});
    DiscoveryIgnitionSource source =
        new AssistedServiceIgnitionSource(
            client,
            Optional.of(new CaBundleSource(false, world.ns, "assisted-ca", "ca.crt", false)),
            DiscoveryIgnitionClient.Settings.defaults()
                .withTimeouts(Duration.ofSeconds(2), Duration.ofSeconds(1), Duration.ofSeconds(3)),
            namespace -> Optional.empty());
    BootstrapProvider.register(
        operator, client, source, BootMode.LIVE_ISO, "test", ControllerScope.EVERYTHING);
    operator.start();
  }

  @AfterAll
  static void stopOperator() {
    operator.stop();
    logs.close();
    Metrics.globalRegistry.remove(METERS);
  }

  @Test
  void downloadsTheIgnitionOverHttpsTrustingTheConfiguredCa() throws Exception {
    try (FakeAssistedService service = new FakeAssistedService(serverTls)) {
      service.answers(200, "application/octet-stream", IGNITION);
      startDiskImageHost("w-ok", service);

      Secret secret = await("bootstrap data Secret", () -> world.get(Secret.class, "w-ok"));

      String value = decode(secret, "value");
      assertThat(value).contains("agent.service");
      assertThat(service.requests()).isNotEmpty();
      assertThat(service.requests().get(0).getRawQuery()).contains("api_key=" + TOKEN);
    }
    assertNoTokenInConditionsOrEvents();
  }

  @Test
  void aFailingServerGivesAConditionAndTheDownloadSucceedsOnceItRecovers() throws Exception {
    try (FakeAssistedService service = new FakeAssistedService(serverTls)) {
      service.answers(500, "text/plain", "internal error");
      startDiskImageHost("w-500", service);

      await(
          "ServerError condition",
          () ->
              Reasons.DISCOVERY_IGNITION_DOWNLOAD_FAILED.equals(
                      world.reason("w-500", Reasons.DATA_SECRET_AVAILABLE))
                  && message("w-500").contains("ServerError"));
      assertThat(world.get(Secret.class, "w-500")).isNull();
      int failedTries = service.requests().size();
      assertThat(calls("ServerError")).as("failed calls counted by outcome").isPositive();
      double succeeded = calls(AssistedServiceIgnitionSource.SUCCESS);

      service.answers(200, "application/octet-stream", IGNITION);
      await("Secret after recovery", () -> world.get(Secret.class, "w-500"));
      assertThat(service.requests().size()).isGreaterThan(failedTries);
      assertThat(calls(AssistedServiceIgnitionSource.SUCCESS)).isGreaterThan(succeeded);
      await(
          "DataSecretAvailable",
          () ->
              Conditions.isTrue(
                  world.config("w-500").getStatus().conditions, Reasons.DATA_SECRET_AVAILABLE));
    }
    assertNoTokenInConditionsOrEvents();
  }

  @Test
  void eventsDuringTheBackoffDoNotBringTheNextTryForward() throws Exception {
    try (FakeAssistedService service = new FakeAssistedService(serverTls)) {
      service.answers(503, "application/json", "{\"code\":\"503\"}");
      startDiskImageHost("w-busy", service);
      await("ServerError condition", () -> message("w-busy").contains("ServerError"));
      int first = service.requests().size();

      // Our status write, Cluster API's Machine updates, a user's annotation: each is an event.
      for (int i = 0; i < 20; i++) {
        world.providers.annotateConfig("w-busy", "example.com/touched", Integer.toString(i));
        Thread.sleep(150);
      }

      // Without the backoff each event would bring a try (20 in about 3 s). With it, successive
      // tries stay at least the first wait apart (5 s, less the 1 s precision of the failure's
      // start in the condition), however long the burst took on a loaded machine.
      List<Instant> tries =
          service.requestTimes().subList(first - 1, service.requestTimes().size());
      for (int i = 1; i < tries.size(); i++) {
        assertThat(Duration.between(tries.get(i - 1), tries.get(i)))
            .as("time between try %d and the one before it", first - 1 + i)
            .isGreaterThanOrEqualTo(Duration.ofSeconds(4));
      }
    }
  }

  @Test
  void aBodyThatIsNotAnIgnitionConfigIsRetriedUntilTheServiceAnswersProperly() throws Exception {
    try (FakeAssistedService service = new FakeAssistedService(serverTls)) {
      service.answers(200, "text/html", "<html><body>Sign in</body></html>");
      startDiskImageHost("w-garbage", service);
      await("BadResponse condition", () -> message("w-garbage").contains("BadResponse"));

      service.answers(200, "application/octet-stream", IGNITION);
      // Nothing else changes: only the retry can get it.
      await("Secret after recovery", () -> world.get(Secret.class, "w-garbage"));
    }
    assertNoTokenInConditionsOrEvents();
  }

  @Test
  void aServerSlowerThanTheReadTimeoutGivesATimeoutCondition() throws Exception {
    try (FakeAssistedService service = new FakeAssistedService(serverTls)) {
      service.stalls();
      startDiskImageHost("w-slow", service);

      await(
          "Timeout condition",
          () ->
              Reasons.DISCOVERY_IGNITION_DOWNLOAD_FAILED.equals(
                      world.reason("w-slow", Reasons.DATA_SECRET_AVAILABLE))
                  && message("w-slow").contains("Timeout"));
      assertThat(world.get(Secret.class, "w-slow")).isNull();
    }
    assertNoTokenInConditionsOrEvents();
  }

  private static void startDiskImageHost(String name, FakeAssistedService service) {
    OpenshiftAssistedConfigSpec spec = Fixtures.fullSpec();
    spec.bootMode = BootMode.DISK_IMAGE;
    spec.cpuArchitecture = "x86_64";
    world.providers.host(name, false, spec);
    await("InfraEnv " + name, () -> world.infraEnv(name));
    String id = "7b0e5c3e-4b1a-4c8e-9d7f-" + String.format("%012d", Math.abs(name.hashCode()));
    world
        .resource(InfraEnv.class, name)
        .editStatus(
            i -> {
              i.setStatus(new InfraEnvStatus());
              i.getStatus().bootArtifacts = new InfraEnvStatus.BootArtifacts();
              i.getStatus().bootArtifacts.discoveryIgnitionURL =
                  service.root()
                      + "/api/assisted-install/v2/infra-envs/"
                      + id
                      + "/downloads/files?file_name=discovery.ign&api_key="
                      + TOKEN;
              i.getStatus().conditions =
                  List.of(
                      new ConditionBuilder()
                          .withType("ImageCreated")
                          .withStatus("True")
                          .withReason("ImageCreated")
                          .withMessage("ready")
                          .withLastTransitionTime("2026-11-21T10:00:00Z")
                          .build());
              return i;
            });
  }

  private static String message(String config) {
    var c = world.config(config);
    return c == null || c.getStatus() == null
        ? ""
        : Conditions.find(c.getStatus().conditions, Reasons.DATA_SECRET_AVAILABLE)
            .map(x -> x.getMessage())
            .orElse("");
  }

  /**
   * Nothing the provider logged (at any level, from the start of this class), no Event and no
   * condition in the namespace has the token or the ignition.
   */
  /**
   * openshift_agent_assisted_service_calls_total of the discovery-ignition call with {@code
   * outcome}.
   */
  private static double calls(String outcome) {
    var counter =
        METERS
            .find(AssistedServiceIgnitionSource.CALLS)
            .tags("call", "DiscoveryIgnition", "outcome", outcome)
            .counter();
    return counter == null ? 0 : counter.count();
  }

  private static void assertNoTokenInConditionsOrEvents() {
    assertThat(EventRecorder.flush(Duration.ofSeconds(60))).as("Events written").isTrue();
    // The fake assisted-service's JDK HTTP server logs the URLs it is asked for, as the real
    // one's access log would: that is the service's log, not the provider's.
    List<String> providerLog =
        logs.lines().stream().filter(line -> !line.startsWith("com.sun.net.httpserver")).toList();
    List<SecretScanner.Finding> findings = new ArrayList<>(SECRETS.scanLines("log", providerLog));
    findings.addAll(SECRETS.scanNamespace(world.client, world.ns));
    SecretScanner.assertNone(findings);
  }

  private static String decode(Secret secret, String key) {
    return new String(
        Base64.getDecoder().decode(secret.getData().get(key)), StandardCharsets.UTF_8);
  }
}
