package io.openshiftagent.simulator.benchmark.scale;

import java.time.Duration;

/**
 * How long the stand-ins take for each step they play. {@link #fast()} takes none: what is measured
 * is our providers and the hub. {@link #real()} takes about what the real systems take on real
 * hardware for a single-node cluster (a BareMetalHost's inspection by Ironic, a live ISO's boot, an
 * installation of about 45 minutes), for runs that look at a fleet installing at the real pace.
 *
 * @param registration a new BareMetalHost from registering to inspecting (its BMC checked)
 * @param inspection its inspection, to available
 * @param imageCreation assisted-service making an InfraEnv's discovery image
 * @param provisioning a host from provisioning (the live ISO attached) to provisioned
 * @param boot a provisioned host booting the ISO until its agent registers
 * @param discovery a registered host until its validations pass (known)
 * @param preparation a cluster from ready to installing
 * @param installStage each install stage of the host, up to rebooting
 * @param reboot the host rebooting from its disk until its Node registers
 * @param finalization the installation from finalizing to installed
 */
record Pace(
    Duration registration,
    Duration inspection,
    Duration imageCreation,
    Duration provisioning,
    Duration boot,
    Duration discovery,
    Duration preparation,
    Duration installStage,
    Duration reboot,
    Duration finalization) {

  static Pace fast() {
    Duration zero = Duration.ZERO;
    return new Pace(zero, zero, zero, zero, zero, zero, zero, zero, zero, zero);
  }

  static Pace real() {
    return new Pace(
        Duration.ofSeconds(10),
        Duration.ofMinutes(4),
        Duration.ofSeconds(20),
        Duration.ofMinutes(1),
        Duration.ofMinutes(4),
        Duration.ofMinutes(1),
        Duration.ofMinutes(2),
        Duration.ofMinutes(5),
        Duration.ofMinutes(6),
        Duration.ofMinutes(10));
  }

  static Pace named(String name) {
    return switch (name) {
      case "fast" -> fast();
      case "real" -> real();
      default -> throw new IllegalArgumentException("--pace must be fast or real, not " + name);
    };
  }
}
