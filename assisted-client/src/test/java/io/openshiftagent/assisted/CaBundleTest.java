package io.openshiftagent.assisted;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.openshiftagent.assisted.AssistedServiceException.Reason;
import io.openshiftagent.assisted.DiscoveryIgnitionClient.Settings;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The CA bundle of the settings (how it is read: TrustedCertificatesTest, module tls). */
class CaBundleTest {

  @ParameterizedTest
  @ValueSource(
      strings = {
        "not a certificate",
        "garbage",
        "-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n",
        "-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n"
      })
  void aBundleWithoutAValidCertificateIsAnInvalidCaBundleThatIsNotRetryable(String pem) {
    AssistedServiceException failure =
        catchThrowableOfType(
            AssistedServiceException.class,
            () -> DiscoveryIgnitionClient.create(Settings.defaults().withCaBundle(pem)));

    assertThat(failure.reason()).isEqualTo(Reason.INVALID_CA_BUNDLE);
    assertThat(failure.conditionReason()).isEqualTo("InvalidCABundle");
    assertThat(failure.retryable()).isFalse();
    assertThat(failure.getMessage()).contains("CA bundle");
  }
}
