package io.openshiftagent.assisted;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.openshiftagent.assisted.DiscoveryIgnitionClient.Settings;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class SettingsTest {

  static final String PEM = "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n";

  @Test
  void defaultsAreTenSecondsToConnectThirtyToReadSixtyPerCall() {
    Settings defaults = Settings.defaults();

    assertThat(defaults.connectTimeout()).isEqualTo(Duration.ofSeconds(10));
    assertThat(defaults.readTimeout()).isEqualTo(Duration.ofSeconds(30));
    assertThat(defaults.callTimeout()).isEqualTo(Duration.ofSeconds(60));
    assertThat(defaults.caBundlePem()).isNull();
    assertThat(defaults.serviceRootOverride()).isNull();
  }

  @Test
  void settingsBuiltFromTheSameInputsAreEqualSoACallerCanKeepItsClient() {
    Settings fromText = Settings.defaults().withCaBundle(PEM);
    Settings fromBytes = Settings.defaults().withCaBundle(PEM.getBytes(StandardCharsets.UTF_8));

    assertThat(fromText).isEqualTo(fromBytes).hasSameHashCodeAs(fromBytes);
    assertThat(fromText).isNotEqualTo(Settings.defaults().withCaBundle(PEM + "\n# rotated"));
    assertThat(Settings.defaults().withCaBundle("  ")).isEqualTo(Settings.defaults());
  }

  @Test
  void nonPositiveTimeoutsAreRefused() {
    assertThatThrownBy(
            () ->
                Settings.defaults()
                    .withTimeouts(Duration.ZERO, Duration.ofSeconds(1), Duration.ofSeconds(1)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("connectTimeout");
    assertThatThrownBy(
            () ->
                Settings.defaults()
                    .withTimeouts(
                        Duration.ofSeconds(1), Duration.ofSeconds(-1), Duration.ofSeconds(1)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("readTimeout");
  }

  @Test
  void toStringSummarisesTheBundleAndHidesAnyQueryOfTheOverride() {
    String text =
        Settings.defaults()
            .withCaBundle(PEM)
            .withServiceRootOverride(URI.create("http://svc:8090?api_key=secret"))
            .toString();

    assertThat(text)
        .contains(PEM.length() + " chars")
        .contains("http://svc:8090")
        .doesNotContain("MIIB")
        .doesNotContain("secret");
  }
}
