package io.openshiftagent.assisted;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.openshiftagent.assisted.AssistedServiceException.Reason;
import io.openshiftagent.testsupport.TestPki;
import java.security.KeyStore;
import java.security.cert.X509Certificate;
import java.util.List;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509TrustManager;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class TrustBundleTest {

  @Test
  void trustsTheJvmDefaultRootsAndEveryCertificateOfABundleWithComments() throws Exception {
    TestPki first = TestPki.newCertificateAuthority("first CA");
    TestPki second = TestPki.newCertificateAuthority("second CA");
    String bundle =
        "# first CA\n" + first.caPem() + "\nsome text between\n# second CA\n" + second.caPem();

    List<X509Certificate> trusted =
        List.of(TrustBundle.withDefaultRootsAnd(bundle).trustManager.getAcceptedIssuers());

    assertThat(trusted)
        .contains(first.caCertificate(), second.caCertificate())
        .containsAll(List.of(jvmDefaultRoots()))
        .hasSize(jvmDefaultRoots().length + 2);
    assertThat(jvmDefaultRoots()).isNotEmpty();
  }

  @Test
  void aBundleReadsTheSameFromCrlfText() throws Exception {
    TestPki ca = TestPki.newCertificateAuthority("windows CA");

    assertThat(TrustBundle.parseCertificates(ca.caPem().replace("\n", "\r\n")))
        .containsExactly(ca.caCertificate());
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "not a certificate",
        "-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n",
        "-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n"
      })
  void aBundleWithoutAValidCertificateIsAnInvalidCaBundleThatIsNotRetryable(String pem) {
    AssistedServiceException failure =
        catchThrowableOfType(
            AssistedServiceException.class, () -> TrustBundle.withDefaultRootsAnd(pem));

    assertThat(failure.reason()).isEqualTo(Reason.INVALID_CA_BUNDLE);
    assertThat(failure.conditionReason()).isEqualTo("InvalidCABundle");
    assertThat(failure.retryable()).isFalse();
  }

  @Test
  void creatingAClientWithAnInvalidBundleFailsWithInvalidCaBundle() {
    AssistedServiceException failure =
        catchThrowableOfType(
            AssistedServiceException.class,
            () ->
                DiscoveryIgnitionClient.create(
                    DiscoveryIgnitionClient.Settings.defaults().withCaBundle("garbage")));

    assertThat(failure.reason()).isEqualTo(Reason.INVALID_CA_BUNDLE);
  }

  private static X509Certificate[] jvmDefaultRoots() throws Exception {
    TrustManagerFactory factory =
        TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
    factory.init((KeyStore) null);
    return ((X509TrustManager) factory.getTrustManagers()[0]).getAcceptedIssuers();
  }
}
