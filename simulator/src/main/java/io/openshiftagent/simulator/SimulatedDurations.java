package io.openshiftagent.simulator;

import java.time.Duration;

/**
 * How long each simulated phase takes. The real ones take minutes to an hour; the defaults are near
 * zero so that a test measures our controllers and Cluster API, not the simulation.
 *
 * @param infrastructure Metal3 provisioning the cluster infrastructure (Metal3Cluster)
 * @param hostProvisioning the baremetal-operator writing or attaching the image and powering on
 * @param hostBoot a host booting the discovery image until its Agent registers
 * @param installationStep each step of an installation: each state of the AgentClusterInstall and
 *     each install stage of an Agent
 */
public record SimulatedDurations(
    Duration infrastructure,
    Duration hostProvisioning,
    Duration hostBoot,
    Duration installationStep) {

  /** Every simulated system reacts at once: what is measured is ours and Cluster API's. */
  public static SimulatedDurations zero() {
    return new SimulatedDurations(Duration.ZERO, Duration.ZERO, Duration.ZERO, Duration.ZERO);
  }

  public static SimulatedDurations nearZero() {
    Duration tick = Duration.ofMillis(20);
    return new SimulatedDurations(tick, tick, tick, tick);
  }
}
