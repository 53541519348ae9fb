package io.openshiftagent.controlplane.machines;

import static io.openshiftagent.controlplane.names.ControlPlaneConditions.REPLACING_NEVER_BOOTED_MACHINES;
import static io.openshiftagent.controlplane.names.ControlPlaneConditions.ROLLING_OUT;

import io.openshiftagent.api.bootstrap.v1alpha2.OpenshiftAssistedConfig;
import io.openshiftagent.api.external.capi.Machine;
import io.openshiftagent.controlplane.names.ConditionUpdate;
import io.openshiftagent.provider.contract.SharedNames;
import io.openshiftagent.provider.reconcile.Metadata;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * Out-of-date Machines whose hosts never booted are replaced before the installation starts,
 * whatever the rollout strategy: such a Machine holds nothing (no host ran its image, no Agent of
 * its registered), and while it waits on a spec assisted-service refused (an SSH key it cannot
 * parse: no discovery image is ever made) the installation cannot start. One at a time: one is
 * deleted, the scaling makes its replacement from the current spec, then the next goes.
 *
 * <p>A host never booted, as far as the control plane can tell (conservatively: any sign of a boot
 * keeps the Machine), when its Machine has no Node and no provisioned infrastructure, its bootstrap
 * data was never made (neither its config nor the Machine says so), and no Agent was approved for
 * its config. Without bootstrap data no infrastructure provider may provision the Machine (Cluster
 * API's contract; CAPM3 claims no BareMetalHost before it), so no host was handed its image. A
 * Machine whose data was made but that waits for a host is kept: a host may be claimed for it at
 * any moment.
 */
final class NeverBooted {
  private static final Comparator<Machine> OLDEST_FIRST =
      Comparator.comparing((Machine m) -> m.getMetadata().getCreationTimestamp())
          .thenComparing(Metadata::name);

  private NeverBooted() {}

  /**
   * The names of the Machines whose hosts never booted.
   *
   * @param configs the control plane's configs by name; a Machine without one is not known
   */
  static Set<String> hosts(List<Machine> machines, Map<String, OpenshiftAssistedConfig> configs) {
    Set<String> names = new TreeSet<>();
    for (Machine machine : machines) {
      OpenshiftAssistedConfig config = configs.get(ControlPlaneMachines.configName(machine));
      if (neverBooted(machine, config)) {
        names.add(Metadata.name(machine));
      }
    }
    return names;
  }

  /** Whether the Machine's host never booted; false when its config is not known. */
  static boolean neverBooted(Machine machine, OpenshiftAssistedConfig config) {
    if (config == null || MachineStatus.hasNode(machine)) {
      return false;
    }
    var machineStatus = machine.getStatus() == null ? null : machine.getStatus().initialization;
    if (machineStatus != null
        && (Boolean.TRUE.equals(machineStatus.infrastructureProvisioned)
            || Boolean.TRUE.equals(machineStatus.bootstrapDataSecretCreated))) {
      return false;
    }
    if (machine.getSpec() != null
        && machine.getSpec().bootstrap != null
        && machine.getSpec().bootstrap.dataSecretName != null) {
      return false;
    }
    var configStatus = config.getStatus();
    if (configStatus != null
        && (configStatus.dataSecretName != null
            || (configStatus.initialization != null
                && Boolean.TRUE.equals(configStatus.initialization.dataSecretCreated)))) {
      return false;
    }
    return !Metadata.hasAnnotation(config, SharedNames.APPROVED_AGENT_ANNOTATION);
  }

  /**
   * The Machines to replace: out of date, never booted, and the installation not started; by name.
   * One being deleted counts (it is being replaced), so that RollingOut keeps its reason until the
   * last replacement is under way.
   *
   * @param neverBooted the names of the Machines whose hosts never booted
   */
  static Set<String> toReplace(
      List<Machine> machines,
      Map<String, String> notUpToDate,
      Set<String> neverBooted,
      boolean installationStarted) {
    if (installationStarted) {
      return Set.of();
    }
    Set<String> names = new TreeSet<>();
    machines.stream()
        .map(Metadata::name)
        .filter(n -> notUpToDate.containsKey(n) && neverBooted.contains(n))
        .forEach(names::add);
    return names;
  }

  /**
   * The replacement step: delete the oldest Machine to replace, once as many Machines exist as
   * desired and none is being deleted (so none of them is); empty when there is none to replace or
   * the scaling has a Machine to add or remove first (a replacement's Machine is made by the
   * scaling).
   *
   * @param toReplace the Machines to replace ({@link #toReplace}), by name
   * @param notUpToDate why each out-of-date Machine is, by name
   */
  static Optional<MachineScaling.Decision> decide(
      int desired,
      List<Machine> machines,
      List<String> deleting,
      Set<String> toReplace,
      Map<String, String> notUpToDate) {
    if (toReplace.isEmpty() || machines.size() != desired) {
      return Optional.empty();
    }
    if (!deleting.isEmpty()) {
      return Optional.of(
          new MachineScaling.Wait(
              rollingOut(
                  "replacing Machines whose hosts never booted "
                      + toReplace
                      + ": waiting for "
                      + deleting
                      + " to be deleted")));
    }
    Machine victim =
        machines.stream()
            .filter(m -> toReplace.contains(Metadata.name(m)))
            .min(OLDEST_FIRST)
            .orElseThrow();
    String name = Metadata.name(victim);
    return Optional.of(
        new MachineScaling.Replace(
            victim,
            why(notUpToDate.get(name)),
            rollingOut("replacing Machine " + name + ": " + why(notUpToDate.get(name)))));
  }

  /** Why a Machine is replaced, as its Event and the control plane's RollingOut say it. */
  static String why(String notUpToDate) {
    return "its host never booted and it does not match the spec ("
        + notUpToDate
        + "); the installation has not started, so its replacement is made from the current spec";
  }

  private static ConditionUpdate rollingOut(String message) {
    return ConditionUpdate.isTrue(ROLLING_OUT, REPLACING_NEVER_BOOTED_MACHINES, message);
  }
}
