package io.openshiftagent.controlplane.machines;

import static io.openshiftagent.controlplane.Fixtures.condition;
import static io.openshiftagent.controlplane.Fixtures.machine;
import static io.openshiftagent.controlplane.Fixtures.setReady;
import static org.assertj.core.api.Assertions.assertThat;

import io.openshiftagent.api.external.capi.Machine;
import io.openshiftagent.controlplane.names.ConditionUpdate;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/** The replica counts and the Machine conditions, from the Machines and which are outdated. */
class MachineStatusTest {
  private static Machine ready(String name) {
    Machine m = machine(name, "2026-01-01T00:00:00Z", null);
    setReady(m);
    return m;
  }

  private static Machine readyNotAvailable(String name) {
    Machine m = machine(name, "2026-01-01T00:00:00Z", null);
    m.setStatus(new io.openshiftagent.api.external.capi.MachineStatus());
    m.getStatus().conditions = List.of(condition("Ready", "True"), condition("Available", "False"));
    return m;
  }

  private static Machine provisioning(String name) {
    return machine(name, "2026-01-01T00:00:00Z", null);
  }

  @Test
  void countsTellReadyAvailableAndUpToDateApart() {
    List<Machine> machines = List.of(ready("a"), readyNotAvailable("b"), provisioning("c"));
    assertThat(MachineStatus.counts(machines, Map.of("c", "outdated")))
        .isEqualTo(new MachineStatus.Counts(3, 2, 1, 2));
    assertThat(MachineStatus.counts(List.of(), Map.of()))
        .isEqualTo(new MachineStatus.Counts(0, 0, 0, 0));
  }

  @Test
  void machinesReadyNamesThoseThatAreNot() {
    assertThat(MachineStatus.machinesReady(List.of()))
        .isEqualTo(
            ConditionUpdate.isFalse(
                "MachinesReady", "NoMachines", "no control-plane Machines exist yet"));
    assertThat(MachineStatus.machinesReady(List.of(ready("a"), ready("b"))))
        .isEqualTo(ConditionUpdate.isTrue("MachinesReady", "Ready", "all 2 Machines are Ready"));
    assertThat(
            MachineStatus.machinesReady(List.of(ready("a"), provisioning("b"), provisioning("c"))))
        .isEqualTo(
            ConditionUpdate.isFalse("MachinesReady", "NotReady", "Machines not Ready: [b, c]"));
    // In any order the Machines come (created, or from the cache): one message, no status write.
    assertThat(
            MachineStatus.machinesReady(List.of(provisioning("c"), ready("a"), provisioning("b"))))
        .isEqualTo(
            ConditionUpdate.isFalse("MachinesReady", "NotReady", "Machines not Ready: [b, c]"));
  }

  @Test
  void hostsHeldBackAreTheMachinesWhoseConfigSaysSo() {
    Machine failing = provisioning("a");
    failing.setStatus(new io.openshiftagent.api.external.capi.MachineStatus());
    failing.getStatus().conditions =
        List.of(
            condition("BootstrapConfigReady", "False", "HostValidationsFailing", "NTP unsynced"));
    Machine noDisk = provisioning("b");
    noDisk.setStatus(new io.openshiftagent.api.external.capi.MachineStatus());
    noDisk.getStatus().conditions =
        List.of(
            condition(
                "BootstrapConfigReady",
                "False",
                "NoDiskMatchesRootDeviceHints",
                "no disk /dev/sdc"));
    Machine waiting = provisioning("c");
    waiting.setStatus(new io.openshiftagent.api.external.capi.MachineStatus());
    waiting.getStatus().conditions =
        List.of(condition("BootstrapConfigReady", "False", "WaitingForInfraEnv", "waiting"));
    assertThat(
            MachineStatus.hostsHeldBack(
                List.of(failing, ready("d"), noDisk, waiting, provisioning("e"))))
        .containsExactly("Machine a: NTP unsynced", "Machine b: no disk /dev/sdc");
  }

  @Test
  void outdatedMachinesAreARollingOutToDoByHand() {
    assertThat(MachineStatus.upToDate(Map.of(), Set.of()))
        .containsExactly(
            ConditionUpdate.isTrue("MachinesUpToDate", "UpToDate", "all Machines match the spec"),
            ConditionUpdate.isFalse("RollingOut", "NotRollingOut", "all Machines match the spec"));
    Map<String, String> outdated = new LinkedHashMap<>();
    outdated.put("a", "its config differs");
    outdated.put("b", "its template differs");
    assertThat(MachineStatus.upToDate(outdated, Set.of()))
        .containsExactly(
            ConditionUpdate.isFalse(
                "MachinesUpToDate",
                "NotUpToDate",
                "Machines not up to date: a (its config differs); b (its template differs)"),
            ConditionUpdate.isTrue(
                "RollingOut",
                "RollingOut",
                "2 Machines do not match the spec: delete them one at a time (OnDelete rollout) and"
                    + " each is replaced by a Machine made from the current spec: a, b"));
  }

  @Test
  void machinesReplacedBecauseTheirHostsNeverBootedAreNotTheUsersToDelete() {
    Map<String, String> outdated = new LinkedHashMap<>();
    outdated.put("a", "its config differs");
    outdated.put("b", "its config differs");
    assertThat(MachineStatus.upToDate(outdated, new TreeSet<>(Set.of("a", "b"))).get(1))
        .isEqualTo(
            ConditionUpdate.isTrue(
                "RollingOut",
                "ReplacingNeverBootedMachines",
                "replacing, one at a time, the Machines whose hosts never booted and that do not"
                    + " match the spec (the installation has not started): a, b"));
    assertThat(MachineStatus.upToDate(outdated, Set.of("b")).get(1))
        .isEqualTo(
            ConditionUpdate.isTrue(
                "RollingOut",
                "ReplacingNeverBootedMachines",
                "replacing, one at a time, the Machines whose hosts never booted and that do not"
                    + " match the spec (the installation has not started): b; the others' hosts"
                    + " may have booted, delete them one at a time (OnDelete rollout) and each is"
                    + " replaced by a Machine made from the current spec: a"));
  }
}
