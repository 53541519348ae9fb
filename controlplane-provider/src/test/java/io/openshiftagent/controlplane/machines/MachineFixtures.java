package io.openshiftagent.controlplane.machines;

import static io.openshiftagent.controlplane.Fixtures.machine;
import static io.openshiftagent.controlplane.Fixtures.setReady;
import static org.assertj.core.api.Assertions.assertThat;

import io.openshiftagent.api.external.capi.Machine;
import io.openshiftagent.controlplane.names.ConditionUpdate;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** What the scaling and rollout tables are written in: fleets of Machines and decisions. */
final class MachineFixtures {
  private MachineFixtures() {}

  /** Machines m0, m1, ... created a day apart (oldest first), the first {@code ready} Ready. */
  static List<Machine> fleet(int count, int ready) {
    List<Machine> machines = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      Machine m = machine("m" + i, "2026-01-0" + (i + 1) + "T00:00:00Z", null);
      if (i < ready) {
        setReady(m);
      }
      machines.add(m);
    }
    return machines;
  }

  /**
   * Asserts the condition a decision reports: its reason ({@code null}: none), and that a reported
   * one is RollingOut True.
   */
  static void assertRollingOutReason(Optional<MachineScaling.Decision> decision, String reason) {
    Optional<ConditionUpdate> condition = decision.flatMap(MachineScaling.Decision::condition);
    assertThat(condition.map(ConditionUpdate::reason).orElse(null)).isEqualTo(reason);
    condition.ifPresent(
        c -> {
          assertThat(c.type()).isEqualTo("RollingOut");
          assertThat(c.status()).isEqualTo("True");
        });
  }

  /**
   * A decision as the tables name it: "create n", "delete <machine>", "replace <machine>", "wait"
   * or "steady".
   */
  static String describe(MachineScaling.Decision decision) {
    if (decision instanceof MachineScaling.Create create) {
      return "create " + create.count();
    }
    if (decision instanceof MachineScaling.Delete delete) {
      return "delete " + delete.machine().getMetadata().getName();
    }
    if (decision instanceof MachineScaling.Replace replace) {
      return "replace " + replace.machine().getMetadata().getName();
    }
    if (decision instanceof MachineScaling.Wait) {
      return "wait";
    }
    return "steady";
  }
}
