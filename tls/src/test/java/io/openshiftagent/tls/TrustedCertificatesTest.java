package io.openshiftagent.tls;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.openshiftagent.testsupport.FakeAssistedService;
import io.openshiftagent.testsupport.TestPki;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.security.KeyStore;
import java.security.cert.X509Certificate;
import java.util.Arrays;
import java.util.List;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLHandshakeException;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509TrustManager;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class TrustedCertificatesTest {
  static TestPki first;
  static TestPki second;

  @BeforeAll
  static void makeCertificateAuthorities() throws Exception {
    first = TestPki.newCertificateAuthority("first CA");
    second = TestPki.newCertificateAuthority("second CA");
  }

  @Test
  void trustsTheJvmDefaultRootsAndEveryCertificateOfABundleWithComments() throws Exception {
    String bundle =
        "# first CA\n" + first.caPem() + "\nsome text between\n# second CA\n" + second.caPem();

    List<X509Certificate> trusted =
        List.of(TrustedCertificates.withBundle(bundle).trustManager().getAcceptedIssuers());

    assertThat(jvmDefaultRoots()).isNotEmpty();
    assertThat(trusted)
        .contains(first.caCertificate(), second.caCertificate())
        .containsAll(List.of(jvmDefaultRoots()))
        .hasSize(jvmDefaultRoots().length + 2);
  }

  @Test
  void aBundleReadsTheSameFromCrlfText() throws Exception {
    assertThat(TrustedCertificates.certificates(first.caPem().replace("\n", "\r\n")))
        .containsExactly(first.caCertificate());
  }

  @Test
  void blankBundlesAreSkippedAndLeaveTheJvmDefaults() {
    TrustedCertificates none = TrustedCertificates.withBundles(Arrays.asList(null, "", " \n"));

    assertThat(none.extra()).isEmpty();
    assertThat(none.fingerprint()).isEmpty();
    assertThat(TrustedCertificates.jvmDefaults().fingerprint()).isEmpty();
  }

  @Test
  void twoSetsAddUpAndTheFingerprintTellsThemApart() throws Exception {
    TrustedCertificates one = TrustedCertificates.withBundle(first.caPem());
    TrustedCertificates two = TrustedCertificates.withBundle(second.caPem());
    TrustedCertificates both = one.and(two);

    assertThat(both.extra()).containsExactly(first.caCertificate(), second.caCertificate());
    assertThat(List.of(both.trustManager().getAcceptedIssuers()))
        .contains(first.caCertificate(), second.caCertificate());
    assertThat(List.of(one.fingerprint(), two.fingerprint(), both.fingerprint()))
        .doesNotHaveDuplicates()
        .doesNotContain("");
    assertThat(TrustedCertificates.withBundle(first.caPem()).fingerprint())
        .isEqualTo(one.fingerprint());
    assertThat(one.and(TrustedCertificates.jvmDefaults())).isSameAs(one);
    assertThat(TrustedCertificates.jvmDefaults().and(one)).isSameAs(one);
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "not a certificate",
        "-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n",
        "-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n"
      })
  void aBundleWithoutAValidCertificateIsRefusedWithAReason(String pem) {
    assertThatThrownBy(() -> TrustedCertificates.withBundle(pem))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("CA bundle");
  }

  @Test
  void theSecondBrokenCertificateOfABundleIsNamed() throws Exception {
    String bundle =
        first.caPem() + "-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n";

    assertThatThrownBy(() -> TrustedCertificates.withBundle(bundle))
        .hasMessageStartingWith("certificate #2 of a CA bundle is not valid");
  }

  @Test
  void aClientOnTheContextTrustsAServerWhoseCaIsInTheBundleAndOnlyThen() throws Exception {
    try (FakeAssistedService server =
        new FakeAssistedService(first.serverContextFor127001()).answers(200, "text/plain", "ok")) {
      assertThat(get(server, TrustedCertificates.withBundle(first.caPem()).sslContext()))
          .isEqualTo("ok");
      assertThatThrownBy(() -> get(server, TrustedCertificates.jvmDefaults().sslContext()))
          .isInstanceOf(SSLHandshakeException.class);
      assertThatThrownBy(
              () -> get(server, TrustedCertificates.withBundle(second.caPem()).sslContext()))
          .isInstanceOf(SSLHandshakeException.class);
      // Registries marked insecure: any certificate.
      assertThat(get(server, TrustedCertificates.trustingAnyCertificate())).isEqualTo("ok");
      assertThat(server.requests()).hasSize(2);
    }
  }

  private static String get(FakeAssistedService server, SSLContext tls) throws Exception {
    return HttpClient.newBuilder()
        .sslContext(tls)
        .build()
        .send(
            HttpRequest.newBuilder(URI.create(server.root() + "/")).build(),
            HttpResponse.BodyHandlers.ofString())
        .body();
  }

  private static X509Certificate[] jvmDefaultRoots() throws Exception {
    TrustManagerFactory factory =
        TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
    factory.init((KeyStore) null);
    return ((X509TrustManager) factory.getTrustManagers()[0]).getAcceptedIssuers();
  }
}
