package io.openshiftagent.controlplane.scope;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsExchange;
import com.sun.net.httpserver.HttpsParameters;
import com.sun.net.httpserver.HttpsServer;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.openshiftagent.testsupport.TestPki;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.security.cert.X509Certificate;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.bouncycastle.asn1.pkcs.PrivateKeyInfo;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * An installed cluster reached through its kubeconfig's inline CA, client certificate and key
 * ({@link InstalledClusterTls}): the server that asks for a client certificate gets the
 * kubeconfig's, for a PKCS#8 and a PKCS#1 key, and a server whose certificate another CA signed is
 * refused.
 */
class InstalledClusterClientsTest {
  private final List<String> clientsSeen = new CopyOnWriteArrayList<>();
  private HttpsServer server;

  @AfterEach
  void stop() {
    if (server != null) {
      server.stop(0);
    }
  }

  @Test
  void aClientPresentsTheKubeconfigsCertificateAndTrustsItsCa() throws Exception {
    TestPki ca = TestPki.newCertificateAuthority("installed cluster");
    int port = serve(ca);
    TestPki.PemKeyPair admin = ca.pemClientCertificate("admin", "system:masters");

    try (KubernetesClient client =
        InstalledClusterClients.connect(
            kubeconfig(port, ca.caPem(), admin.certificate(), admin.privateKey()))) {
      assertThat(client.getKubernetesVersion().getGitVersion()).isEqualTo("v1.33.0");
    }
    assertThat(clientsSeen).containsExactly("CN=admin,O=system:masters");
  }

  @Test
  void aPkcs1KeyIsReadToo() throws Exception {
    TestPki ca = TestPki.newCertificateAuthority("installed cluster");
    int port = serve(ca);
    TestPki.PemKeyPair admin = ca.pemClientCertificate("admin", "system:masters");
    String pkcs1 =
        pem(
            "RSA PRIVATE KEY",
            PrivateKeyInfo.getInstance(der(admin.privateKey()))
                .parsePrivateKey()
                .toASN1Primitive()
                .getEncoded());

    try (KubernetesClient client =
        InstalledClusterClients.connect(kubeconfig(port, ca.caPem(), admin.certificate(), pkcs1))) {
      assertThat(client.getKubernetesVersion().getGitVersion()).isEqualTo("v1.33.0");
    }
    assertThat(clientsSeen).containsExactly("CN=admin,O=system:masters");
  }

  @Test
  void onlyTheKubeconfigsCaIsTrusted() throws Exception {
    TestPki serverCa = TestPki.newCertificateAuthority("someone else");
    TestPki ca = TestPki.newCertificateAuthority("installed cluster");
    int port = serve(serverCa);
    TestPki.PemKeyPair admin = ca.pemClientCertificate("admin", "system:masters");

    try (KubernetesClient client =
        InstalledClusterClients.connect(
            kubeconfig(port, ca.caPem(), admin.certificate(), admin.privateKey()))) {
      assertThatThrownBy(client::getKubernetesVersion).isNotNull();
    }
    assertThat(clientsSeen).isEmpty();
  }

  /** A server on 127.0.0.1 that asks for a client certificate signed by {@code ca}. */
  private int serve(TestPki ca) throws Exception {
    server = HttpsServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    server.setHttpsConfigurator(
        new HttpsConfigurator(ca.serverContextFor127001(true)) {
          @Override
          public void configure(HttpsParameters params) {
            var ssl = getSSLContext().getDefaultSSLParameters();
            ssl.setWantClientAuth(true);
            params.setSSLParameters(ssl);
          }
        });
    server.createContext(
        "/version",
        exchange -> {
          try (exchange) {
            try {
              var peers = ((HttpsExchange) exchange).getSSLSession().getPeerCertificates();
              clientsSeen.add(((X509Certificate) peers[0]).getSubjectX500Principal().getName());
            } catch (javax.net.ssl.SSLPeerUnverifiedException noClientCertificate) {
              clientsSeen.add("(none)");
            }
            byte[] body =
                "{\"major\":\"1\",\"minor\":\"33\",\"gitVersion\":\"v1.33.0\"}"
                    .getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
          }
        });
    server.start();
    return server.getAddress().getPort();
  }

  private static String kubeconfig(int port, String caPem, String certificate, String key) {
    return """
        apiVersion: v1
        kind: Config
        clusters:
        - cluster:
            certificate-authority-data: %s
            server: https://127.0.0.1:%d
          name: installed
        contexts:
        - context:
            cluster: installed
            user: admin
          name: admin
        current-context: admin
        users:
        - name: admin
          user:
            client-certificate-data: %s
            client-key-data: %s
        """
        .formatted(base64(caPem), port, base64(certificate), base64(key));
  }

  private static byte[] der(String pem) {
    return Base64.getMimeDecoder().decode(pem.replaceAll("-----[A-Z ]+-----", ""));
  }

  private static String pem(String type, byte[] der) {
    return "-----BEGIN "
        + type
        + "-----\n"
        + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII)).encodeToString(der)
        + "\n-----END "
        + type
        + "-----\n";
  }

  private static String base64(String text) {
    return Base64.getEncoder().encodeToString(text.getBytes(StandardCharsets.UTF_8));
  }
}
