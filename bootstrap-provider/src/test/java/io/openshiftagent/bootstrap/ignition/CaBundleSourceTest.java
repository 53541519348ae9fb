package io.openshiftagent.bootstrap.ignition;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The CA bundle location is read from the Go provider's environment variables, with its defaults.
 */
class CaBundleSourceTest {

  @Test
  void noVariablesMeanTheGoProvidersDefaultLocationWhichMayBeMissing() {
    assertThat(CaBundleSource.fromEnvironment(Map.of()))
        .contains(
            new CaBundleSource(
                false, "assisted-installer", "assisted-installer-ca", "ca.crt", true));
  }

  @Test
  void bothEmptyMeansNoBundle() {
    assertThat(
            CaBundleSource.fromEnvironment(
                Map.of("ASSISTED_CA_BUNDLE_NAMESPACE", "", "ASSISTED_CA_BUNDLE_NAME", "")))
        .isEmpty();
  }

  @Test
  void secretIsTheDefaultResourceAndCaCrtTheDefaultKey() {
    assertThat(
            CaBundleSource.fromEnvironment(
                Map.of("ASSISTED_CA_BUNDLE_NAMESPACE", "mce", "ASSISTED_CA_BUNDLE_NAME", "ca")))
        .contains(new CaBundleSource(false, "mce", "ca", "ca.crt", false));
  }

  @Test
  void aVariableLeftOutTakesTheGoProvidersDefaultAndTheLocationMustExist() {
    assertThat(CaBundleSource.fromEnvironment(Map.of("ASSISTED_CA_BUNDLE_NAME", "ca")))
        .contains(new CaBundleSource(false, "assisted-installer", "ca", "ca.crt", false));
  }

  @Test
  void aConfigMapWithItsOwnKeyCanBeChosen() {
    assertThat(
            CaBundleSource.fromEnvironment(
                Map.of(
                    "ASSISTED_CA_BUNDLE_NAMESPACE", "openshift-config",
                    "ASSISTED_CA_BUNDLE_NAME", "service-ca",
                    "ASSISTED_CA_BUNDLE_RESOURCE", "ConfigMap",
                    "ASSISTED_CA_BUNDLE_KEY", "service-ca.crt")))
        .contains(
            new CaBundleSource(true, "openshift-config", "service-ca", "service-ca.crt", false));
  }

  @Test
  void halfAConfigurationOrAnUnknownResourceIsRejected() {
    assertThatThrownBy(
            () ->
                CaBundleSource.fromEnvironment(
                    Map.of("ASSISTED_CA_BUNDLE_NAMESPACE", "", "ASSISTED_CA_BUNDLE_NAME", "ca")))
        .hasMessageContaining("set both ASSISTED_CA_BUNDLE_NAMESPACE and ASSISTED_CA_BUNDLE_NAME");
    assertThatThrownBy(
            () ->
                CaBundleSource.fromEnvironment(
                    Map.of(
                        "ASSISTED_CA_BUNDLE_NAMESPACE", "a",
                        "ASSISTED_CA_BUNDLE_NAME", "b",
                        "ASSISTED_CA_BUNDLE_RESOURCE", "vault")))
        .hasMessageContaining("must be secret or configmap");
  }
}
