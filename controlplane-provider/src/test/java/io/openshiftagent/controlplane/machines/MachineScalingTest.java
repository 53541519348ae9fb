package io.openshiftagent.controlplane.machines;

import static io.openshiftagent.controlplane.machines.MachineFixtures.describe;
import static io.openshiftagent.controlplane.machines.MachineFixtures.fleet;
import static org.assertj.core.api.Assertions.assertThat;

import io.openshiftagent.api.external.capi.Machine;
import io.openshiftagent.controlplane.names.ConditionUpdate;
import io.openshiftagent.controlplane.names.ControlPlaneConditions;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Control-plane scaling as create(n) | delete(m) | wait(reason), for each shape of the fleet. */
class MachineScalingTest {
  /**
   * @param current how many Machines exist, named m0, m1, ... (oldest first)
   * @param ready how many of them (the first ones) are Ready
   * @param deleting how many of them (the last ones) are being deleted
   */
  record Fleet(int current, int ready, int deleting) {
    List<Machine> machines() {
      return fleet(current, ready);
    }

    List<String> deletingNames() {
      List<String> names = new ArrayList<>();
      for (int i = current - deleting; i < current; i++) {
        names.add("m" + i);
      }
      return names;
    }
  }

  static Stream<Arguments> decisions() {
    return Stream.of(
        // name, desired, fleet, installation started, expected decision, condition reason
        Arguments.of("as many as desired", 3, new Fleet(3, 3, 0), true, "steady", null),
        Arguments.of(
            "day 1: every host at once", 3, new Fleet(0, 0, 0), false, "create 3", "ScalingUp"),
        Arguments.of(
            "day 1: the missing ones at once, Ready or not",
            3,
            new Fleet(1, 0, 0),
            false,
            "create 2",
            "ScalingUp"),
        Arguments.of(
            "installed: one at a time once all are Ready",
            5,
            new Fleet(3, 3, 0),
            true,
            "create 1",
            "ScalingUp"),
        Arguments.of(
            "installed: not while one is not Ready",
            5,
            new Fleet(4, 3, 0),
            true,
            "wait",
            "WaitingForMachinesReady"),
        Arguments.of(
            "not while one is being deleted",
            3,
            new Fleet(2, 2, 1),
            false,
            "wait",
            "WaitingForMachineDeletion"),
        Arguments.of(
            "installed single node to three: not possible",
            3,
            new Fleet(1, 1, 0),
            true,
            "wait",
            "TopologyChangeNotSupported"),
        Arguments.of(
            "installed three down to two (a host remediated): its replacement is made",
            3,
            new Fleet(2, 2, 0),
            true,
            "create 1",
            "ScalingUp"),
        Arguments.of(
            "single node before the installation: three may be made",
            3,
            new Fleet(1, 1, 0),
            false,
            "create 2",
            "ScalingUp"),
        Arguments.of(
            "installed, no Machine left: one is made again",
            1,
            new Fleet(0, 0, 0),
            true,
            "create 1",
            "ScalingUp"),
        Arguments.of(
            "scale down: the one chosen", 3, new Fleet(4, 4, 0), true, "delete m0", "ScalingDown"),
        Arguments.of(
            "scale down: not while one is being deleted",
            3,
            new Fleet(5, 5, 1),
            true,
            "wait",
            "WaitingForMachineDeletion"),
        Arguments.of(
            "installed three to one: not possible",
            1,
            new Fleet(3, 3, 0),
            true,
            "wait",
            "TopologyChangeNotSupported"),
        Arguments.of(
            "installed four to one: down to three first",
            1,
            new Fleet(4, 4, 0),
            true,
            "delete m0",
            "ScalingDown"),
        Arguments.of(
            "three to one before the installation",
            1,
            new Fleet(3, 0, 0),
            false,
            "delete m0",
            "ScalingDown"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("decisions")
  void scalingCreatesDeletesOrWaits(
      String name, int desired, Fleet fleet, boolean installed, String expected, String reason) {
    MachineScaling.Decision decision =
        MachineScaling.decide(
            desired, fleet.machines(), fleet.deletingNames(), installed, m -> true);
    assertThat(describe(decision)).isEqualTo(expected);
    assertThat(decision.condition().map(ConditionUpdate::reason).orElse(null)).isEqualTo(reason);
    decision
        .condition()
        .ifPresent(
            c -> {
              assertThat(c.status()).isEqualTo("True");
              assertThat(c.type())
                  .isEqualTo(
                      fleet.current() < desired
                          ? ControlPlaneConditions.SCALING_UP
                          : ControlPlaneConditions.SCALING_DOWN);
            });
  }

  @Test
  void outdatedMachinesGoFirstWhenScalingDown() {
    List<Machine> machines = new Fleet(4, 4, 0).machines();
    Set<String> outdated = Set.of("m2");
    MachineScaling.Decision decision =
        MachineScaling.decide(
            3, machines, List.of(), true, m -> !outdated.contains(m.getMetadata().getName()));
    assertThat(describe(decision)).isEqualTo("delete m2");
    assertThat(decision.condition().get().message())
        .isEqualTo("scaling down from 4 to 3 Machines: deleting Machine m2");
  }

  @Test
  void eachWaitSaysWhatItWaitsFor() {
    assertThat(
            MachineScaling.decide(5, new Fleet(4, 2, 0).machines(), List.of(), true, m -> true)
                .condition()
                .get()
                .message())
        .isEqualTo(
            "scaling up from 4 to 5 Machines: waiting for [m2, m3] to be Ready before adding the"
                + " next Machine");
    assertThat(
            MachineScaling.decide(4, new Fleet(5, 5, 1).machines(), List.of("m4"), true, m -> true)
                .condition()
                .get()
                .message())
        .isEqualTo("scaling down from 5 to 4 Machines: waiting for [m4] to be deleted");
  }

  @Test
  void steadyReportsHowManyExist() {
    assertThat(MachineScaling.steady(2, 3))
        .extracting(ConditionUpdate::type, ConditionUpdate::status, ConditionUpdate::message)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple("ScalingUp", "False", "2 of 3 Machines exist"),
            org.assertj.core.groups.Tuple.tuple("ScalingDown", "False", "2 of 3 Machines exist"));
  }
}
