package io.openshiftagent.bootstrap.agent;

import static org.assertj.core.api.Assertions.assertThat;

import io.openshiftagent.api.external.assisted.Agent;
import io.openshiftagent.api.external.assisted.AgentStatus;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class InstallStageTest {
  /**
   * The stage as the real assisted-service reports it: no progress, {@code progress: {}} before the
   * installation (no stage), then the installer's stages.
   */
  @ParameterizedTest(name = "progress {0}, stage {1}: started {2}, boots from disk {3}")
  @CsvSource(
      nullValues = "null",
      value = {
        "false, null, false, false",
        "true, null, false, false",
        "true, Starting installation, true, false",
        "true, Writing image to disk, true, false",
        "true, Rebooting, true, true",
        "true, Joined, true, true",
        "true, Done, true, true",
        "true, Failed, true, true",
        "true, '', false, false",
      })
  void theInstallationStartsWithAStageAndOnlyStagesAfterTheDiskIsWrittenBootFromIt(
      boolean hasProgress, String stage, boolean started, boolean bootsFromDisk) {
    Agent agent = new Agent();
    agent.setStatus(new AgentStatus());
    if (hasProgress) {
      agent.getStatus().progress = new AgentStatus.Progress();
      agent.getStatus().progress.currentStage = stage;
    }
    assertThat(InstallStage.started(agent)).isEqualTo(started);
    assertThat(InstallStage.bootsFromDisk(agent)).isEqualTo(bootsFromDisk);
  }
}
