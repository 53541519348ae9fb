package io.openshiftagent.controlplane.machines;

import static io.openshiftagent.controlplane.machines.MachineFixtures.describe;
import static io.openshiftagent.controlplane.machines.MachineFixtures.fleet;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.openshiftagent.api.bootstrap.v1alpha2.OpenshiftAssistedConfig;
import io.openshiftagent.api.bootstrap.v1alpha2.OpenshiftAssistedConfigStatus;
import io.openshiftagent.api.external.capi.Machine;
import io.openshiftagent.api.external.capi.MachineSpec;
import io.openshiftagent.api.external.capi.MachineStatus;
import io.openshiftagent.provider.contract.SharedNames;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.BiConsumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Which hosts never booted (any sign of a boot keeps the Machine), and the replacement of the
 * out-of-date ones before the installation: one at a time, whatever the rollout strategy.
 */
class NeverBootedTest {

  // ---- never booted: a Machine and its config as the control plane's caches hold them ----

  static OpenshiftAssistedConfig config(String name) {
    OpenshiftAssistedConfig config = new OpenshiftAssistedConfig();
    config.setMetadata(new ObjectMetaBuilder().withName(name).build());
    return config;
  }

  static OpenshiftAssistedConfigStatus configStatus(OpenshiftAssistedConfig config) {
    if (config.getStatus() == null) {
      config.setStatus(new OpenshiftAssistedConfigStatus());
    }
    return config.getStatus();
  }

  static MachineStatus.Initialization initialization(Machine machine) {
    if (machine.getStatus() == null) {
      machine.setStatus(new MachineStatus());
    }
    if (machine.getStatus().initialization == null) {
      machine.getStatus().initialization = new MachineStatus.Initialization();
    }
    return machine.getStatus().initialization;
  }

  static Stream<Arguments> hosts() {
    List<Arguments> rows = new ArrayList<>();
    // description, what the row changes on the Machine and its config, never booted
    BiConsumer<Machine, OpenshiftAssistedConfig> nothing = (m, c) -> {};
    rows.add(Arguments.of("a Machine waiting for its bootstrap data", nothing, true));
    rows.add(
        Arguments.of(
            "its data not made yet, the config's Ready False",
            (BiConsumer<Machine, OpenshiftAssistedConfig>)
                (m, c) -> {
                  configStatus(c).initialization =
                      new OpenshiftAssistedConfigStatus.Initialization();
                  configStatus(c).initialization.dataSecretCreated = false;
                },
            true));
    rows.add(
        Arguments.of(
            "the config made its data",
            (BiConsumer<Machine, OpenshiftAssistedConfig>)
                (m, c) -> {
                  configStatus(c).initialization =
                      new OpenshiftAssistedConfigStatus.Initialization();
                  configStatus(c).initialization.dataSecretCreated = true;
                },
            false));
    rows.add(
        Arguments.of(
            "the config names its data Secret",
            (BiConsumer<Machine, OpenshiftAssistedConfig>)
                (m, c) -> configStatus(c).dataSecretName = "m0",
            false));
    rows.add(
        Arguments.of(
            "Cluster API copied the data Secret's name to the Machine",
            (BiConsumer<Machine, OpenshiftAssistedConfig>)
                (m, c) -> {
                  m.getSpec().bootstrap = new MachineSpec.Bootstrap();
                  m.getSpec().bootstrap.dataSecretName = "m0";
                },
            false));
    rows.add(
        Arguments.of(
            "the Machine says its bootstrap data was made",
            (BiConsumer<Machine, OpenshiftAssistedConfig>)
                (m, c) -> initialization(m).bootstrapDataSecretCreated = true,
            false));
    rows.add(
        Arguments.of(
            "its infrastructure is provisioned",
            (BiConsumer<Machine, OpenshiftAssistedConfig>)
                (m, c) -> initialization(m).infrastructureProvisioned = true,
            false));
    rows.add(
        Arguments.of(
            "it has a Node",
            (BiConsumer<Machine, OpenshiftAssistedConfig>)
                (m, c) -> {
                  initialization(m);
                  m.getStatus().nodeRef = new MachineStatus.NodeReference();
                  m.getStatus().nodeRef.name = "node-0";
                },
            false));
    rows.add(
        Arguments.of(
            "an Agent was approved for its config",
            (BiConsumer<Machine, OpenshiftAssistedConfig>)
                (m, c) ->
                    c.getMetadata()
                        .setAnnotations(Map.of(SharedNames.APPROVED_AGENT_ANNOTATION, "agent-0")),
            false));
    return rows.stream();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("hosts")
  void aHostNeverBootedOnlyWithoutAnySignOfABoot(
      String description, BiConsumer<Machine, OpenshiftAssistedConfig> change, boolean expected) {
    Machine machine = fleet(1, 0).get(0);
    OpenshiftAssistedConfig config = config("m0");
    change.accept(machine, config);
    assertThat(NeverBooted.neverBooted(machine, config)).isEqualTo(expected);
    assertThat(NeverBooted.hosts(List.of(machine), Map.of("m0", config)))
        .isEqualTo(expected ? Set.of("m0") : Set.of());
  }

  @Test
  void aMachineWhoseConfigIsNotKnownIsNotReplaced() {
    Machine machine = fleet(1, 0).get(0);
    assertThat(NeverBooted.neverBooted(machine, null)).isFalse();
    assertThat(NeverBooted.hosts(List.of(machine), Map.of())).isEmpty();
  }

  // ---- the replacement ----

  /**
   * @param current Machines m0, m1, ... (oldest first), none Ready
   * @param outdated the out-of-date ones
   * @param neverBooted those whose hosts never booted
   * @param deleting those being deleted
   */
  record Scene(
      int current,
      List<String> outdated,
      List<String> neverBooted,
      List<String> deleting,
      boolean installationStarted) {
    List<Machine> machines() {
      List<Machine> machines = fleet(current, 0);
      machines.stream()
          .filter(m -> deleting.contains(m.getMetadata().getName()))
          .forEach(m -> m.getMetadata().setDeletionTimestamp("2026-06-01T11:00:00Z"));
      return machines;
    }

    Map<String, String> notUpToDate() {
      Map<String, String> reasons = new LinkedHashMap<>();
      outdated.forEach(n -> reasons.put(n, "its OpenshiftAssistedConfig differs"));
      return reasons;
    }
  }

  static Stream<Arguments> steps() {
    return Stream.of(
        // description, scene, Machines to replace, step, condition reason
        Arguments.of(
            "the oldest out-of-date Machine that never booted goes first",
            new Scene(3, List.of("m0", "m1", "m2"), List.of("m1", "m2"), List.of(), false),
            "[m1, m2]",
            "replace m1",
            "ReplacingNeverBootedMachines"),
        Arguments.of(
            "one at a time: the next waits for the deletion",
            new Scene(3, List.of("m1", "m2"), List.of("m1", "m2"), List.of("m1"), false),
            "[m1, m2]",
            "wait",
            "ReplacingNeverBootedMachines"),
        Arguments.of(
            "once deleted, the scaling makes its replacement",
            new Scene(2, List.of("m1"), List.of("m0", "m1"), List.of(), false),
            "[m1]",
            "none",
            null),
        Arguments.of(
            "more Machines than desired: the scaling removes the out-of-date first",
            new Scene(4, List.of("m1"), List.of("m0", "m1", "m2", "m3"), List.of(), false),
            "[m1]",
            "none",
            null),
        Arguments.of(
            "a Machine whose host booted is left to the rollout strategy",
            new Scene(3, List.of("m0"), List.of("m1", "m2"), List.of(), false),
            "[]",
            "none",
            null),
        Arguments.of(
            "a Machine that matches the spec stays",
            new Scene(3, List.of(), List.of("m0", "m1", "m2"), List.of(), false),
            "[]",
            "none",
            null),
        Arguments.of(
            "not once the installation has started",
            new Scene(3, List.of("m0"), List.of("m0"), List.of(), true),
            "[]",
            "none",
            null));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("steps")
  void replacesOneMachineAtATimeBeforeTheInstallation(
      String description, Scene scene, String replacing, String expected, String reason) {
    List<Machine> machines = scene.machines();
    Set<String> toReplace =
        NeverBooted.toReplace(
            machines,
            scene.notUpToDate(),
            Set.copyOf(scene.neverBooted()),
            scene.installationStarted());
    assertThat(toReplace).hasToString(replacing);
    Optional<MachineScaling.Decision> decision =
        NeverBooted.decide(3, machines, scene.deleting(), toReplace, scene.notUpToDate());
    assertThat(decision.map(MachineFixtures::describe).orElse("none")).isEqualTo(expected);
    MachineFixtures.assertRollingOutReason(decision, reason);
  }

  @Test
  void theReplacementSaysWhichMachineAndWhy() {
    Map<String, String> outdated = Map.of("m0", "its OpenshiftAssistedConfig differs");
    MachineScaling.Replace replace =
        (MachineScaling.Replace)
            NeverBooted.decide(1, fleet(1, 0), List.of(), Set.of("m0"), outdated).orElseThrow();
    assertThat(replace.why())
        .isEqualTo(
            "its host never booted and it does not match the spec (its OpenshiftAssistedConfig"
                + " differs); the installation has not started, so its replacement is made from"
                + " the current spec");
    assertThat(replace.rollingOut().message()).isEqualTo("replacing Machine m0: " + replace.why());
  }

  @Test
  void aFullReplacementGoesOneMachineAtATime() {
    // Plays the plan: each deletion done at once, each replacement made by the scaling.
    List<String> fleet = new ArrayList<>(List.of("m0", "m1", "m2"));
    List<String> steps = new ArrayList<>();
    int made = 0;
    for (int i = 0; i < 10; i++) {
      List<Machine> machines = new ArrayList<>();
      for (int j = 0; j < fleet.size(); j++) {
        machines.add(
            io.openshiftagent.controlplane.Fixtures.machine(
                fleet.get(j), "2026-01-0" + (j + 1) + "T00:00:00Z", null));
      }
      Map<String, String> outdated = new LinkedHashMap<>();
      fleet.stream().filter(n -> n.startsWith("m")).forEach(n -> outdated.put(n, "old"));
      Set<String> toReplace = NeverBooted.toReplace(machines, outdated, Set.copyOf(fleet), false);
      MachineScaling.Decision d =
          NeverBooted.decide(3, machines, List.of(), toReplace, outdated)
              .orElseGet(() -> MachineScaling.decide(3, machines, List.of(), false, m -> true));
      if (d instanceof MachineScaling.Steady) {
        break;
      }
      steps.add(describe(d));
      if (d instanceof MachineScaling.Create create) {
        for (int k = 0; k < create.count(); k++) {
          fleet.add("new" + made++);
        }
      } else if (d instanceof MachineScaling.Replace replace) {
        fleet.remove(replace.machine().getMetadata().getName());
      }
    }
    assertThat(steps)
        .containsExactly(
            "replace m0", "create 1", "replace m1", "create 1", "replace m2", "create 1");
    assertThat(fleet).containsExactly("new0", "new1", "new2");
  }
}
