package io.openshiftagent.bootstrap.config;

import static io.openshiftagent.bootstrap.config.WorkerGate.Decision.CONTROL_PLANE;
import static io.openshiftagent.bootstrap.config.WorkerGate.Decision.DAY1;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class WorkerGateTest {
  @ParameterizedTest(name = "state ''{0}'': worker {1}, control plane {2}")
  @CsvSource({
    "'', DAY1, CONTROL_PLANE",
    "insufficient, DAY1, CONTROL_PLANE",
    "pending-for-input, DAY1, CONTROL_PLANE",
    "ready, DAY1, CONTROL_PLANE",
    "preparing-for-installation, WAIT, CONTROL_PLANE",
    "installing, WAIT, CONTROL_PLANE",
    "finalizing, WAIT, CONTROL_PLANE",
    "error, WAIT, CONTROL_PLANE",
    "adding-hosts, DAY2, CONTROL_PLANE",
    "installed, DAY2, CONTROL_PLANE",
  })
  void workersJoinBeforeOrAfterTheInstallationNeverDuringIt(
      String state, WorkerGate.Decision worker, WorkerGate.Decision controlPlane) {
    assertThat(WorkerGate.decide(false, state)).isEqualTo(worker);
    assertThat(WorkerGate.decide(true, state)).isEqualTo(controlPlane);
  }

  @org.junit.jupiter.api.Test
  void aMissingStateMeansTheInstallationHasNotStarted() {
    assertThat(WorkerGate.decide(false, null)).isEqualTo(DAY1);
    assertThat(WorkerGate.decide(true, null)).isEqualTo(CONTROL_PLANE);
  }
}
