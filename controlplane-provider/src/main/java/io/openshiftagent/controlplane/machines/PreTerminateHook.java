package io.openshiftagent.controlplane.machines;

import static io.openshiftagent.controlplane.names.ControlPlaneConditions.MACHINE_DELETING;
import static io.openshiftagent.controlplane.names.ControlPlaneConditions.WAITING_FOR_PRE_TERMINATE_HOOK;

import io.openshiftagent.api.common.Conditions;
import io.openshiftagent.api.external.capi.Machine;
import io.openshiftagent.provider.reconcile.Metadata;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * Our pre-terminate hook on control-plane Machines. Cluster API deletes a Machine's host only once
 * every pre-terminate hook is gone; it reports, in the Machine's v1beta2 {@code Deleting}
 * condition, reason {@code WaitingForPreTerminateHook}, when it has drained the Node and waits for
 * the hooks (v1beta1's {@code PreTerminateDeleteHookSucceeded} condition is no longer set). We act
 * last, once the other hooks are gone, as KubeadmControlPlane does, and let the host go when etcd
 * can do without its member, whoever deleted the Machine.
 */
public final class PreTerminateHook {
  static final String PREFIX = "pre-terminate.delete.hook.machine.cluster.x-k8s.io";

  private PreTerminateHook() {}

  /**
   * The deleting Machine whose hook is ours to decide now: the first deleted of those that hold our
   * hook, once the Machine controller waits for the pre-terminate hooks and ours is the last.
   */
  public static Optional<Machine> due(List<Machine> machines) {
    return machines.stream()
        .filter(Metadata::isDeleting)
        .filter(m -> Metadata.hasAnnotation(m, PropagatedFields.PRE_TERMINATE_HOOK))
        .min(
            Comparator.comparing((Machine m) -> m.getMetadata().getDeletionTimestamp())
                .thenComparing(Metadata::name))
        .filter(PreTerminateHook::waitsForHooks)
        .filter(m -> !hasOtherHooks(m));
  }

  /** Whether the Machine controller waits for the pre-terminate hooks (v1beta2 condition). */
  static boolean waitsForHooks(Machine machine) {
    return machine.getStatus() != null
        && Conditions.find(machine.getStatus().conditions, MACHINE_DELETING)
            .map(
                c ->
                    Conditions.TRUE.equals(c.getStatus())
                        && WAITING_FOR_PRE_TERMINATE_HOOK.equals(c.getReason()))
            .orElse(false);
  }

  private static boolean hasOtherHooks(Machine machine) {
    return machine.getMetadata().getAnnotations().keySet().stream()
        .anyMatch(k -> k.startsWith(PREFIX) && !k.equals(PropagatedFields.PRE_TERMINATE_HOOK));
  }

  /** The name of the Machine's Node, which is also its etcd member's; empty without a Node. */
  public static Optional<String> member(Machine machine) {
    return MachineStatus.hasNode(machine)
        ? Optional.of(machine.getStatus().nodeRef.name)
        : Optional.empty();
  }
}
