package io.openshiftagent.controlplane.machines;

import static io.openshiftagent.controlplane.names.ControlPlaneConditions.ROLLING_OUT;
import static io.openshiftagent.controlplane.names.ControlPlaneConditions.WAITING_FOR_INSTALLATION;
import static io.openshiftagent.controlplane.names.ControlPlaneConditions.WAITING_FOR_MACHINES_READY;
import static io.openshiftagent.controlplane.names.ControlPlaneConditions.WAITING_FOR_MACHINE_DELETION;
import static io.openshiftagent.controlplane.names.ControlPlaneConditions.WAITING_FOR_UPGRADE;

import io.openshiftagent.api.controlplane.v1alpha3.RolloutSpec;
import io.openshiftagent.api.external.ExternalKinds;
import io.openshiftagent.api.external.capi.Machine;
import io.openshiftagent.controlplane.names.ConditionUpdate;
import io.openshiftagent.provider.reconcile.Metadata;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * The RollingUpdate strategy, KubeadmControlPlane's: while Machines do not match the spec, keep
 * {@code replicas + maxSurge} Machines, adding an up-to-date one when there are fewer and deleting
 * an out-of-date one when there are as many, one step at a time and only while every other Machine
 * is Ready. With OnDelete (the default) nothing is decided here: the user deletes each out-of-date
 * Machine and the scaling makes its replacement. Before the installation nothing is rolled out (a
 * Machine whose host never booted is replaced by {@link NeverBooted}), and the scaling makes a
 * missing Machine. The etcd check comes when a deletion is applied.
 */
public final class Rollout {
  private Rollout() {}

  /**
   * @param notUpToDate why each out-of-date Machine is, by name
   * @param installed whether the cluster is installed
   * @param upgrading why an upgrade is in progress, empty when none is
   */
  public record Inputs(
      int desired,
      RolloutSpec rollout,
      List<Machine> machines,
      List<String> deleting,
      Map<String, String> notUpToDate,
      boolean installed,
      Optional<String> upgrading) {}

  /**
   * The step of a rolling update, as a scaling decision whose condition is RollingOut; empty when
   * no rolling update is due (OnDelete, or every Machine matches the spec).
   */
  public static Optional<MachineScaling.Decision> decide(Inputs in) {
    if (in.rollout() == null
        || in.rollout().effectiveType() != RolloutSpec.StrategyType.RollingUpdate
        || in.notUpToDate().isEmpty()) {
      return Optional.empty();
    }
    int maxSurge = in.rollout().strategy.effectiveMaxSurge();
    String what =
        "rolling out "
            + in.notUpToDate().size()
            + " out-of-date Machines "
            + in.notUpToDate().keySet()
            + " (RollingUpdate, maxSurge "
            + maxSurge
            + ")";
    if (!in.installed()) {
      if (in.machines().size() != in.desired()) {
        // The scaling makes a missing Machine (one replaced because its host never booted, one a
        // user deleted) as with OnDelete: the installation waits for every host.
        return Optional.empty();
      }
      return wait(
          WAITING_FOR_INSTALLATION,
          what
              + ": waiting for the cluster to be installed (the installer owns the hosts until then)");
    }
    if (in.upgrading().isPresent()) {
      return wait(
          WAITING_FOR_UPGRADE,
          what + ": waiting for the upgrade in progress (" + in.upgrading().get() + ")");
    }
    if (!in.deleting().isEmpty()) {
      return wait(
          WAITING_FOR_MACHINE_DELETION, what + ": waiting for " + in.deleting() + " to be deleted");
    }
    if (in.machines().size() < in.desired() + maxSurge) {
      List<String> notReady = MachineStatus.notReady(in.machines());
      if (!notReady.isEmpty()) {
        return wait(
            WAITING_FOR_MACHINES_READY,
            what + ": waiting for " + notReady + " to be Ready before adding the next Machine");
      }
      return Optional.of(
          new MachineScaling.Create(
              1,
              ConditionUpdate.isTrue(
                  ROLLING_OUT,
                  ROLLING_OUT,
                  what + ": adding a Machine made from the current spec")));
    }
    Machine victim = victim(in);
    List<String> othersNotReady =
        MachineStatus.notReady(in.machines()).stream()
            .filter(n -> !n.equals(Metadata.name(victim)))
            .toList();
    if (!othersNotReady.isEmpty()) {
      return wait(
          WAITING_FOR_MACHINES_READY,
          what
              + ": waiting for "
              + othersNotReady
              + " to be Ready before deleting "
              + Metadata.name(victim));
    }
    return Optional.of(
        new MachineScaling.Delete(
            victim,
            ConditionUpdate.isTrue(
                ROLLING_OUT,
                ROLLING_OUT,
                what
                    + ": deleting "
                    + Metadata.name(victim)
                    + " ("
                    + in.notUpToDate().get(Metadata.name(victim))
                    + ")")));
  }

  /**
   * KubeadmControlPlane's choice: an out-of-date Machine marked for deletion, else any marked one,
   * else an out-of-date one that is not Ready, else an out-of-date one; among them the oldest in
   * the most crowded failure domain.
   */
  private static Machine victim(Inputs in) {
    List<Machine> outdated =
        in.machines().stream().filter(m -> in.notUpToDate().containsKey(Metadata.name(m))).toList();
    List<String> notReady = MachineStatus.notReady(in.machines());
    List<Machine> pool =
        Stream.of(
                marked(outdated),
                marked(in.machines()),
                outdated.stream().filter(m -> notReady.contains(Metadata.name(m))).toList(),
                outdated)
            .filter(candidates -> !candidates.isEmpty())
            .findFirst()
            .orElseThrow();
    return MachineSelection.machineToDelete(pool, m -> true).orElseThrow();
  }

  private static List<Machine> marked(List<Machine> machines) {
    return machines.stream()
        .filter(m -> Metadata.hasAnnotation(m, ExternalKinds.DELETE_MACHINE_ANNOTATION))
        .toList();
  }

  /**
   * Whether {@code spec.rollout.after} makes a Machine out of date: the time has passed and the
   * Machine was created before it. Returns the reason, or empty.
   */
  public static Optional<String> rolloutAfter(RolloutSpec rollout, Machine machine, Instant now) {
    if (rollout == null
        || rollout.after == null
        || machine.getMetadata().getCreationTimestamp() == null) {
      return Optional.empty();
    }
    Instant after = time(rollout.after);
    Instant created = Instant.parse(machine.getMetadata().getCreationTimestamp());
    return !now.isBefore(after) && created.isBefore(after)
        ? Optional.of("it was created before spec.rollout.after (" + rollout.after + ")")
        : Optional.empty();
  }

  /** When {@code spec.rollout.after} is still to come: the time to look again (no watch tells). */
  public static Optional<Instant> pendingAfter(RolloutSpec rollout, Instant now) {
    if (rollout == null || rollout.after == null) {
      return Optional.empty();
    }
    Instant after = time(rollout.after);
    return after.isAfter(now) ? Optional.of(after) : Optional.empty();
  }

  /** An RFC 3339 time, with or without an offset. */
  private static Instant time(String rfc3339) {
    return java.time.OffsetDateTime.parse(rfc3339).toInstant();
  }

  private static Optional<MachineScaling.Decision> wait(String reason, String message) {
    return Optional.of(
        new MachineScaling.Wait(ConditionUpdate.isTrue(ROLLING_OUT, reason, message)));
  }
}
