package io.openshiftagent.simulator;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class NamingTest {

  @Test
  void providerIdIsCapm3s() {
    assertThat(Metal3.providerId("ns1", "host-0", "cp-abcde"))
        .isEqualTo("metal3://ns1/host-0/cp-abcde");
  }

  @Test
  void kubeletVersionFollowsTheOpenShiftMinor() {
    assertThat(InstalledCluster.kubeletVersion("4.20.0")).isEqualTo("v1.33.0");
    assertThat(InstalledCluster.kubeletVersion("4.19.3-okd-scos.1")).isEqualTo("v1.32.0");
  }
}
