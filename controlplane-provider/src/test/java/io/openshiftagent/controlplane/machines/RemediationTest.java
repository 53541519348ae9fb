package io.openshiftagent.controlplane.machines;

import static io.openshiftagent.controlplane.Fixtures.condition;
import static io.openshiftagent.controlplane.Fixtures.machine;
import static org.assertj.core.api.Assertions.assertThat;

import io.openshiftagent.api.controlplane.v1alpha3.RemediationSpec;
import io.openshiftagent.api.external.capi.Machine;
import io.openshiftagent.api.external.capi.MachineStatus;
import io.openshiftagent.controlplane.names.ControlPlaneConditions;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Optional;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The remediation decision for each state of the control plane, KubeadmControlPlane's rules. */
class RemediationTest {
  static final Instant NOW = Instant.parse("2026-06-01T12:00:00Z");

  /** Three healthy Machines m0, m1, m2 (oldest first), each with a Node and Ready. */
  static List<Machine> healthy(int count) {
    List<Machine> machines = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      Machine m = machine("m" + i, "2026-01-0" + (i + 1) + "T00:00:00Z", null);
      m.setStatus(new MachineStatus());
      m.getStatus().nodeRef = new MachineStatus.NodeReference();
      m.getStatus().nodeRef.name = "node-" + i;
      m.getStatus().conditions =
          new ArrayList<>(List.of(condition("Ready", "True"), condition("Available", "True")));
      m.getMetadata().setAnnotations(new HashMap<>());
      machines.add(m);
    }
    return machines;
  }

  /** Marks the Machine as a MachineHealthCheck does when it leaves remediation to the owner. */
  static Machine marked(Machine m) {
    m.getStatus().conditions.removeIf(c -> c.getType().equals("Ready"));
    m.getStatus().conditions.add(condition("Ready", "False"));
    m.getStatus().conditions.add(condition("HealthCheckSucceeded", "False"));
    m.getStatus().conditions.add(condition("OwnerRemediated", "False"));
    return m;
  }

  static Machine at(List<Machine> machines, int i, UnaryOperator<Machine> change) {
    change.apply(machines.get(i));
    return machines.get(i);
  }

  record Case(
      List<Machine> machines,
      List<String> deleting,
      Optional<RemediationData> inProgress,
      RemediationSpec spec,
      boolean installed,
      Optional<String> upgrading) {
    Remediation.Decision decide() {
      return Remediation.decide(
          new Remediation.Inputs(machines, deleting, inProgress, spec, installed, upgrading, NOW));
    }
  }

  static Case installed(List<Machine> machines) {
    return new Case(machines, List.of(), Optional.empty(), null, true, Optional.empty());
  }

  static RemediationSpec spec(Integer maxRetry, Integer retryPeriod, Integer minHealthy) {
    RemediationSpec spec = new RemediationSpec();
    spec.maxRetry = maxRetry;
    spec.retryPeriodSeconds = retryPeriod;
    spec.minHealthyPeriodSeconds = minHealthy;
    return spec;
  }

  /** m1 marked, and replacing m9 remediated {@code ago}, {@code retries} retries in a row. */
  static List<Machine> replacementMarked(Duration ago, int retries) {
    List<Machine> machines = healthy(3);
    marked(machines.get(1))
        .getMetadata()
        .getAnnotations()
        .put(RemediationData.FOR, new RemediationData("m9", NOW.minus(ago), retries).toJson());
    return machines;
  }

  static Stream<Arguments> decisions() {
    List<Machine> threeOneMarked = healthy(3);
    marked(threeOneMarked.get(1));
    return Stream.of(
        // name, case, expected decision, Remediating reason, OwnerRemediated reason
        Arguments.of("all healthy", installed(healthy(3)), "nothing", "NotRemediating", null),
        Arguments.of(
            "one marked, the others healthy: it is deleted",
            installed(threeOneMarked),
            "remediate m1 retry 0",
            "Remediating",
            null),
        Arguments.of(
            "before the installation",
            new Case(marked3(), List.of(), Optional.empty(), null, false, Optional.empty()),
            "defer m1",
            "WaitingForInstallation",
            "RemediationDeferred"),
        Arguments.of(
            "during an upgrade",
            new Case(
                marked3(),
                List.of(),
                Optional.empty(),
                null,
                true,
                Optional.of("OpenShift 4.19.3 runs, spec.distributionVersion is 4.20.0")),
            "defer m1",
            "WaitingForUpgrade",
            "RemediationDeferred"),
        Arguments.of(
            "a single node",
            installed(List.of(marked(healthy(1).get(0)))),
            "defer m0",
            "SingleNode",
            "CannotBeRemediated"),
        Arguments.of(
            "the previous remediation's replacement is not made yet",
            new Case(
                marked3(),
                List.of(),
                Optional.of(new RemediationData("m7", NOW.minusSeconds(30), 0)),
                null,
                true,
                Optional.empty()),
            "defer m1",
            "WaitingForPreviousRemediation",
            "RemediationDeferred"),
        Arguments.of(
            "another Machine is being deleted",
            new Case(marked3(), List.of("m2"), Optional.empty(), null, true, Optional.empty()),
            "defer m1",
            "WaitingForMachineDeletion",
            "RemediationDeferred"),
        Arguments.of(
            "another Machine is being provisioned",
            installed(
                withMachine(
                    marked3(),
                    at(
                        healthy(4),
                        3,
                        m -> {
                          m.getStatus().nodeRef = null;
                          return m;
                        }))),
            "defer m1",
            "WaitingForMachineProvisioning",
            "RemediationDeferred"),
        Arguments.of(
            "another Machine is unhealthy too",
            installed(twoMarked()),
            "defer m1",
            "OtherMachinesUnhealthy",
            "RemediationDeferred"),
        Arguments.of(
            "another Machine is not Ready",
            installed(notReadyOther()),
            "defer m1",
            "OtherMachinesUnhealthy",
            "RemediationDeferred"),
        Arguments.of(
            "the Machine picked is being deleted already",
            new Case(marked3(), List.of("m1"), Optional.empty(), null, true, Optional.empty()),
            "nothing",
            "Remediating",
            null),
        Arguments.of(
            "a replacement fails within minHealthyPeriod, after retryPeriod: a retry",
            new Case(
                replacementMarked(Duration.ofMinutes(20), 0),
                List.of(),
                Optional.empty(),
                spec(3, 600, null),
                true,
                Optional.empty()),
            "remediate m1 retry 1",
            "Remediating",
            null),
        Arguments.of(
            "a replacement fails before retryPeriod has passed",
            new Case(
                replacementMarked(Duration.ofMinutes(5), 0),
                List.of(),
                Optional.empty(),
                spec(3, 600, null),
                true,
                Optional.empty()),
            "defer m1 recheck PT5M",
            "WaitingForRetryPeriod",
            "RemediationDeferred"),
        Arguments.of(
            "maxRetry reached",
            new Case(
                replacementMarked(Duration.ofMinutes(20), 2),
                List.of(),
                Optional.empty(),
                spec(2, 0, null),
                true,
                Optional.empty()),
            "defer m1",
            "MaxRetriesReached",
            "CannotBeRemediated"),
        Arguments.of(
            "a failure after minHealthyPeriod is unrelated: no retry",
            new Case(
                replacementMarked(Duration.ofHours(2), 2),
                List.of(),
                Optional.empty(),
                spec(2, 0, null),
                true,
                Optional.empty()),
            "remediate m1 retry 0",
            "Remediating",
            null),
        Arguments.of(
            "minHealthyPeriodSeconds bounds what counts as a retry",
            new Case(
                replacementMarked(Duration.ofMinutes(20), 2),
                List.of(),
                Optional.empty(),
                spec(2, 0, 600),
                true,
                Optional.empty()),
            "remediate m1 retry 0",
            "Remediating",
            null));
  }

  private static List<Machine> marked3() {
    List<Machine> machines = healthy(3);
    marked(machines.get(1));
    return machines;
  }

  private static List<Machine> twoMarked() {
    List<Machine> machines = marked3();
    marked(machines.get(2));
    return machines;
  }

  private static List<Machine> notReadyOther() {
    List<Machine> machines = marked3();
    machines.get(2).getStatus().conditions.removeIf(c -> c.getType().equals("Ready"));
    machines.get(2).getStatus().conditions.add(condition("Ready", "False"));
    return machines;
  }

  private static List<Machine> withMachine(List<Machine> machines, Machine extra) {
    List<Machine> all = new ArrayList<>(machines);
    all.add(extra);
    return all;
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("decisions")
  void decidesOneRemediationAtATime(
      String name, Case c, String expected, String reason, String ownerReason) {
    Remediation.Decision decision = c.decide();
    assertThat(describe(decision)).isEqualTo(expected);
    assertThat(decision.remediating().type()).isEqualTo(ControlPlaneConditions.REMEDIATING);
    assertThat(decision.remediating().reason()).isEqualTo(reason);
    assertThat(decision.remediating().status())
        .isEqualTo(reason.equals("NotRemediating") ? "False" : "True");
    if (decision instanceof Remediation.Defer defer) {
      assertThat(defer.ownerReason()).isEqualTo(ownerReason);
      assertThat(defer.remediating().message()).isNotBlank();
    }
  }

  @Test
  void eachWaitSaysWhyInItsMessage() {
    List<Machine> provisioning =
        withMachine(
            marked3(),
            at(
                healthy(4),
                3,
                m -> {
                  m.getStatus().nodeRef = null;
                  return m;
                }));
    assertThat(installed(provisioning).decide().remediating().message())
        .isEqualTo("waiting for [m3] to be provisioned before replacing m1");
    assertThat(installed(twoMarked()).decide().remediating().message())
        .startsWith("Machines [m2] are unhealthy or not Ready too")
        .endsWith("m1 waits");
    assertThat(
            new Case(marked3(), List.of("m0"), Optional.empty(), null, true, Optional.empty())
                .decide()
                .remediating()
                .message())
        .isEqualTo("waiting for [m0] to be deleted before replacing m1");
  }

  @Test
  void theMostBrokenMachineGoesFirst() {
    List<Machine> machines = healthy(5);
    marked(machines.get(1));
    marked(machines.get(3));
    // Two marked: both wait, but the message and OwnerRemediated are about the one picked first.
    assertThat(((Remediation.Defer) installed(machines).decide()).machine().getMetadata().getName())
        .isEqualTo("m1");
    machines.get(3).getMetadata().getAnnotations().put(Remediation.REMEDIATE_MACHINE, "");
    assertThat(((Remediation.Defer) installed(machines).decide()).machine().getMetadata().getName())
        .isEqualTo("m3");
    machines.get(3).getMetadata().getAnnotations().clear();
    machines.get(3).getStatus().nodeRef = null;
    assertThat(((Remediation.Defer) installed(machines).decide()).machine().getMetadata().getName())
        .isEqualTo("m3");
  }

  @Test
  void aMachineWhoseEtcdMemberOrComponentsAreUnhealthyGoesBeforeTheOlderOnes() {
    List<Machine> machines = healthy(5);
    marked(machines.get(1));
    marked(machines.get(3));
    for (Machine m : machines) {
      for (String type :
          List.of(
              "EtcdMemberHealthy",
              "APIServerPodHealthy",
              "ControllerManagerPodHealthy",
              "SchedulerPodHealthy")) {
        m.getStatus().conditions.add(condition(type, "True"));
      }
    }
    setCondition(machines.get(3), "SchedulerPodHealthy", "False");
    assertThat(((Remediation.Defer) installed(machines).decide()).machine().getMetadata().getName())
        .isEqualTo("m3");
    setCondition(machines.get(1), "APIServerPodHealthy", "Unknown");
    assertThat(((Remediation.Defer) installed(machines).decide()).machine().getMetadata().getName())
        .isEqualTo("m1");
    setCondition(machines.get(3), "EtcdMemberHealthy", "False");
    assertThat(((Remediation.Defer) installed(machines).decide()).machine().getMetadata().getName())
        .isEqualTo("m3");
  }

  private static void setCondition(Machine machine, String type, String status) {
    machine.getStatus().conditions.removeIf(c -> type.equals(c.getType()));
    machine.getStatus().conditions.add(condition(type, status));
  }

  @Test
  void aRemediationRecordsTheMachineTheTimeAndTheRetryCount() {
    Remediation.Remediate remediate =
        (Remediation.Remediate)
            new Case(
                    replacementMarked(Duration.ofMinutes(20), 1),
                    List.of(),
                    Optional.empty(),
                    spec(5, 60, null),
                    true,
                    Optional.empty())
                .decide();
    assertThat(remediate.data()).isEqualTo(new RemediationData("m1", NOW, 2));
    RemediationData read =
        RemediationData.from(
                java.util.Map.of(RemediationData.FOR, remediate.data().toJson()),
                RemediationData.FOR)
            .orElseThrow();
    assertThat(read).isEqualTo(remediate.data());
    assertThat(remediate.remediating().message())
        .isEqualTo(
            "deleting unhealthy Machine m1 (retry 2); a replacement is made from the current spec"
                + " once it is gone");
  }

  @Test
  void machinesHealthyAgainLoseTheirOwnerRemediatedCondition() {
    List<Machine> machines = healthy(3);
    Machine recovered = machines.get(0);
    recovered.getStatus().conditions.add(condition("HealthCheckSucceeded", "True"));
    recovered.getStatus().conditions.add(condition("OwnerRemediated", "False"));
    marked(machines.get(1));
    assertThat(Remediation.recovered(machines, List.of())).containsExactly(recovered);
    assertThat(Remediation.recovered(machines, List.of("m0"))).isEmpty();
  }

  @Test
  void aRemediationIsOverOnceAMachineWasMadeAfterIt() {
    RemediationData data = new RemediationData("m1", Instant.parse("2026-01-02T12:00:00Z"), 0);
    assertThat(RemediationData.isOver(data, healthy(2))).isFalse();
    assertThat(RemediationData.isOver(data, healthy(3))).isTrue();
  }

  @Test
  void lastRemediationIsTheOneInProgressElseTheNewestRecordedOnAMachine() {
    List<Machine> machines = healthy(3);
    RemediationData older = new RemediationData("a", NOW.minusSeconds(600), 0);
    RemediationData newer = new RemediationData("b", NOW.minusSeconds(60), 1);
    machines.get(0).getMetadata().getAnnotations().put(RemediationData.FOR, older.toJson());
    machines.get(2).getMetadata().getAnnotations().put(RemediationData.FOR, newer.toJson());
    assertThat(RemediationData.last(Optional.empty(), machines)).contains(newer);
    RemediationData current = new RemediationData("c", NOW, 0);
    assertThat(RemediationData.last(Optional.of(current), machines)).contains(current);
    assertThat(RemediationData.last(Optional.empty(), healthy(2))).isEmpty();
  }

  private static String describe(Remediation.Decision decision) {
    if (decision instanceof Remediation.Remediate r) {
      return "remediate " + r.machine().getMetadata().getName() + " retry " + r.data().retryCount();
    }
    if (decision instanceof Remediation.Defer d) {
      return "defer "
          + d.machine().getMetadata().getName()
          + d.recheckAfter().map(after -> " recheck " + after).orElse("");
    }
    return "nothing";
  }
}
