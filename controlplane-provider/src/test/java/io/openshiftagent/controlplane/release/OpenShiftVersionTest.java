package io.openshiftagent.controlplane.release;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class OpenShiftVersionTest {
  @Test
  void ordersReleasesAfterTheirPreReleasesAndNumerically() {
    assertThat(v("4.20.0-ec.1")).isLessThan(v("4.20.0-ec.2"));
    assertThat(v("4.20.0-ec.2")).isLessThan(v("4.20.0-rc.0"));
    assertThat(v("4.20.0-rc.0")).isLessThan(v("4.20.0"));
    assertThat(v("4.19.10")).isGreaterThan(v("4.19.9"));
    assertThat(v("4.20.0")).isGreaterThan(v("4.19.30"));
    assertThat(v("4.20.1").compareTo(v("4.20.1"))).isZero();
    // Pre-release numbers beyond 64 bits, which semver (and so the CRD) allows.
    assertThat(v("4.20.0-ec.18446744073709551615")).isGreaterThan(v("4.20.0-ec.9"));
    assertThat(v("4.20.0-ec.18446744073709551615")).isLessThan(v("4.20.0-ec.18446744073709551616"));
  }

  @Test
  void recognisesOkdAndGenerallyAvailableReleases() {
    assertThat(v("4.19.0-okd-scos.1").isOkd()).isTrue();
    assertThat(v("4.19.0-okd-scos.1").isGenerallyAvailable()).isTrue();
    assertThat(v("4.19.0-okd-scos.ec.6").isGenerallyAvailable()).isFalse();
    assertThat(v("4.20.0").isOkd()).isFalse();
    assertThat(v("4.20.0").isGenerallyAvailable()).isTrue();
    assertThat(v("4.20.0-rc.1").isGenerallyAvailable()).isFalse();
  }

  @Test
  void openShiftFourNRunsKubernetesOneNPlusThirteen() {
    assertThat(v("4.14.0").kubernetesMinorVersion()).isEqualTo("v1.27");
    assertThat(v("4.20.3").kubernetesMinorVersion()).isEqualTo("v1.33");
    assertThat(v("4.2147483647.0").kubernetesMinorVersion()).isEqualTo("v1.2147483660");
  }

  @Test
  void rejectsWhatIsNotAVersion() {
    assertThatThrownBy(() -> OpenShiftVersion.parse("latest"))
        .isInstanceOf(IllegalArgumentException.class);
  }

  private static OpenShiftVersion v(String s) {
    return OpenShiftVersion.parse(s);
  }
}
