package io.openshiftagent.simulator;

import java.time.Duration;

/**
 * How long each simulated phase takes. The real ones take minutes to an hour; the defaults are near
 * zero so that a test measures our controllers, Cluster API and Metal3, not the simulation. (The
 * infrastructure and the hosts' provisioning take what the real CAPM3 and baremetal-operator take.)
 *
 * @param hostBoot a host booting what it was provisioned with until its discovery agent registers
 * @param installationStep each step of an installation: each state of the AgentClusterInstall and
 *     each install stage of an Agent
 */
public record SimulatedDurations(Duration hostBoot, Duration installationStep) {

  /** Every simulated system reacts at once: what is measured is the real systems'. */
  public static SimulatedDurations zero() {
    return new SimulatedDurations(Duration.ZERO, Duration.ZERO);
  }

  public static SimulatedDurations nearZero() {
    Duration tick = Duration.ofMillis(20);
    return new SimulatedDurations(tick, tick);
  }
}
