package io.openshiftagent.bootstrap.agent;

import static org.assertj.core.api.Assertions.assertThat;

import io.openshiftagent.api.external.assisted.Agent;
import io.openshiftagent.api.external.assisted.AgentStatus;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class BootsFromDiskTest {
  /**
   * The stage as the real assisted-service reports it: no progress, {@code progress: {}} before the
   * installation (no stage), then the installer's stages.
   */
  @ParameterizedTest(name = "progress {0}, stage {1}: boots from disk {2}")
  @CsvSource(
      nullValues = "null",
      value = {
        "false, null, false",
        "true, null, false",
        "true, Starting installation, false",
        "true, Writing image to disk, false",
        "true, Rebooting, true",
        "true, Joined, true",
        "true, Done, true",
        "true, Failed, true",
      })
  void onlyStagesAfterTheDiskIsWrittenBootFromIt(
      boolean hasProgress, String stage, boolean expected) {
    Agent agent = new Agent();
    agent.setStatus(new AgentStatus());
    if (hasProgress) {
      agent.getStatus().progress = new AgentStatus.Progress();
      agent.getStatus().progress.currentStage = stage;
    }
    assertThat(AgentReconciler.bootsFromDisk(agent)).isEqualTo(expected);
  }
}
