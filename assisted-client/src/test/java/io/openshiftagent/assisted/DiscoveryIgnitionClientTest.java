package io.openshiftagent.assisted;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.openshiftagent.assisted.AssistedServiceException.Reason;
import io.openshiftagent.assisted.DiscoveryIgnitionClient.Settings;
import io.openshiftagent.testsupport.FakeAssistedService;
import io.openshiftagent.testsupport.LogCapture;
import io.openshiftagent.testsupport.TestPki;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import javax.net.ssl.SSLContext;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.slf4j.LoggerFactory;

/** The client against a real HTTPS server whose certificate comes from a CA made for the test. */
class DiscoveryIgnitionClientTest {

  static final String INFRA_ENV_ID = "6a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d";
  static final String OTHER_INFRA_ENV_ID = "00000000-1111-4222-8333-444444444444";

  /** Shaped like assisted-service's tokens; the signature is the part that must never leak. */
  static final String API_KEY_SIGNATURE = "c2VjcmV0LXNpZ25hdHVyZS1kby1ub3QtbGVhaw";

  static final String API_KEY =
      "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJpbmZyYV9lbnZfaWQiOiJ4In0." + API_KEY_SIGNATURE;
  static final String AGENT_TOKEN = "agent-token-that-must-not-leak";
  static final String IGNITION =
      "{\"ignition\":{\"version\":\"3.1.0\"},\"storage\":{\"files\":[{\"path\":"
          + "\"/etc/assisted/agent-token\",\"contents\":{\"source\":\"data:,"
          + AGENT_TOKEN
          + "\"}}]}}";

  static TestPki serviceCa;
  static SSLContext serverTls;

  FakeAssistedService service;

  @BeforeAll
  static void makeCertificates() throws Exception {
    serviceCa = TestPki.newCertificateAuthority("test assisted-service CA");
    serverTls = serviceCa.serverContextFor127001();
  }

  @BeforeEach
  void startService() throws Exception {
    service = new FakeAssistedService(serverTls).answers(200, "application/octet-stream", IGNITION);
  }

  @AfterEach
  void stopService() {
    service.close();
  }

  @Test
  void downloadsTheIgnitionThroughTheDiscoveryIgnitionUrlWhenTheCaBundleTrustsTheServer()
      throws Exception {
    try (var client = clientTrustingTheServiceCa()) {
      DiscoveryIgnition ignition = client.download(discoveryIgnitionUrl(), null);

      assertThat(ignition.json()).isEqualTo(IGNITION);
      assertThat(ignition.ignitionVersion()).isEqualTo("3.1.0");
    }
    assertThat(service.requests()).hasSize(1);
    URI request = service.requests().get(0);
    assertThat(request.getPath())
        .isEqualTo("/api/assisted-install/v2/infra-envs/" + INFRA_ENV_ID + "/downloads/files");
    assertThat(request.getRawQuery().split("&"))
        .containsExactlyInAnyOrder("file_name=discovery.ign", "api_key=" + API_KEY);
  }

  @Test
  void downloadsTheIgnitionThroughTheEventsUrlWhenNoDiscoveryIgnitionUrlIsPublished()
      throws Exception {
    try (var client = clientTrustingTheServiceCa()) {
      assertThat(client.download("", eventsUrl(INFRA_ENV_ID)).json()).isEqualTo(IGNITION);
    }
    URI request = service.requests().get(0);
    assertThat(request.getPath())
        .isEqualTo("/api/assisted-install/v2/infra-envs/" + INFRA_ENV_ID + "/downloads/files");
    assertThat(request.getRawQuery().split("&"))
        .containsExactlyInAnyOrder("file_name=discovery.ign", "api_key=" + API_KEY);
  }

  @Test
  void prefersTheDiscoveryIgnitionUrlWhenBothUrlsArePublished() throws Exception {
    try (var client = clientTrustingTheServiceCa()) {
      client.download(discoveryIgnitionUrl(), eventsUrl(OTHER_INFRA_ENV_ID));
    }
    assertThat(service.requests()).hasSize(1);
    assertThat(service.requests().get(0).getPath()).contains(INFRA_ENV_ID);
  }

  @Test
  void returnsTheBodyUnchangedWhenServedAsApplicationJson() throws Exception {
    service.answers(200, "application/json", IGNITION);
    try (var client = clientTrustingTheServiceCa()) {
      assertThat(client.download(discoveryIgnitionUrl(), null).json()).isEqualTo(IGNITION);
    }
  }

  @Test
  void sendsTheRequestToTheServiceRootOverrideInsteadOfThePublishedHost() throws Exception {
    String publishedElsewhere =
        "https://assisted.example.invalid/api/assisted-install/v2/infra-envs/"
            + INFRA_ENV_ID
            + "/downloads/files?file_name=discovery.ign&api_key="
            + API_KEY;
    Settings settings =
        Settings.defaults()
            .withCaBundle(serviceCa.caPem())
            .withServiceRootOverride(URI.create(service.root()));
    try (var client = DiscoveryIgnitionClient.create(settings)) {
      assertThat(client.download(publishedElsewhere, null).json()).isEqualTo(IGNITION);
    }
    assertThat(service.requests()).hasSize(1);
  }

  @Test
  void failsWithRetryableTlsErrorWhenOnlyTheJvmDefaultRootsAreTrusted() {
    try (var client = clientFor(Settings.defaults())) {
      AssistedServiceException failure = downloadFailure(client);

      assertThat(failure.reason()).isEqualTo(Reason.TLS_ERROR);
      assertThat(failure.conditionReason()).isEqualTo("TLSError");
      assertThat(failure.retryable()).isTrue();
    }
    assertThat(service.requests()).isEmpty();
  }

  @Test
  void failsWithTlsErrorWhenTheCaBundleHoldsAnotherCa() throws Exception {
    String otherCa = TestPki.newCertificateAuthority("some other CA").caPem();
    try (var client = clientFor(Settings.defaults().withCaBundle(otherCa))) {
      assertThat(downloadFailure(client).reason()).isEqualTo(Reason.TLS_ERROR);
    }
  }

  @Test
  void failsWithTlsErrorWhenTheCertificateDoesNotNameTheHost() {
    // The certificate is for 127.0.0.1 only; "localhost" reaches the same server by another name.
    Settings settings =
        Settings.defaults()
            .withCaBundle(caPem())
            .withServiceRootOverride(URI.create(service.root().replace("127.0.0.1", "localhost")));
    try (var client = clientFor(settings)) {
      AssistedServiceException failure = downloadFailure(client);

      assertThat(failure.reason()).isEqualTo(Reason.TLS_ERROR);
      assertThat(failure.getMessage()).contains("localhost");
    }
  }

  @Test
  void aClientBuiltForARotatedBundleTrustsItWhileTheOldClientKeepsItsOwnTrust() throws Exception {
    Settings before =
        Settings.defaults().withCaBundle(TestPki.newCertificateAuthority("old CA").caPem());
    Settings after = before.withCaBundle(serviceCa.caPem());
    try (var oldClient = DiscoveryIgnitionClient.create(before)) {
      assertThat(downloadFailure(oldClient).reason()).isEqualTo(Reason.TLS_ERROR);
      try (var newClient = DiscoveryIgnitionClient.create(after)) {
        assertThat(newClient.download(discoveryIgnitionUrl(), null).json()).isEqualTo(IGNITION);
      }
      assertThat(downloadFailure(oldClient).reason()).isEqualTo(Reason.TLS_ERROR);
    }
  }

  @Test
  void aCaBundleWithCommentsAndOtherCertificatesAroundTheServiceCaIsTrusted() throws Exception {
    String bundle =
        "# another CA\n"
            + TestPki.newCertificateAuthority("another CA").caPem()
            + "\nsome text between\n# the service's CA\n"
            + caPem();
    try (var client = clientFor(Settings.defaults().withCaBundle(bundle))) {
      assertThat(client.download(discoveryIgnitionUrl(), null).json()).isEqualTo(IGNITION);
    }
  }

  @Test
  void aRedirectWithinTheServiceIsFollowed() throws Exception {
    service.redirects(307, "/api/assisted-install/v2/moved/discovery.ign");
    try (var client = clientTrustingTheServiceCa()) {
      assertThat(client.download(discoveryIgnitionUrl(), null).json()).isEqualTo(IGNITION);
    }
    assertThat(service.requests()).hasSize(2);
    assertThat(service.requests().get(1).getPath())
        .isEqualTo("/api/assisted-install/v2/moved/discovery.ign");
  }

  @Test
  void aRedirectToAnotherPortIsABadResponseAndTheOtherServerGetsNoRequest() throws Exception {
    try (FakeAssistedService elsewhere =
        new FakeAssistedService(serverTls).answers(200, "application/json", IGNITION)) {
      service.redirects(302, elsewhere.root() + "/api/assisted-install/v2/elsewhere?api_key=x");
      AssistedServiceException failure = downloadFailure(clientTrustingTheServiceCa());

      assertThat(failure.reason()).isEqualTo(Reason.BAD_RESPONSE);
      assertThat(failure.getMessage())
          .contains("HTTP 302")
          .contains("leads out of the service")
          .doesNotContain(API_KEY_SIGNATURE);
      assertThat(elsewhere.requests()).isEmpty();
    }
    assertThat(service.requests()).hasSize(1);
  }

  @ParameterizedTest
  @ValueSource(strings = {"localhost", "http"})
  void aRedirectToAnotherHostOrFromHttpsToHttpIsNotFollowed(String change) {
    String sameServer = service.root() + "/api/assisted-install/v2/moved";
    service.redirects(
        301,
        change.equals("http")
            ? sameServer.replace("https://", "http://")
            : sameServer.replace("127.0.0.1", "localhost"));
    AssistedServiceException failure = downloadFailure(clientTrustingTheServiceCa());

    assertThat(failure.reason()).isEqualTo(Reason.BAD_RESPONSE);
    assertThat(service.requests()).hasSize(1);
  }

  @Test
  void aRedirectToAnotherHostThatWouldAnswerGetsNoRequestAndNoToken() throws Exception {
    try (FakeAssistedService otherHost =
        new FakeAssistedService(serviceCa.serverContextForLocalhost())
            .answers(200, "application/octet-stream", IGNITION)) {
      String otherRoot = "https://localhost:" + URI.create(otherHost.root()).getPort();
      String onOtherHost =
          otherRoot
              + "/api/assisted-install/v2/infra-envs/"
              + INFRA_ENV_ID
              + "/downloads/files?file_name=discovery.ign&api_key="
              + API_KEY;
      // A Location that carries the key, as a redirect to a mirror of the service would.
      service.redirects(302, otherRoot + "/moved/discovery.ign?api_key=" + API_KEY);
      AssistedServiceException failure = downloadFailure(clientTrustingTheServiceCa());

      assertThat(failure.reason()).isEqualTo(Reason.BAD_RESPONSE);
      assertThat(failure.getMessage())
          .contains("leads out of the service")
          .doesNotContain(API_KEY_SIGNATURE);
      assertThat(otherHost.requests()).isEmpty();

      // The other host is a server the client trusts and reaches: asked directly, it answers and
      // receives the key. Only the redirect policy kept the key from it above.
      try (var client = clientTrustingTheServiceCa()) {
        assertThat(client.download(onOtherHost, null).json()).isEqualTo(IGNITION);
      }
      assertThat(otherHost.requests()).hasSize(1);
      assertThat(otherHost.requests().get(0).getRawQuery()).contains("api_key=" + API_KEY);
    }
    assertThat(service.requests()).hasSize(1);
  }

  @Test
  void aRedirectLoopWithinTheServiceEndsAsABadResponse() {
    service.redirectsEveryRequest(302, "/api/assisted-install/v2/loop");
    AssistedServiceException failure = downloadFailure(clientTrustingTheServiceCa());

    assertThat(failure.reason()).isEqualTo(Reason.BAD_RESPONSE);
    assertThat(failure.getMessage()).contains("more than " + DiscoveryIgnitionClient.MAX_REDIRECTS);
    assertThat(service.requests()).hasSize(DiscoveryIgnitionClient.MAX_REDIRECTS + 1);
  }

  @Test
  void http500IsARetryableServerError() {
    service.answers(500, "application/json", "{\"code\":\"500\",\"reason\":\"" + API_KEY + "\"}");
    AssistedServiceException failure = downloadFailure(clientTrustingTheServiceCa());

    assertThat(failure.reason()).isEqualTo(Reason.SERVER_ERROR);
    assertThat(failure.conditionReason()).isEqualTo("ServerError");
    assertThat(failure.retryable()).isTrue();
    assertThat(failure.getMessage()).contains("HTTP 500");
  }

  @Test
  void http404IsANotFoundThatIsNotRetryable() {
    service.answers(404, "application/json", "{\"code\":\"404\"}");
    AssistedServiceException failure = downloadFailure(clientTrustingTheServiceCa());

    assertThat(failure.reason()).isEqualTo(Reason.NOT_FOUND);
    assertThat(failure.conditionReason()).isEqualTo("NotFound");
    assertThat(failure.retryable()).isFalse();
  }

  @Test
  void http401IsAnUnauthorizedThatIsNotRetryable() {
    service.answers(401, "application/json", "{\"code\":401}");
    AssistedServiceException failure = downloadFailure(clientTrustingTheServiceCa());

    assertThat(failure.reason()).isEqualTo(Reason.UNAUTHORIZED);
    assertThat(failure.conditionReason()).isEqualTo("Unauthorized");
    assertThat(failure.retryable()).isFalse();
  }

  @Test
  void aServerSlowerThanTheReadTimeoutIsARetryableTimeout() {
    service.stalls();
    Settings settings =
        Settings.defaults()
            .withCaBundle(caPem())
            .withTimeouts(Duration.ofSeconds(5), Duration.ofMillis(300), Duration.ofSeconds(20));
    long started = System.nanoTime();
    AssistedServiceException failure = downloadFailure(clientFor(settings));

    assertThat(failure.reason()).isEqualTo(Reason.TIMEOUT);
    assertThat(failure.conditionReason()).isEqualTo("Timeout");
    assertThat(failure.retryable()).isTrue();
    assertThat(failure.getMessage()).contains("read 0.3s");
    assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(10));
  }

  @Test
  void aCallLongerThanTheCallTimeoutIsARetryableTimeout() {
    service.stalls();
    Settings settings =
        Settings.defaults()
            .withCaBundle(caPem())
            .withTimeouts(Duration.ofSeconds(5), Duration.ofSeconds(30), Duration.ofMillis(500));
    long started = System.nanoTime();
    AssistedServiceException failure = downloadFailure(clientFor(settings));

    assertThat(failure.reason()).isEqualTo(Reason.TIMEOUT);
    assertThat(failure.retryable()).isTrue();
    assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(10));
  }

  @Test
  void aClosedPortIsARetryableUnreachable() throws Exception {
    String url = discoveryIgnitionUrl();
    service.close();
    AssistedServiceException failure =
        catchThrowableOfType(
            AssistedServiceException.class, () -> clientTrustingTheServiceCa().download(url, null));

    assertThat(failure.reason()).isEqualTo(Reason.UNREACHABLE);
    assertThat(failure.conditionReason()).isEqualTo("Unreachable");
    assertThat(failure.retryable()).isTrue();
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "<html><body>Service Unavailable</body></html>",
        "{\"storage\":{}}",
        "{\"ignition\":{}}",
        "{\"ignition\":{\"version\":3}}",
        "[\"ignition\"]",
        "{ignition:{version:\"3.1.0\"}}",
        "{\"ignition\":{\"version\":\"3.1.0\"}} and then some text",
        ""
      })
  void aBodyThatIsNotAnIgnitionConfigIsABadResponse(String body) {
    service.answers(200, "application/octet-stream", body);
    AssistedServiceException failure = downloadFailure(clientTrustingTheServiceCa());

    assertThat(failure.reason()).isEqualTo(Reason.BAD_RESPONSE);
    assertThat(failure.conditionReason()).isEqualTo("BadResponse");
    assertThat(failure.retryable()).isTrue();
  }

  @Test
  void theApiKeyAndTheIgnitionAppearInNoExceptionTextAndNoLogLine() throws Exception {
    List<Object> reported = new ArrayList<>();
    List<String> logLines;
    try (var logs = new LogCapture()) {
      LoggerFactory.getLogger(getClass()).info("slf4j capture is live");
      java.util.logging.Logger.getLogger(getClass().getName()).info("jul capture is live");

      try (var client = clientTrustingTheServiceCa()) {
        DiscoveryIgnition ignition = client.download(discoveryIgnitionUrl(), null);
        reported.add(ignition);
        reported.add(IgnitionLocation.fromDiscoveryIgnitionUrl(discoveryIgnitionUrl()));
        reported.add(client.settings());
        for (int status : new int[] {401, 403, 404, 500}) {
          service.answers(status, "application/json", "{\"reason\":\"" + API_KEY + "\"}");
          reported.add(downloadFailure(client));
        }
        service.answers(200, "text/html", "<p>api_key=" + API_KEY + "</p>");
        reported.add(downloadFailure(client));
        reported.add(
            catchThrowableOfType(
                AssistedServiceException.class,
                () -> client.download(null, service.root() + "/v2/events?api_key=" + API_KEY)));
        reported.add(
            catchThrowableOfType(
                AssistedServiceException.class,
                () -> client.download("https://[bad url?api_key=" + API_KEY, null)));
      }
      reported.add(downloadFailure(clientFor(Settings.defaults())));
      service.stalls();
      reported.add(
          downloadFailure(
              clientFor(
                  Settings.defaults()
                      .withCaBundle(caPem())
                      .withTimeouts(
                          Duration.ofSeconds(5), Duration.ofMillis(200), Duration.ofSeconds(5)))));
      logLines = logs.lines();
    }

    // The key was really in play: the server received it.
    assertThat(service.requests()).anySatisfy(r -> assertThat(r.getRawQuery()).contains(API_KEY));
    assertThat(reported).hasSize(12).doesNotContainNull();
    assertThat(logLines).anyMatch(line -> line.contains("slf4j capture is live"));
    assertThat(logLines).anyMatch(line -> line.contains("jul capture is live"));

    for (Object report : reported) {
      assertThat(everythingShownOf(report))
          .doesNotContain(API_KEY_SIGNATURE)
          .doesNotContain(AGENT_TOKEN);
    }
    // The fake server (JDK HttpServer) logs its request lines at debug level: that is the server
    // side of the test, not the client under test.
    assertThat(logLines)
        .filteredOn(line -> !line.startsWith("com.sun.net.httpserver "))
        .allSatisfy(
            line -> assertThat(line).doesNotContain(API_KEY_SIGNATURE).doesNotContain(AGENT_TOKEN));
  }

  private static String everythingShownOf(Object report) {
    if (!(report instanceof Throwable failure)) {
      return report.toString();
    }
    StringWriter trace = new StringWriter();
    failure.printStackTrace(new PrintWriter(trace));
    return failure.getMessage() + "\n" + failure + "\n" + trace;
  }

  private String discoveryIgnitionUrl() {
    return service.root()
        + "/api/assisted-install/v2/infra-envs/"
        + INFRA_ENV_ID
        + "/downloads/files?file_name=discovery.ign&api_key="
        + API_KEY;
  }

  private String eventsUrl(String infraEnvId) {
    return service.root()
        + "/api/assisted-install/v2/events?api_key="
        + API_KEY
        + "&infra_env_id="
        + infraEnvId;
  }

  private AssistedServiceException downloadFailure(DiscoveryIgnitionClient client) {
    return catchThrowableOfType(
        AssistedServiceException.class, () -> client.download(discoveryIgnitionUrl(), null));
  }

  private DiscoveryIgnitionClient clientTrustingTheServiceCa() {
    return clientFor(Settings.defaults().withCaBundle(caPem()));
  }

  private static String caPem() {
    try {
      return serviceCa.caPem();
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  private static DiscoveryIgnitionClient clientFor(Settings settings) {
    try {
      return DiscoveryIgnitionClient.create(settings);
    } catch (AssistedServiceException e) {
      throw new IllegalStateException(e);
    }
  }
}
