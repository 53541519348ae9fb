package io.openshiftagent.controlplane.machines;

import static io.openshiftagent.controlplane.Fixtures.machine;
import static io.openshiftagent.controlplane.Fixtures.setReady;
import static io.openshiftagent.controlplane.machines.MachineFixtures.describe;
import static io.openshiftagent.controlplane.machines.MachineFixtures.fleet;
import static org.assertj.core.api.Assertions.assertThat;

import io.openshiftagent.api.controlplane.v1alpha3.RolloutSpec;
import io.openshiftagent.api.external.capi.Machine;
import io.openshiftagent.controlplane.names.ConditionUpdate;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The rolling update, step by step: add or delete one Machine, or wait and say why. */
class RolloutTest {
  /**
   * @param current Machines m0, m1, ... (oldest first)
   * @param outdated how many of them (the first ones) do not match the spec
   * @param ready how many of them (the first ones) are Ready
   */
  record Fleet(int current, int outdated, int ready) {
    List<Machine> machines() {
      return fleet(current, ready);
    }

    Map<String, String> notUpToDate() {
      Map<String, String> reasons = new LinkedHashMap<>();
      for (int i = 0; i < outdated; i++) {
        reasons.put("m" + i, "its OpenshiftAssistedConfig differs");
      }
      return reasons;
    }
  }

  static RolloutSpec rollingUpdate(Integer maxSurge) {
    RolloutSpec rollout = new RolloutSpec();
    rollout.strategy = new RolloutSpec.Strategy();
    rollout.strategy.type = RolloutSpec.StrategyType.RollingUpdate;
    if (maxSurge != null) {
      rollout.strategy.rollingUpdate = new RolloutSpec.RollingUpdate();
      rollout.strategy.rollingUpdate.maxSurge = maxSurge;
    }
    return rollout;
  }

  static RolloutSpec onDelete() {
    RolloutSpec rollout = new RolloutSpec();
    rollout.strategy = new RolloutSpec.Strategy();
    rollout.strategy.type = RolloutSpec.StrategyType.OnDelete;
    return rollout;
  }

  static Stream<Arguments> steps() {
    return Stream.of(
        // name, rollout, fleet, deleting, installed, upgrading, expected step, reason
        Arguments.of(
            "OnDelete decides nothing",
            onDelete(),
            new Fleet(3, 3, 3),
            List.of(),
            true,
            false,
            "none",
            null),
        Arguments.of(
            "no strategy decides nothing",
            null,
            new Fleet(3, 3, 3),
            List.of(),
            true,
            false,
            "none",
            null),
        Arguments.of(
            "everything up to date",
            rollingUpdate(1),
            new Fleet(3, 0, 3),
            List.of(),
            true,
            false,
            "none",
            null),
        Arguments.of(
            "maxSurge 1 (default): add first",
            rollingUpdate(null),
            new Fleet(3, 3, 3),
            List.of(),
            true,
            false,
            "create 1",
            "RollingOut"),
        Arguments.of(
            "maxSurge 1: then delete the oldest out-of-date",
            rollingUpdate(1),
            new Fleet(4, 3, 4),
            List.of(),
            true,
            false,
            "delete m0",
            "RollingOut"),
        Arguments.of(
            "maxSurge 1: the new Machine must be Ready before a deletion",
            rollingUpdate(1),
            new Fleet(4, 3, 3),
            List.of(),
            true,
            false,
            "wait",
            "WaitingForMachinesReady"),
        Arguments.of(
            "maxSurge 0: delete first",
            rollingUpdate(0),
            new Fleet(3, 3, 3),
            List.of(),
            true,
            false,
            "delete m0",
            "RollingOut"),
        Arguments.of(
            "maxSurge 0: then add its replacement",
            rollingUpdate(0),
            new Fleet(2, 2, 2),
            List.of(),
            true,
            false,
            "create 1",
            "RollingOut"),
        Arguments.of(
            "maxSurge 0: the last out-of-date one goes once the others are Ready",
            rollingUpdate(0),
            new Fleet(3, 1, 3),
            List.of(),
            true,
            false,
            "delete m0",
            "RollingOut"),
        Arguments.of(
            "not while a Machine is being deleted",
            rollingUpdate(1),
            new Fleet(4, 3, 4),
            List.of("m3"),
            true,
            false,
            "wait",
            "WaitingForMachineDeletion"),
        Arguments.of(
            "not before the installation",
            rollingUpdate(1),
            new Fleet(3, 3, 0),
            List.of(),
            false,
            false,
            "wait",
            "WaitingForInstallation"),
        Arguments.of(
            "before the installation a missing Machine is the scaling's",
            rollingUpdate(1),
            new Fleet(2, 2, 0),
            List.of(),
            false,
            false,
            "none",
            null),
        Arguments.of(
            "not during an upgrade",
            rollingUpdate(1),
            new Fleet(3, 3, 3),
            List.of(),
            true,
            true,
            "wait",
            "WaitingForUpgrade"),
        Arguments.of(
            "not while a Machine is not Ready before adding one",
            rollingUpdate(1),
            new Fleet(3, 3, 2),
            List.of(),
            true,
            false,
            "wait",
            "WaitingForMachinesReady"),
        Arguments.of(
            "a not-Ready out-of-date Machine may be the one deleted",
            rollingUpdate(0),
            new Fleet(3, 3, 2),
            List.of(),
            true,
            false,
            "delete m2",
            "RollingOut"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("steps")
  void rollsOutOneMachineAtATime(
      String name,
      RolloutSpec rollout,
      Fleet fleet,
      List<String> deleting,
      boolean installed,
      boolean upgrading,
      String expected,
      String reason) {
    Optional<MachineScaling.Decision> decision =
        Rollout.decide(
            new Rollout.Inputs(
                3,
                rollout,
                fleet.machines(),
                deleting,
                fleet.notUpToDate(),
                installed,
                upgrading ? Optional.of("condition UpgradeCompleted is False") : Optional.empty()));
    assertThat(decision.map(MachineFixtures::describe).orElse("none"))
        .as(
            decision
                .flatMap(MachineScaling.Decision::condition)
                .map(ConditionUpdate::message)
                .orElse(""))
        .isEqualTo(expected);
    MachineFixtures.assertRollingOutReason(decision, reason);
  }

  @Test
  void aFullRollingUpdateWithMaxSurgeOneReplacesEachMachineInTurn() {
    // Plays the rollout: each step applied, every Machine Ready at once.
    List<String> fleet = new ArrayList<>(List.of("m0", "m1", "m2"));
    List<String> steps = new ArrayList<>();
    int made = 0;
    for (int i = 0; i < 10; i++) {
      List<Machine> machines = new ArrayList<>();
      for (int j = 0; j < fleet.size(); j++) {
        Machine m = machine(fleet.get(j), "2026-01-0" + (j + 1) + "T00:00:00Z", null);
        setReady(m);
        machines.add(m);
      }
      Map<String, String> outdated = new LinkedHashMap<>();
      fleet.stream().filter(n -> n.startsWith("m")).forEach(n -> outdated.put(n, "old"));
      Optional<MachineScaling.Decision> d =
          Rollout.decide(
              new Rollout.Inputs(
                  3, rollingUpdate(1), machines, List.of(), outdated, true, Optional.empty()));
      if (d.isEmpty()) {
        break;
      }
      steps.add(describe(d.get()));
      if (d.get() instanceof MachineScaling.Create) {
        fleet.add("new" + made++);
      } else if (d.get() instanceof MachineScaling.Delete del) {
        fleet.remove(del.machine().getMetadata().getName());
      }
    }
    assertThat(steps)
        .containsExactly("create 1", "delete m0", "create 1", "delete m1", "create 1", "delete m2");
    assertThat(fleet).containsExactly("new0", "new1", "new2");
  }

  @Test
  void rolloutAfterMarksMachinesMadeBeforeItOnceItHasPassed() {
    RolloutSpec rollout = new RolloutSpec();
    rollout.after = "2026-03-01T00:00:00Z";
    Machine old = machine("old", "2026-02-01T00:00:00Z", null);
    Machine young = machine("young", "2026-03-02T00:00:00Z", null);
    Instant before = Instant.parse("2026-02-15T00:00:00Z");
    Instant after = Instant.parse("2026-03-05T00:00:00Z");
    assertThat(Rollout.rolloutAfter(rollout, old, before)).isEmpty();
    assertThat(Rollout.rolloutAfter(rollout, old, after))
        .contains("it was created before spec.rollout.after (2026-03-01T00:00:00Z)");
    assertThat(Rollout.rolloutAfter(rollout, young, after)).isEmpty();
    assertThat(Rollout.pendingAfter(rollout, before))
        .contains(Instant.parse("2026-03-01T00:00:00Z"));
    assertThat(Rollout.pendingAfter(rollout, after)).isEmpty();
    rollout.after = "2026-03-01T02:00:00+02:00";
    assertThat(Rollout.rolloutAfter(rollout, machine("x", "2026-02-28T23:30:00Z", null), after))
        .isPresent();
  }
}
