package io.openshiftagent.bootstrap.agent;

import io.openshiftagent.api.external.assisted.Agent;
import java.util.Optional;
import java.util.Set;

/**
 * Where a host's installation is, by the stage assisted-service reports in the Agent's {@code
 * status.progress.currentStage}. The real service reports {@code progress: {}} (no stage) before
 * the installation.
 */
final class InstallStage {
  /**
   * The stages after which the host must boot from its disk (assisted-service's BMAC detaches
   * BareMetalHosts at the same stages).
   */
  static final Set<String> BOOTS_FROM_DISK = Set.of("Rebooting", "Joined", "Done", "Failed");

  private InstallStage() {}

  /** The stage the installation reached; empty before it starts. */
  static Optional<String> of(Agent agent) {
    return Optional.ofNullable(agent.getStatus())
        .map(s -> s.progress)
        .map(p -> p.currentStage)
        .filter(stage -> !stage.isEmpty());
  }

  static boolean started(Agent agent) {
    return of(agent).isPresent();
  }

  /** Whether the host has written its disk and boots from it. */
  static boolean bootsFromDisk(Agent agent) {
    return of(agent).filter(BOOTS_FROM_DISK::contains).isPresent();
  }
}
