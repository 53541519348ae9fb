package io.openshiftagent.provider.contract;

import static org.assertj.core.api.Assertions.assertThat;

import io.openshiftagent.api.external.assisted.AgentClusterInstall;
import io.openshiftagent.api.external.assisted.AgentClusterInstallStatus;
import io.openshiftagent.api.external.assisted.DebugInfo;
import org.junit.jupiter.api.Test;

/** What one provider names and the other finds: a change here breaks the pair. */
class SharedNamesTest {
  @Test
  void theClusterDeploymentAndItsInstallAreNamedAfterTheControlPlane() {
    assertThat(SharedNames.clusterDeployment("ocp1-cp")).isEqualTo("ocp1-cp");
    assertThat(SharedNames.agentClusterInstall("ocp1-cp")).isEqualTo("ocp1-cp");
  }

  @Test
  void eachOwnerHasItsOwnPlaceholderPullSecretOfAValidName() {
    assertThat(SharedNames.placeholderPullSecret("ocp1-w-0"))
        .isEqualTo("ocp1-w-0-placeholder-pull-secret");
    String longName = "x".repeat(ObjectNames.MAX_NAME);
    assertThat(SharedNames.placeholderPullSecret(longName)).hasSizeLessThanOrEqualTo(253);
    assertThat(SharedNames.placeholderPullSecret(longName))
        .isNotEqualTo(SharedNames.placeholderPullSecret(longName + "y"));
  }

  @Test
  void anUnreportedInstallerStateIsEmptyAndNotStarted() {
    AgentClusterInstall install = new AgentClusterInstall();
    assertThat(InstallerStates.of(install)).isEmpty();
    assertThat(InstallerStates.NOT_STARTED).contains(InstallerStates.of(install));
    install.setStatus(new AgentClusterInstallStatus());
    install.getStatus().debugInfo = new DebugInfo();
    install.getStatus().debugInfo.state = "installing";
    assertThat(InstallerStates.of(install)).isEqualTo("installing");
    assertThat(InstallerStates.NOT_STARTED).doesNotContain("installing");
    assertThat(InstallerStates.INSTALLED).doesNotContain("installing");
  }
}
