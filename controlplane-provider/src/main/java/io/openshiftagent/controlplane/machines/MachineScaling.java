package io.openshiftagent.controlplane.machines;

import static io.openshiftagent.controlplane.names.ControlPlaneConditions.NOT_SCALING_DOWN;
import static io.openshiftagent.controlplane.names.ControlPlaneConditions.NOT_SCALING_UP;
import static io.openshiftagent.controlplane.names.ControlPlaneConditions.SCALING_DOWN;
import static io.openshiftagent.controlplane.names.ControlPlaneConditions.SCALING_UP;
import static io.openshiftagent.controlplane.names.ControlPlaneConditions.TOPOLOGY_CHANGE_NOT_SUPPORTED;
import static io.openshiftagent.controlplane.names.ControlPlaneConditions.WAITING_FOR_MACHINES_READY;
import static io.openshiftagent.controlplane.names.ControlPlaneConditions.WAITING_FOR_MACHINE_DELETION;

import io.openshiftagent.api.external.capi.Machine;
import io.openshiftagent.controlplane.names.ConditionUpdate;
import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * How many control-plane Machines to add or which to remove, one decision per reconcile: {@link
 * Create} n, {@link Delete} one, or {@link Wait} with the reason. Before the installation every
 * missing Machine is made at once (assisted-service installs all hosts together); after it, one at
 * a time, each only once the others are Ready. OpenShift cannot change an installed cluster's
 * topology between a single node and a highly available control plane.
 */
public final class MachineScaling {
  public static final int MIN_HIGHLY_AVAILABLE = 3;

  private MachineScaling() {}

  /** What to do; {@link #condition()} is what ScalingUp or ScalingDown then reports. */
  public sealed interface Decision {
    Optional<ConditionUpdate> condition();
  }

  /** As many Machines as desired: nothing to do. */
  public record Steady() implements Decision {
    @Override
    public Optional<ConditionUpdate> condition() {
      return Optional.empty();
    }
  }

  /** Create {@code count} Machines. */
  public record Create(int count, ConditionUpdate scalingUp) implements Decision {
    @Override
    public Optional<ConditionUpdate> condition() {
      return Optional.of(scalingUp);
    }
  }

  /** Delete {@code machine}. */
  public record Delete(Machine machine, ConditionUpdate scalingDown) implements Decision {
    @Override
    public Optional<ConditionUpdate> condition() {
      return Optional.of(scalingDown);
    }
  }

  /**
   * Delete {@code machine}, whose host never booted, so that the scaling replaces it from the
   * current spec ({@link NeverBooted}); {@code why} is for its Event.
   */
  public record Replace(Machine machine, String why, ConditionUpdate rollingOut)
      implements Decision {
    @Override
    public Optional<ConditionUpdate> condition() {
      return Optional.of(rollingOut);
    }
  }

  /** Scaling cannot go on now, for the reason the condition gives. */
  public record Wait(ConditionUpdate blocked) implements Decision {
    @Override
    public Optional<ConditionUpdate> condition() {
      return Optional.of(blocked);
    }
  }

  /** ScalingUp and ScalingDown when neither happens: how many Machines exist. */
  public static List<ConditionUpdate> steady(int current, int desired) {
    String steady = current + " of " + desired + " Machines exist";
    return List.of(
        ConditionUpdate.isFalse(SCALING_UP, NOT_SCALING_UP, steady),
        ConditionUpdate.isFalse(SCALING_DOWN, NOT_SCALING_DOWN, steady));
  }

  /**
   * @param machines the control plane's Machines
   * @param deleting the names of those being deleted
   * @param installationStarted whether assisted-service has begun installing the cluster
   * @param upToDate whether a Machine matches the spec (outdated ones go first)
   */
  public static Decision decide(
      int desired,
      List<Machine> machines,
      List<String> deleting,
      boolean installationStarted,
      Predicate<Machine> upToDate) {
    int current = machines.size();
    if (current < desired) {
      return scaleUp(current, desired, machines, deleting, installationStarted);
    }
    if (current > desired) {
      return scaleDown(current, desired, machines, deleting, installationStarted, upToDate);
    }
    return new Steady();
  }

  private static Decision scaleUp(
      int current,
      int desired,
      List<Machine> machines,
      List<String> deleting,
      boolean installationStarted) {
    String what = "scaling up from " + current + " to " + desired + " Machines";
    // A single node only: a highly available control plane below 3 (a host remediated or
    // deleted) gets its replacement.
    if (installationStarted && current == 1 && desired >= MIN_HIGHLY_AVAILABLE) {
      return new Wait(
          ConditionUpdate.isTrue(
              SCALING_UP,
              TOPOLOGY_CHANGE_NOT_SUPPORTED,
              what
                  + " is not possible: OpenShift cannot turn an installed single-node cluster into"
                  + " a highly available one; set spec.replicas back to "
                  + current));
    }
    if (!deleting.isEmpty()) {
      return new Wait(
          ConditionUpdate.isTrue(
              SCALING_UP,
              WAITING_FOR_MACHINE_DELETION,
              what + ": waiting for " + deleting + " to be deleted"));
    }
    List<String> notReady = MachineStatus.notReady(machines);
    // Before the installation every host must be present at once; after it, one node joins at a
    // time.
    if (installationStarted && !notReady.isEmpty()) {
      return new Wait(
          ConditionUpdate.isTrue(
              SCALING_UP,
              WAITING_FOR_MACHINES_READY,
              what + ": waiting for " + notReady + " to be Ready before adding the next Machine"));
    }
    return new Create(
        installationStarted ? 1 : desired - current,
        ConditionUpdate.isTrue(SCALING_UP, SCALING_UP, what));
  }

  private static Decision scaleDown(
      int current,
      int desired,
      List<Machine> machines,
      List<String> deleting,
      boolean installationStarted,
      Predicate<Machine> upToDate) {
    String what = "scaling down from " + current + " to " + desired + " Machines";
    // OpenShift cannot turn an installed highly available control plane into a single node.
    boolean belowFloor =
        installationStarted && desired < MIN_HIGHLY_AVAILABLE && current >= MIN_HIGHLY_AVAILABLE;
    if (belowFloor && current == MIN_HIGHLY_AVAILABLE) {
      return new Wait(
          ConditionUpdate.isTrue(
              SCALING_DOWN,
              TOPOLOGY_CHANGE_NOT_SUPPORTED,
              what
                  + " is not possible: an installed highly available control plane needs at least "
                  + MIN_HIGHLY_AVAILABLE
                  + " Machines; set spec.replicas to 3 or more"));
    }
    if (!deleting.isEmpty()) {
      return new Wait(
          ConditionUpdate.isTrue(
              SCALING_DOWN,
              WAITING_FOR_MACHINE_DELETION,
              what + ": waiting for " + deleting + " to be deleted"));
    }
    return MachineSelection.machineToDelete(machines, upToDate)
        .<Decision>map(
            m ->
                new Delete(
                    m,
                    ConditionUpdate.isTrue(
                        SCALING_DOWN,
                        SCALING_DOWN,
                        what + ": deleting Machine " + m.getMetadata().getName())))
        .orElse(new Steady());
  }
}
