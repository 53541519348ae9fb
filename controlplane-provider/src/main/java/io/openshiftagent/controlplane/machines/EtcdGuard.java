package io.openshiftagent.controlplane.machines;

import static io.openshiftagent.controlplane.names.ControlPlaneConditions.ETCD_CLUSTER_HEALTHY;
import static io.openshiftagent.controlplane.names.ControlPlaneConditions.HEALTH_UNKNOWN;

import io.openshiftagent.api.common.Conditions;
import io.openshiftagent.api.external.capi.Machine;
import io.openshiftagent.controlplane.etcd.EtcdMembers;
import io.openshiftagent.controlplane.etcd.EtcdReads;
import io.openshiftagent.controlplane.etcd.EtcdReport;
import io.openshiftagent.controlplane.etcd.EtcdSafety;
import io.openshiftagent.controlplane.names.ConditionUpdate;
import io.openshiftagent.controlplane.scope.ControlPlaneScope;
import io.openshiftagent.provider.reconcile.EventRecorder;
import io.openshiftagent.provider.reconcile.Metadata;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Etcd in one reconcile of an installed, highly available control plane: reads what the etcd
 * operator reports (once, when a step asks; reported as EtcdClusterHealthy), answers whether a host
 * may go ({@link EtcdSafety#whyNotRemovable}), removes the members of departed hosts and turns the
 * quorum guard off and on ({@link EtcdMembers}). Inactive (nothing read, every host may go) before
 * the installation and for a single node: the installer, not etcd's operator, owns the hosts then,
 * and a single node has no quorum to keep.
 */
final class EtcdGuard {
  private static final Logger LOG = LoggerFactory.getLogger(EtcdGuard.class);
  private static final String REMOVAL_FAILED = "EtcdMemberRemovalFailed";

  private final ControlPlaneScope scope;
  private final EventRecorder events;
  private final WarningsOnChange warnings;
  private final boolean active;
  private Optional<EtcdReport> report;
  private ConditionUpdate health;
  private String unreadable;

  EtcdGuard(
      ControlPlaneScope scope, EventRecorder events, WarningsOnChange warnings, boolean active) {
    this.scope = scope;
    this.events = events;
    this.warnings = warnings;
    this.active = active;
  }

  boolean active() {
    return active;
  }

  /** The report, read on first use; empty when the installed cluster cannot tell. */
  Optional<EtcdReport> report() {
    if (report == null) {
      try {
        report = Optional.of(EtcdReads.report(scope.installed().etcd()));
        health = EtcdSafety.health(report.get());
      } catch (RuntimeException e) {
        unreadable = e.getMessage();
        report = Optional.empty();
        health =
            new ConditionUpdate(
                ETCD_CLUSTER_HEALTHY,
                Conditions.UNKNOWN,
                HEALTH_UNKNOWN,
                "cannot read etcd's state from the installed cluster: " + unreadable);
      }
    }
    return report;
  }

  /** The EtcdClusterHealthy condition, if this reconcile read etcd's state. */
  Optional<ConditionUpdate> health() {
    return Optional.ofNullable(health);
  }

  /** Why the Machine's host may not go now, or empty when it may. */
  Optional<String> whyNotRemovable(Machine machine) {
    if (!active) {
      return Optional.empty();
    }
    Optional<String> member = PreTerminateHook.member(machine);
    if (member.isEmpty()) {
      return Optional.empty();
    }
    return report()
        .map(r -> EtcdSafety.whyNotRemovable(r, member))
        .orElseGet(
            () ->
                Optional.of(
                    "cannot check etcd before removing " + member.get() + ": " + unreadable));
  }

  /**
   * Removes the members whose hosts are gone, then turns the quorum guard off or back on as the
   * member count asks. Returns the departed members left (their removal failed).
   */
  List<String> cleanUp(List<Machine> machines, int desiredReplicas) {
    if (!active || report().isEmpty()) {
      return List.of();
    }
    Set<String> held =
        machines.stream()
            .filter(m -> !Metadata.isDeleting(m))
            .map(PreTerminateHook::member)
            .flatMap(Optional::stream)
            .collect(Collectors.toSet());
    List<String> departed;
    try {
      departed = EtcdSafety.departed(report().get(), scope.installed().nodeNames(), held);
    } catch (RuntimeException e) {
      LOG.info("cannot list the Nodes of {}: {}", Metadata.name(scope.cp()), e.getMessage());
      return List.of();
    }
    EtcdMembers members = new EtcdMembers(scope.installed().client());
    List<String> left = departed.stream().filter(member -> !remove(members, member)).toList();
    if (left.size() < departed.size()) {
      return left; // the report changed; the quorum guard is decided at the next look
    }
    EtcdSafety.QuorumGuard step =
        EtcdSafety.quorumGuard(report().get(), desiredReplicas, signature());
    if (step != EtcdSafety.QuorumGuard.LEAVE) {
      try {
        members.quorumGuard(step, signature());
        events.normal(
            scope.cp(),
            step == EtcdSafety.QuorumGuard.TURN_OFF ? "EtcdQuorumGuardOff" : "EtcdQuorumGuardOn",
            "EtcdMemberReplacement",
            step == EtcdSafety.QuorumGuard.TURN_OFF
                ? "Turned the etcd quorum guard off: etcd has fewer than 3 members, and OpenShift"
                    + " adds the replacement member only without the guard"
                : "Turned the etcd quorum guard back on: etcd has 3 healthy members again");
      } catch (RuntimeException e) {
        LOG.info("cannot change the etcd quorum guard: {}", e.getMessage());
      }
    }
    return left;
  }

  private boolean remove(EtcdMembers members, String member) {
    try {
      Optional<String> id = members.remove(member);
      warnings.clear(REMOVAL_FAILED);
      events.normal(
          scope.cp(),
          "EtcdMemberRemoved",
          "EtcdMemberReplacement",
          id.map(hex -> "Removed etcd member " + member + " (ID " + hex + ")")
                  .orElse("Etcd member already gone; removed the Secrets of " + member)
              + ", whose Node is gone, so that a new host can join");
      return true;
    } catch (RuntimeException e) {
      LOG.warn("cannot remove the etcd member of departed Node {}: {}", member, e.getMessage());
      warnings.warn(
          REMOVAL_FAILED,
          "EtcdMemberReplacement",
          "Cannot remove etcd member " + member + " yet: " + e.getMessage());
      return false;
    }
  }

  /** How we sign the quorum guard annotation: the control plane's namespace/name. */
  private String signature() {
    return Metadata.key(scope.cp());
  }
}
