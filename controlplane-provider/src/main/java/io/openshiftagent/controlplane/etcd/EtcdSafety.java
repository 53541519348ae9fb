package io.openshiftagent.controlplane.etcd;

import static io.openshiftagent.controlplane.names.ControlPlaneConditions.ETCD_CLUSTER_HEALTHY;
import static io.openshiftagent.controlplane.names.ControlPlaneConditions.HEALTHY;
import static io.openshiftagent.controlplane.names.ControlPlaneConditions.NOT_HEALTHY;

import io.openshiftagent.controlplane.names.ConditionUpdate;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The etcd decisions, pure functions of an {@link EtcdReport}: whether a control-plane host may go
 * (KubeadmControlPlane's quorum projection, on what OpenShift's etcd operator reports), which
 * members outlived their Nodes and must be removed, and when to turn OpenShift's etcd quorum guard
 * off and on again during a replacement (its documented member replacement procedure).
 */
public final class EtcdSafety {
  /** OpenShift's etcd operator grows etcd only with this many healthy members (HA strategy). */
  public static final int HIGHLY_AVAILABLE_MEMBERS = 3;

  private EtcdSafety() {}

  /**
   * Why the host of etcd member {@code member} may not go now, or empty when etcd keeps its quorum
   * without it. The member counts until it is removed, after its Node is gone; so the members that
   * stay healthy must still be a majority of all members.
   *
   * @param member the Node name of the host (members are named after Nodes), empty when the host
   *     has no Node and so no member
   */
  public static Optional<String> whyNotRemovable(EtcdReport report, Optional<String> member) {
    if (member.isEmpty()) {
      return Optional.empty();
    }
    String name = member.get();
    if (!report.problems().isEmpty()) {
      return Optional.of(
          "etcd's state does not allow removing "
              + name
              + ": "
              + String.join("; ", report.problems()));
    }
    Set<String> joining = new LinkedHashSet<>(report.notStarted());
    joining.remove(name);
    if (!joining.isEmpty()) {
      return Optional.of(
          "etcd member(s) "
              + String.join(", ", joining)
              + " have not started yet: waiting for them before removing "
              + name);
    }
    int members = report.members().orElse(0);
    boolean memberHealthy =
        !report.unhealthy().contains(name) && !report.notStarted().contains(name);
    int healthyAfter = report.healthy() - (memberHealthy ? 1 : 0);
    int quorum = members / 2 + 1;
    if (healthyAfter < quorum) {
      return Optional.of(
          "removing "
              + name
              + " would leave "
              + healthyAfter
              + " healthy etcd members of "
              + members
              + ", fewer than the "
              + quorum
              + " quorum needs"
              + (report.unhealthy().isEmpty()
                  ? ""
                  : " (unhealthy: " + String.join(", ", report.unhealthy()) + ")"));
    }
    return Optional.empty();
  }

  /** The EtcdClusterHealthy condition. */
  public static ConditionUpdate health(EtcdReport report) {
    String guard =
        report.quorumGuardOff()
            ? "; the etcd quorum guard is off"
                + (report.quorumGuardOffBy().isEmpty()
                    ? " (spec.unsupportedConfigOverrides of etcds/cluster)"
                    : " until the replacement member joins")
            : "";
    List<String> problems = new ArrayList<>(report.problems());
    if (!report.unhealthy().isEmpty()) {
      problems.add("unhealthy members: " + String.join(", ", report.unhealthy()));
    }
    if (!report.notStarted().isEmpty()) {
      problems.add("members not started: " + String.join(", ", report.notStarted()));
    }
    if (!problems.isEmpty()) {
      return ConditionUpdate.isFalse(
          ETCD_CLUSTER_HEALTHY,
          NOT_HEALTHY,
          report
                  .members()
                  .map(m -> report.healthy() + " of " + m + " etcd members are healthy; ")
                  .orElse("")
              + String.join("; ", problems)
              + guard);
    }
    return ConditionUpdate.isTrue(
        ETCD_CLUSTER_HEALTHY,
        HEALTHY,
        "all " + report.members().orElse(0) + " etcd members are healthy" + guard);
  }

  /**
   * The members to remove: unhealthy ones whose Node is gone and that no control-plane Machine
   * still holds. OpenShift's etcd operator removes such members itself only through Machine API
   * deletion hooks, which Cluster API hosts do not have; and it adds no member while one is
   * unhealthy, so the next host could never join. Removing an unhealthy member lowers the quorum
   * and leaves the healthy members as they are.
   *
   * @param nodes the names of the Nodes the installed cluster has
   * @param heldByMachines the Node names of control-plane Machines not being deleted
   */
  public static List<String> departed(
      EtcdReport report, Set<String> nodes, Set<String> heldByMachines) {
    if (!report.quorate()) {
      return List.of();
    }
    return report.unhealthy().stream()
        .filter(member -> !nodes.contains(member) && !heldByMachines.contains(member))
        .toList();
  }

  /** What to do with the quorum guard. */
  public enum QuorumGuard {
    LEAVE,
    TURN_OFF,
    TURN_BACK_ON
  }

  /**
   * The quorum guard (OpenShift's etcd operator refuses new static pod revisions, and so new
   * members, unless 3 members are healthy) must be off while a highly available control plane is
   * below 3 members, as OpenShift's procedure for replacing a member says, and on again once 3 are
   * healthy. We only turn back on what we turned off.
   *
   * @param us how we sign the annotation on etcds/cluster: the control plane's namespace/name
   */
  public static QuorumGuard quorumGuard(EtcdReport report, int desiredReplicas, String us) {
    if (!report.quorate() || desiredReplicas < HIGHLY_AVAILABLE_MEMBERS) {
      return QuorumGuard.LEAVE;
    }
    boolean allHealthy = report.unhealthy().isEmpty() && report.notStarted().isEmpty();
    int members = report.members().orElse(0);
    if (report.quorumGuardOff()) {
      return us.equals(report.quorumGuardOffBy())
              && allHealthy
              && members >= HIGHLY_AVAILABLE_MEMBERS
          ? QuorumGuard.TURN_BACK_ON
          : QuorumGuard.LEAVE;
    }
    return allHealthy && members < HIGHLY_AVAILABLE_MEMBERS
        ? QuorumGuard.TURN_OFF
        : QuorumGuard.LEAVE;
  }
}
