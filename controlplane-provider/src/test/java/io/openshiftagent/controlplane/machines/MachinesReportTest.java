package io.openshiftagent.controlplane.machines;

import static org.assertj.core.api.Assertions.assertThat;

import io.openshiftagent.controlplane.names.ConditionUpdate;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** When the Machines are settled, so that the installed cluster may be looked at less often. */
class MachinesReportTest {
  private static final List<String[]> SETTLED =
      List.of(
          new String[] {"Remediating", "False"},
          new String[] {"ScalingUp", "False"},
          new String[] {"ScalingDown", "False"},
          new String[] {"RollingOut", "False"},
          new String[] {"MachinesReady", "True"},
          new String[] {"MachinesUpToDate", "True"},
          new String[] {"EtcdClusterHealthy", "True"});

  @ParameterizedTest(name = "{0}={1}: settled {2}")
  @CsvSource({
    "none, , true",
    "Remediating, True, false",
    "ScalingUp, True, false",
    "ScalingDown, True, false",
    "RollingOut, True, false",
    "MachinesReady, False, false",
    "MachinesUpToDate, False, false",
    "EtcdClusterHealthy, False, false",
    "EtcdClusterHealthy, Unknown, false",
  })
  void settledOnlyWhenNothingIsUnderWay(String changed, String status, boolean settled) {
    List<ConditionUpdate> conditions = new ArrayList<>();
    for (String[] c : SETTLED) {
      conditions.add(
          new ConditionUpdate(c[0], c[0].equals(changed) ? status : c[1], "Reason", "message"));
    }
    assertThat(report(conditions, Set.of()).settled()).isEqualTo(settled);
  }

  @Test
  void notSettledWhenAMachineWasDeletedNow() {
    assertThat(report(List.of(), Set.of("uid-1")).settled()).isFalse();
  }

  private static MachinesReport report(List<ConditionUpdate> conditions, Set<String> deleted) {
    return new MachinesReport(
        conditions,
        new MachineStatus.Counts(3, 3, 3, 3),
        List.of(),
        Optional.empty(),
        false,
        deleted,
        MachinesReport.Memory.NONE);
  }
}
