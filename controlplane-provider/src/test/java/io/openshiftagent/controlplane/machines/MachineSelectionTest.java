package io.openshiftagent.controlplane.machines;

import static io.openshiftagent.controlplane.Fixtures.failureDomain;
import static io.openshiftagent.controlplane.Fixtures.machine;
import static org.assertj.core.api.Assertions.assertThat;

import io.openshiftagent.api.external.ExternalKinds;
import io.openshiftagent.api.external.capi.Machine;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class MachineSelectionTest {
  @Test
  void newMachineGoesToTheControlPlaneDomainWithFewestMachines() {
    var domains =
        List.of(failureDomain("a", true), failureDomain("b", true), failureDomain("w", false));
    var machines = List.of(machine("m1", "2026-01-01T00:00:00Z", "a"));
    assertThat(MachineSelection.failureDomainForNewMachine(domains, machines)).contains("b");
    assertThat(MachineSelection.failureDomainForNewMachine(domains, List.of())).contains("a");
  }

  @Test
  void noControlPlaneDomainsMeansNoFailureDomain() {
    assertThat(
            MachineSelection.failureDomainForNewMachine(
                List.of(failureDomain("w", false)), List.of()))
        .isEmpty();
    assertThat(MachineSelection.failureDomainForNewMachine(null, List.of())).isEmpty();
  }

  @Test
  void scaleDownPrefersTheMachineMarkedForDeletion() {
    Machine old = machine("old", "2026-01-01T00:00:00Z", "a");
    Machine marked = machine("marked", "2026-01-03T00:00:00Z", "b");
    marked.getMetadata().setAnnotations(Map.of(ExternalKinds.DELETE_MACHINE_ANNOTATION, ""));
    assertThat(MachineSelection.machineToDelete(List.of(old, marked), m -> true)).contains(marked);
  }

  @Test
  void scaleDownThenPrefersOutOfDateMachines() {
    Machine old = machine("old", "2026-01-01T00:00:00Z", "a");
    Machine stale = machine("stale", "2026-01-03T00:00:00Z", "b");
    assertThat(MachineSelection.machineToDelete(List.of(old, stale), m -> m != stale))
        .contains(stale);
  }

  @Test
  void otherwiseTheOldestInTheMostCrowdedDomain() {
    Machine a1 = machine("a1", "2026-01-01T00:00:00Z", "a");
    Machine b1 = machine("b1", "2026-01-02T00:00:00Z", "b");
    Machine b2 = machine("b2", "2026-01-03T00:00:00Z", "b");
    assertThat(MachineSelection.machineToDelete(List.of(a1, b1, b2), m -> true)).contains(b1);
  }

  @Test
  void machinesBeingDeletedAreNotCandidates() {
    Machine going = machine("going", "2026-01-01T00:00:00Z", "a");
    going.getMetadata().setDeletionTimestamp("2026-01-05T00:00:00Z");
    Machine staying = machine("staying", "2026-01-02T00:00:00Z", "a");
    assertThat(MachineSelection.machineToDelete(List.of(going, staying), m -> true))
        .contains(staying);
  }
}
