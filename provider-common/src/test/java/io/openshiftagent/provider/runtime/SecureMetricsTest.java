package io.openshiftagent.provider.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.api.model.ServiceAccountBuilder;
import io.fabric8.kubernetes.api.model.authentication.TokenRequestBuilder;
import io.fabric8.kubernetes.api.model.rbac.ClusterRoleBindingBuilder;
import io.fabric8.kubernetes.api.model.rbac.ClusterRoleBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.openshiftagent.testsupport.CrdInstaller;
import io.openshiftagent.testsupport.KubeApiServerEnvironment;
import io.openshiftagent.testsupport.TestPaths;
import io.openshiftagent.testsupport.TestPki;
import io.openshiftagent.testsupport.WithKubeApiServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLHandshakeException;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509TrustManager;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The metrics server Cluster API's way, on the real API server: HTTPS with a self-signed
 * certificate, a scraper's ServiceAccount token let in by TokenReview and SubjectAccessReview and a
 * stranger's refused, the command line's TLS settings, and an OpenShift hub's TLS profile followed
 * as it changes (openshift/api's APIServer CRD installed), on the same running server.
 */
@WithKubeApiServer
class SecureMetricsTest {
  private static final String TLS12_RSA_AES128 = "TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256";
  private static final String TLS12_RSA_AES256 = "TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384";

  /** A suite Old offers and Intermediate does not. */
  private static final String TLS12_RSA_CBC = "TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA256";

  @TempDir Path dir;

  @Test
  void anAuthorisedTokenScrapesAStrangersTokenIsRefused(KubeApiServerEnvironment env)
      throws Exception {
    KubernetesClient client = env.client();
    String ns = env.createNamespace("metrics-access");
    String scraper = token(client, ns, "scraper", true);
    String stranger = token(client, ns, "stranger", false);

    try (DiagnosticsServer server = start(client, "--diagnostics-address=127.0.0.1:0")) {
      int port = server.port();
      assertThat(get(port, scraper)).startsWith("HTTP/1.1 200").contains("# TYPE up gauge");
      assertThat(get(port, stranger))
          .startsWith("HTTP/1.1 403")
          .contains("user \"system:serviceaccount:" + ns + ":stranger\" may not get path");
      assertThat(get(port, null)).startsWith("HTTP/1.1 401");
      assertThat(get(port, "not-a-token")).startsWith("HTTP/1.1 401");
      assertThat(plainHttp(port)).doesNotContain("# TYPE up gauge");

      // Intermediate by default: TLS 1.2 with its suites only, and TLS 1.3.
      assertThat(handshake(port, "TLSv1.2", TLS12_RSA_AES128)).isEqualTo(TLS12_RSA_AES128);
      assertThat(handshake(port, "TLSv1.3", "TLS_AES_128_GCM_SHA256"))
          .isEqualTo("TLS_AES_128_GCM_SHA256");
      assertThatThrownBy(() -> handshake(port, "TLSv1.2", TLS12_RSA_CBC))
          .isInstanceOf(SSLHandshakeException.class);
    }
  }

  @Test
  void theCommandLinesTlsSettingsAreServed(KubeApiServerEnvironment env) throws Exception {
    try (DiagnosticsServer server =
        start(
            env.client(),
            "--diagnostics-address=127.0.0.1:0",
            "--tls-min-version=VersionTLS12",
            "--tls-cipher-suites=" + TLS12_RSA_AES256)) {
      assertThat(handshake(server.port(), "TLSv1.2", TLS12_RSA_AES256)).isEqualTo(TLS12_RSA_AES256);
      assertThatThrownBy(() -> handshake(server.port(), "TLSv1.2", TLS12_RSA_AES128))
          .isInstanceOf(SSLHandshakeException.class);
    }
    try (DiagnosticsServer server =
        start(
            env.client(), "--diagnostics-address=127.0.0.1:0", "--tls-min-version=VersionTLS13")) {
      assertThatThrownBy(() -> handshake(server.port(), "TLSv1.2", TLS12_RSA_AES128))
          .isInstanceOf(SSLHandshakeException.class);
    }
  }

  @Test
  void anInsecureEndpointServesPlainHttpToAnyone(KubeApiServerEnvironment env) throws Exception {
    try (DiagnosticsServer server =
        start(env.client(), "--diagnostics-address=127.0.0.1:0", "--insecure-diagnostics")) {
      assertThat(plainHttp(server.port())).startsWith("HTTP/1.1 200").contains("# TYPE up gauge");
    }
  }

  @Test
  void anOpenShiftHubsTlsProfileIsFollowedWithoutARestart(KubeApiServerEnvironment env)
      throws Exception {
    KubernetesClient client = env.client();
    CrdInstaller.installFrom(client, List.of(TestPaths.openshiftHubCrds()));
    var apiServers = client.genericKubernetesResources(ClusterTlsProfile.API_SERVERS);
    apiServers.withName("cluster").delete();
    String ns = env.createNamespace("metrics-profile");
    String scraper = token(client, ns, "scraper", true);

    try (DiagnosticsServer server = start(client, "--diagnostics-address=127.0.0.1:0")) {
      int port = server.port();
      // The Old profile, but no adherence asked: Intermediate still.
      apiServers.resource(apiServer(null, Map.of("type", "Old", "old", Map.of()))).create();
      await("the profile is read", () -> server.settings().equals(TlsSettings.INTERMEDIATE));
      assertThatThrownBy(() -> handshake(port, "TLSv1.2", TLS12_RSA_CBC))
          .isInstanceOf(SSLHandshakeException.class);

      // Every component must adhere: Old's CBC suite is served from then on.
      edit(apiServers, "StrictAllComponents", Map.of("type", "Old", "old", Map.of()));
      await("Old is applied", () -> server.settings().cipherSuites().contains(TLS12_RSA_CBC));
      assertThat(handshake(port, "TLSv1.2", TLS12_RSA_CBC)).isEqualTo(TLS12_RSA_CBC);

      // Modern: TLS 1.3 only, on the same server.
      edit(apiServers, "StrictAllComponents", Map.of("type", "Modern", "modern", Map.of()));
      await("Modern is applied", () -> server.settings().minVersion().equals("VersionTLS13"));
      assertThatThrownBy(() -> handshake(port, "TLSv1.2", TLS12_RSA_AES128))
          .isInstanceOf(SSLHandshakeException.class);
      assertThat(handshake(port, "TLSv1.3", "TLS_AES_256_GCM_SHA384"))
          .isEqualTo("TLS_AES_256_GCM_SHA384");

      // Custom, with a suite this JVM lacks among OpenShift's OpenSSL names: the others serve.
      edit(
          apiServers,
          "StrictAllComponents",
          Map.of(
              "type",
              "Custom",
              "custom",
              Map.of(
                  "minTLSVersion",
                  "VersionTLS12",
                  "ciphers",
                  List.of("ECDHE-RSA-AES256-GCM-SHA384", "NO-SUCH-CIPHER"))));
      await(
          "Custom is applied",
          () -> server.settings().cipherSuites().equals(List.of(TLS12_RSA_AES256)));
      assertThat(handshake(port, "TLSv1.2", TLS12_RSA_AES256)).isEqualTo(TLS12_RSA_AES256);
      assertThatThrownBy(() -> handshake(port, "TLSv1.2", TLS12_RSA_AES128))
          .isInstanceOf(SSLHandshakeException.class);
      assertThat(get(port, scraper)).as("still serving").startsWith("HTTP/1.1 200");

      // Back to the components' own choice.
      edit(
          apiServers, "LegacyAdheringComponentsOnly", Map.of("type", "Modern", "modern", Map.of()));
      await("Intermediate again", () -> server.settings().equals(TlsSettings.INTERMEDIATE));
      assertThat(handshake(port, "TLSv1.2", TLS12_RSA_AES128)).isEqualTo(TLS12_RSA_AES128);
    } finally {
      apiServers.withName("cluster").delete();
    }
  }

  @Test
  void aMountedCertificateIsServedAndARotationPickedUp(KubeApiServerEnvironment env)
      throws Exception {
    Path certs = Files.createDirectories(dir.resolve("certs"));
    writeServing(certs, "metrics one");
    try (DiagnosticsServer server =
        start(env.client(), "--diagnostics-address=127.0.0.1:0", "--metrics-cert-path=" + certs)) {
      assertThat(servedSubject(server.port())).contains("metrics one");
      writeServing(certs, "metrics two");
      Files.setLastModifiedTime(
          certs.resolve("tls.key"),
          java.nio.file.attribute.FileTime.fromMillis(System.currentTimeMillis() + 5000));
      assertThat(servedSubject(server.port())).contains("metrics two");
    }
  }

  /** A CA's serving certificate for 127.0.0.1 as a kubernetes.io/tls Secret mounts it. */
  private static void writeServing(Path dir, String commonName) throws Exception {
    TestPki.PemKeyPair serving =
        TestPki.newCertificateAuthority(commonName).pemServerCertificateFor127001(commonName);
    Files.writeString(dir.resolve("tls.crt"), serving.certificate());
    Files.writeString(dir.resolve("tls.key"), serving.privateKey());
  }

  private static DiagnosticsServer start(KubernetesClient client, String... args)
      throws IOException {
    ProviderOptions options = ProviderOptions.parse("lease", args);
    return DiagnosticsServer.start(
        options.metrics().orElseThrow(), options.tls(), client, () -> "# TYPE up gauge\nup 1\n");
  }

  /** A ServiceAccount's token; with {@code reader}, bound to a role that may get /metrics. */
  private static String token(KubernetesClient client, String ns, String name, boolean reader) {
    client
        .serviceAccounts()
        .inNamespace(ns)
        .resource(
            new ServiceAccountBuilder().withNewMetadata().withName(name).endMetadata().build())
        .create();
    if (reader) {
      client
          .rbac()
          .clusterRoles()
          .resource(
              new ClusterRoleBuilder()
                  .withNewMetadata()
                  .withName("metrics-reader-test")
                  .endMetadata()
                  .addNewRule()
                  .withNonResourceURLs("/metrics")
                  .withVerbs("get")
                  .endRule()
                  .build())
          .serverSideApply();
      client
          .rbac()
          .clusterRoleBindings()
          .resource(
              new ClusterRoleBindingBuilder()
                  .withNewMetadata()
                  .withName(ns + "-" + name)
                  .endMetadata()
                  .withNewRoleRef("rbac.authorization.k8s.io", "ClusterRole", "metrics-reader-test")
                  .addNewSubject()
                  .withKind("ServiceAccount")
                  .withName(name)
                  .withNamespace(ns)
                  .endSubject()
                  .build())
          .create();
    }
    return client
        .serviceAccounts()
        .inNamespace(ns)
        .withName(name)
        .tokenRequest(
            new TokenRequestBuilder().withNewSpec().withExpirationSeconds(3600L).endSpec().build())
        .getStatus()
        .getToken();
  }

  private static GenericKubernetesResource apiServer(
      String adherence, Map<String, Object> profile) {
    Map<String, Object> spec = new java.util.HashMap<>();
    spec.put("tlsSecurityProfile", profile);
    if (adherence != null) {
      spec.put("tlsAdherence", adherence);
    }
    return new GenericKubernetesResourceBuilder()
        .withApiVersion("config.openshift.io/v1")
        .withKind("APIServer")
        .withNewMetadata()
        .withName("cluster")
        .endMetadata()
        .withAdditionalProperties(Map.of("spec", spec))
        .build();
  }

  private static void edit(
      io.fabric8.kubernetes.client.dsl.NonNamespaceOperation<
              GenericKubernetesResource,
              io.fabric8.kubernetes.api.model.GenericKubernetesResourceList,
              io.fabric8.kubernetes.client.dsl.Resource<GenericKubernetesResource>>
          apiServers,
      String adherence,
      Map<String, Object> profile) {
    apiServers
        .withName("cluster")
        .edit(
            current -> {
              GenericKubernetesResource next = apiServer(adherence, profile);
              next.setMetadata(current.getMetadata());
              return next;
            });
  }

  /** A raw HTTPS GET of /metrics, as a scraper skipping verification sends it; the response. */
  private static String get(int port, String token) throws Exception {
    try (SSLSocket socket = socket(port)) {
      OutputStream out = socket.getOutputStream();
      out.write(
          ("GET /metrics HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n"
                  + (token == null ? "" : "Authorization: Bearer " + token + "\r\n")
                  + "\r\n")
              .getBytes(StandardCharsets.US_ASCII));
      out.flush();
      return new String(socket.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    }
  }

  /** What a plain HTTP request gets from the port, or the failure. */
  private static String plainHttp(int port) {
    try (java.net.Socket socket = new java.net.Socket("127.0.0.1", port)) {
      socket.setSoTimeout(5000);
      socket
          .getOutputStream()
          .write(
              "GET /metrics HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n"
                  .getBytes(StandardCharsets.US_ASCII));
      InputStream in = socket.getInputStream();
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      return e.toString();
    }
  }

  /** Handshakes offering only {@code protocol} and {@code suite}; the suite agreed. */
  private static String handshake(int port, String protocol, String suite) throws Exception {
    try (SSLSocket socket = socket(port)) {
      socket.setEnabledProtocols(new String[] {protocol});
      socket.setEnabledCipherSuites(new String[] {suite});
      socket.startHandshake();
      return socket.getSession().getCipherSuite();
    }
  }

  private static String servedSubject(int port) throws Exception {
    try (SSLSocket socket = socket(port)) {
      socket.startHandshake();
      return ((X509Certificate) socket.getSession().getPeerCertificates()[0])
          .getSubjectX500Principal()
          .getName();
    }
  }

  private static SSLSocket socket(int port) throws Exception {
    SSLContext context = SSLContext.getInstance("TLS");
    context.init(null, new TrustManager[] {new TrustAll()}, new SecureRandom());
    SSLSocket socket = (SSLSocket) context.getSocketFactory().createSocket("127.0.0.1", port);
    socket.setSoTimeout(10_000);
    return socket;
  }

  private static void await(String what, Supplier<Boolean> condition) throws InterruptedException {
    long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
    while (!condition.get()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("timed out waiting until " + what);
      }
      Thread.sleep(50);
    }
  }

  /** Prometheus' {@code insecureSkipVerify}, for a self-signed certificate. */
  private static final class TrustAll implements X509TrustManager {
    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType) {}

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType) {}

    @Override
    public X509Certificate[] getAcceptedIssuers() {
      return new X509Certificate[0];
    }
  }
}
