package io.openshiftagent.simulator;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class NamingTest {

  @Test
  void kubeletVersionFollowsTheOpenShiftMinor() {
    assertThat(InstalledCluster.kubeletVersion("4.20.0")).isEqualTo("v1.33.0");
    assertThat(InstalledCluster.kubeletVersion("4.19.3-okd-scos.1")).isEqualTo("v1.32.0");
  }
}
