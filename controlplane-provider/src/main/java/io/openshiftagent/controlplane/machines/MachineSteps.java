package io.openshiftagent.controlplane.machines;

import io.openshiftagent.api.controlplane.v1alpha3.OpenshiftAssistedControlPlane;
import io.openshiftagent.api.external.capi.Machine;
import io.openshiftagent.provider.reconcile.Metadata;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * What the Machines phase does in one reconcile, and in which order, decided from values alone: the
 * order is the safety argument (etcd first, one step per reconcile), and {@code MachineStepsTest}
 * is its table.
 *
 * <ol>
 *   <li>Read etcd's health, when etcd guards the hosts (an installed, highly available cluster) and
 *       something may remove one, or the periodic look is due.
 *   <li>Decide the pre-terminate hook of the first deleted Machine waiting for it (etcd is asked
 *       when the plan is applied).
 *   <li>Remove the etcd members of departed hosts, when a host is missing or the look is due.
 *   <li>Forget a recorded remediation whose replacement exists, and the OwnerRemediated answer of
 *       Machines healthy again.
 *   <li>One step: a remediation ({@link Remediation}); else, before the installation, the
 *       replacement of a Machine whose host never booted ({@link NeverBooted}); else a rolling
 *       update step ({@link Rollout}); else a scaling step ({@link MachineScaling}). A deferred
 *       remediation lets the other steps happen; each deletion is checked against etcd when
 *       applied.
 * </ol>
 */
final class MachineSteps {
  private MachineSteps() {}

  /**
   * What the decisions read.
   *
   * @param deleting the names of the Machines being deleted (cache, or deleted by us since)
   * @param notUpToDate why each Machine that does not match the spec does not, by name
   * @param recorded the remediation recorded on the control plane, if any
   * @param neverBooted the names of the Machines whose hosts never booted ({@link NeverBooted})
   * @param looked the names of the Machines whose health the last look read
   */
  record Inputs(
      OpenshiftAssistedControlPlane cp,
      List<Machine> machines,
      List<String> deleting,
      Set<String> looked,
      Map<String, String> notUpToDate,
      Set<String> neverBooted,
      Optional<RemediationData> recorded,
      Lifecycle lifecycle,
      boolean installationStarted,
      Instant now) {}

  /**
   * The plan of one reconcile.
   *
   * @param etcdGuarded whether etcd must allow each host's removal
   * @param readEtcdHealth whether EtcdClusterHealthy is brought up to date
   * @param hookDue the deleted Machine whose host our pre-terminate hook holds, if one waits
   * @param removeDepartedMembers whether the members of hosts that are gone are removed
   * @param inProgress the remediation whose replacement is not made yet
   * @param forgetRecorded whether the recorded remediation is over and goes
   * @param recovered the Machines whose OwnerRemediated answer goes
   * @param replacing the out-of-date Machines whose hosts never booted, replaced one at a time
   * @param step the replacement, rolling update or scaling step; empty when a Machine is remediated
   */
  record Plan(
      boolean etcdGuarded,
      boolean readEtcdHealth,
      Optional<Machine> hookDue,
      boolean removeDepartedMembers,
      Optional<RemediationData> inProgress,
      boolean forgetRecorded,
      List<Machine> recovered,
      Set<String> replacing,
      Remediation.Decision remediation,
      Optional<MachineScaling.Decision> step) {}

  static Plan plan(Inputs in) {
    OpenshiftAssistedControlPlane cp = in.cp();
    int desired = cp.getSpec().desiredReplicas();
    int current = in.machines().size();
    Lifecycle lifecycle = in.lifecycle();
    boolean guarded = lifecycle.installed() && desired >= MachineScaling.MIN_HIGHLY_AVAILABLE;
    boolean forget =
        in.recorded().isPresent() && RemediationData.isOver(in.recorded().get(), in.machines());
    Optional<RemediationData> inProgress = forget ? Optional.empty() : in.recorded();
    Remediation.Decision remediation =
        Remediation.decide(
            new Remediation.Inputs(
                in.machines(),
                in.deleting(),
                inProgress,
                cp.getSpec().remediation,
                lifecycle.installed(),
                lifecycle.upgrading(),
                in.now()));
    Set<String> replacing =
        NeverBooted.toReplace(
            in.machines(), in.notUpToDate(), in.neverBooted(), in.installationStarted());
    Optional<MachineScaling.Decision> step =
        remediation instanceof Remediation.Remediate
            ? Optional.empty()
            : Optional.of(
                NeverBooted.decide(
                        desired, in.machines(), in.deleting(), replacing, in.notUpToDate())
                    .or(
                        () ->
                            Rollout.decide(
                                new Rollout.Inputs(
                                    desired,
                                    cp.getSpec().rollout,
                                    in.machines(),
                                    in.deleting(),
                                    in.notUpToDate(),
                                    lifecycle.installed(),
                                    lifecycle.upgrading())))
                    .orElseGet(
                        () ->
                            MachineScaling.decide(
                                desired,
                                in.machines(),
                                in.deleting(),
                                in.installationStarted(),
                                m -> !in.notUpToDate().containsKey(Metadata.name(m)))));
    return new Plan(
        guarded,
        guarded
            && (lifecycle.lookDue()
                || !in.deleting().isEmpty()
                || current != desired
                || goneSinceTheLook(in)),
        PreTerminateHook.due(in.machines()),
        guarded && (lifecycle.lookDue() || current < desired),
        inProgress,
        forget,
        Remediation.recovered(in.machines(), in.deleting()),
        replacing,
        remediation,
        step);
  }

  /**
   * Whether a Machine the last look read is gone: the control plane's health conditions would name
   * it until the next look.
   */
  private static boolean goneSinceTheLook(Inputs in) {
    Set<String> names = in.machines().stream().map(Metadata::name).collect(Collectors.toSet());
    return !names.containsAll(in.looked());
  }
}
