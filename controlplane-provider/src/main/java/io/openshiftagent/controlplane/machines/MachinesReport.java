package io.openshiftagent.controlplane.machines;

import static io.openshiftagent.controlplane.names.ControlPlaneConditions.ETCD_CLUSTER_HEALTHY;
import static io.openshiftagent.controlplane.names.ControlPlaneConditions.MACHINES_READY;
import static io.openshiftagent.controlplane.names.ControlPlaneConditions.MACHINES_UP_TO_DATE;
import static io.openshiftagent.controlplane.names.ControlPlaneConditions.REMEDIATING;
import static io.openshiftagent.controlplane.names.ControlPlaneConditions.ROLLING_OUT;
import static io.openshiftagent.controlplane.names.ControlPlaneConditions.SCALING_DOWN;
import static io.openshiftagent.controlplane.names.ControlPlaneConditions.SCALING_UP;

import io.openshiftagent.api.common.Conditions;
import io.openshiftagent.api.common.StatusVersion;
import io.openshiftagent.controlplane.names.ConditionUpdate;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * What the Machines phase decided and found, for the report: the conditions it decided
 * (Remediating, ScalingUp, ScalingDown, MachinesReady, MachinesUpToDate, RollingOut, and
 * EtcdClusterHealthy when it read etcd), the counts and versions, and the last remediation; what it
 * did that the reconciler must know (whether creating Machines is blocked, which Machines it
 * deleted); and what it remembers for the next reconcile.
 *
 * @param lastRemediation empty: the stored status.lastRemediation stays
 * @param creationBlocked Machines could not be made (refused, or no template): nothing watched says
 *     when that changes, so the control plane is looked at again later
 * @param deleted the UIDs of the Machines deleted now
 */
public record MachinesReport(
    List<ConditionUpdate> conditions,
    MachineStatus.Counts counts,
    List<StatusVersion> versions,
    Optional<RemediationData> lastRemediation,
    boolean creationBlocked,
    Set<String> deleted,
    Memory memory) {

  /**
   * Whether nothing is under way among the Machines: none made, deleted, replaced or remediated,
   * all Ready and up to date, etcd healthy when it was read. Only then may the installed cluster be
   * looked at less often: a member whose host went must be seen gone before the host comes back.
   */
  public boolean settled() {
    if (!deleted.isEmpty()) {
      return false;
    }
    for (ConditionUpdate condition : conditions) {
      String expected =
          switch (condition.type()) {
            case REMEDIATING, SCALING_UP, SCALING_DOWN, ROLLING_OUT -> Conditions.FALSE;
            case MACHINES_READY, MACHINES_UP_TO_DATE, ETCD_CLUSTER_HEALTHY -> Conditions.TRUE;
            default -> condition.status();
          };
      if (!Objects.equals(expected, condition.status())) {
        return false;
      }
    }
    return true;
  }

  /**
   * What the phase remembers of a control plane between reconciles.
   *
   * @param prepared the parts made for its first Machines while its infrastructure was awaited
   * @param warnings the last note of each lasting Warning, by reason
   * @param looked the names of the Machines whose health the last look read
   */
  public record Memory(
      Optional<PreparedMachines.Parts> prepared, Map<String, String> warnings, Set<String> looked) {
    public static final Memory NONE = new Memory(Optional.empty(), Map.of(), Set.of());

    public Memory withPrepared(Optional<PreparedMachines.Parts> parts) {
      return new Memory(parts, warnings, looked);
    }
  }
}
