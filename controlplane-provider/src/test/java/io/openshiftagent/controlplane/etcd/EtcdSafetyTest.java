package io.openshiftagent.controlplane.etcd;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The etcd decisions on what OpenShift's etcd operator reports, in the words of its conditions
 * (cluster-etcd-operator's EtcdMembersController and the etcd ClusterOperator).
 */
class EtcdSafetyTest {
  /** etcds/cluster with the member conditions the operator writes for {@code message}. */
  static Map<String, Object> etcd(
      String membersMessage, boolean quorate, Map<String, Object> extra) {
    List<Map<String, Object>> conditions = new ArrayList<>();
    conditions.add(condition("EtcdMembersAvailable", quorate, membersMessage));
    conditions.add(
        condition(
            "EtcdMembersDegraded",
            membersMessage.contains("unhealthy"),
            membersMessage.contains("unhealthy") ? membersMessage : "No unhealthy members found"));
    conditions.add(condition("EtcdMembersControllerDegraded", false, ""));
    conditions.add(condition("NodeInstallerProgressing", false, "3 nodes are at revision 7"));
    Map<String, Object> etcd = new LinkedHashMap<>();
    etcd.put("metadata", Map.of("name", "cluster"));
    etcd.put("spec", Map.of());
    etcd.put("status", Map.of("conditions", conditions));
    etcd.putAll(extra);
    return etcd;
  }

  static Map<String, Object> etcd(String membersMessage) {
    return etcd(membersMessage, true, Map.of());
  }

  static Map<String, Object> clusterOperator(boolean available, String degradedMessage) {
    return Map.of(
        "status",
        Map.of(
            "conditions",
            List.of(
                condition("Available", available, "StaticPodsAvailable: 3 nodes are active"),
                condition("Degraded", !degradedMessage.isEmpty(), degradedMessage))));
  }

  static Map<String, Object> condition(String type, boolean status, String message) {
    return Map.of(
        "type", type, "status", status ? "True" : "False", "reason", "Test", "message", message);
  }

  static EtcdReport report(String membersMessage) {
    return EtcdReport.of(etcd(membersMessage), clusterOperator(true, ""));
  }

  static Stream<Arguments> removals() {
    return Stream.of(
        // name, report, member removed, refusal (fragment) or null
        Arguments.of("3 healthy: one may go", report("3 members are available"), "m0", null),
        Arguments.of(
            "3, one unhealthy: a healthy one may not go",
            report("2 of 3 members are available, m2 is unhealthy"),
            "m0",
            "would leave 1 healthy etcd members of 3, fewer than the 2 quorum needs (unhealthy: m2)"),
        Arguments.of(
            "3, one unhealthy: the unhealthy one may go",
            report("2 of 3 members are available, m2 is unhealthy"),
            "m2",
            null),
        Arguments.of(
            "4 healthy (a surge): one may go", report("4 members are available"), "m0", null),
        Arguments.of(
            "5, one unhealthy: a healthy one may go (4 stay, quorum 3)",
            report("4 of 5 members are available, m4 is unhealthy"),
            "m0",
            null),
        Arguments.of(
            "a member joining: wait for it",
            report("3 of 4 members are available, m3 has not started"),
            "m0",
            "etcd member(s) m3 have not started yet"),
        Arguments.of(
            "a host without a Node has no member",
            report("2 of 3 members are available, m2 is unhealthy"),
            null,
            null),
        Arguments.of(
            "a revision rolling out",
            rolling(),
            "m0",
            "etcd's static pods are rolling out to a new revision"),
        Arguments.of(
            "etcd not Available",
            EtcdReport.of(etcd("3 members are available"), clusterOperator(false, "")),
            "m0",
            "the etcd ClusterOperator is not Available"),
        Arguments.of(
            "the ClusterOperator Degraded for another reason than members",
            EtcdReport.of(
                etcd("3 members are available"),
                clusterOperator(true, "EtcdCertSignerControllerDegraded: cannot sign")),
            "m0",
            "the etcd ClusterOperator is Degraded: EtcdCertSignerControllerDegraded: cannot sign"),
        Arguments.of(
            "the ClusterOperator Degraded only by the unhealthy member being removed",
            EtcdReport.of(
                etcd("2 of 3 members are available, m2 is unhealthy"),
                clusterOperator(
                    true, "EtcdMembersDegraded: 2 of 3 members are available, m2 is unhealthy")),
            "m2",
            null),
        Arguments.of(
            "no etcd object",
            EtcdReport.of(null, clusterOperator(true, "")),
            "m0",
            "the installed cluster has no etcds.operator.openshift.io/cluster"),
        Arguments.of(
            "no quorum",
            EtcdReport.of(
                etcd(
                    "1 of 3 members are available, m1 is unhealthy, m2 is unhealthy",
                    false,
                    Map.of()),
                clusterOperator(true, "")),
            "m1",
            "etcd has no quorum"));
  }

  static EtcdReport rolling() {
    Map<String, Object> etcd = etcd("3 members are available");
    @SuppressWarnings("unchecked")
    List<Map<String, Object>> conditions =
        new ArrayList<>(
            (List<Map<String, Object>>)
                ((Map<String, Object>) etcd.get("status")).get("conditions"));
    conditions.removeIf(c -> c.get("type").equals("NodeInstallerProgressing"));
    conditions.add(
        condition(
            "NodeInstallerProgressing",
            true,
            "1 node is at revision 7; 2 nodes are at revision 8"));
    etcd.put("status", Map.of("conditions", conditions));
    return EtcdReport.of(etcd, clusterOperator(true, ""));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("removals")
  void aHostGoesOnlyWhenEtcdKeepsItsQuorum(
      String name, EtcdReport report, String member, String refusal) {
    Optional<String> why = EtcdSafety.whyNotRemovable(report, Optional.ofNullable(member));
    if (refusal == null) {
      assertThat(why).isEmpty();
    } else {
      assertThat(why).hasValueSatisfying(w -> assertThat(w).contains(refusal));
    }
  }

  @Test
  void theReportReadsTheOperatorsMessages() {
    EtcdReport report = report("2 of 4 members are available, m2 is unhealthy, m3 has not started");
    assertThat(report.members()).contains(4);
    assertThat(report.unhealthy()).containsExactly("m2");
    assertThat(report.notStarted()).containsExactly("m3");
    assertThat(report.healthy()).isEqualTo(2);
    assertThat(report.quorate()).isTrue();
    assertThat(report.problems()).isEmpty();
  }

  @Test
  void departedMembersAreUnhealthyWithoutNodeOrMachine() {
    EtcdReport report = report("1 of 3 members are available, m1 is unhealthy, m2 is unhealthy");
    assertThat(EtcdSafety.departed(report, Set.of("m0", "m1"), Set.of("m0", "m1")))
        .containsExactly("m2");
    assertThat(EtcdSafety.departed(report, Set.of("m0"), Set.of("m0", "m2"))).containsExactly("m1");
    assertThat(
            EtcdSafety.departed(
                EtcdReport.of(
                    etcd("1 of 3 members are available, m2 is unhealthy", false, Map.of()),
                    clusterOperator(true, "")),
                Set.of("m0"),
                Set.of()))
        .as("not without quorum: the operator's report may be stale")
        .isEmpty();
  }

  @Test
  void theQuorumGuardIsOffWhileBelowThreeMembersAndOnAgainAfter() {
    String us = "ns/cp";
    assertThat(EtcdSafety.quorumGuard(report("2 members are available"), 3, us))
        .isEqualTo(EtcdSafety.QuorumGuard.TURN_OFF);
    assertThat(
            EtcdSafety.quorumGuard(report("2 of 3 members are available, m2 is unhealthy"), 3, us))
        .as("the departed member goes first")
        .isEqualTo(EtcdSafety.QuorumGuard.LEAVE);
    assertThat(EtcdSafety.quorumGuard(report("3 members are available"), 3, us))
        .isEqualTo(EtcdSafety.QuorumGuard.LEAVE);
    EtcdReport offByUs =
        EtcdReport.of(
            etcd(
                "3 members are available",
                true,
                Map.of(
                    "metadata",
                    Map.of(
                        "name",
                        "cluster",
                        "annotations",
                        Map.of(EtcdReport.QUORUM_GUARD_OFF_BY, us)),
                    "spec",
                    Map.of(
                        "unsupportedConfigOverrides",
                        Map.of(EtcdReport.QUORUM_GUARD_OVERRIDE, true)))),
            clusterOperator(true, ""));
    assertThat(offByUs.quorumGuardOff()).isTrue();
    assertThat(EtcdSafety.quorumGuard(offByUs, 3, us))
        .isEqualTo(EtcdSafety.QuorumGuard.TURN_BACK_ON);
    assertThat(EtcdSafety.quorumGuard(offByUs, 3, "other/cp"))
        .as("only what we turned off")
        .isEqualTo(EtcdSafety.QuorumGuard.LEAVE);
    EtcdReport offByUser =
        EtcdReport.of(
            etcd(
                "3 members are available",
                true,
                Map.of(
                    "spec",
                    Map.of(
                        "unsupportedConfigOverrides",
                        Map.of(EtcdReport.QUORUM_GUARD_OVERRIDE, "true")))),
            clusterOperator(true, ""));
    assertThat(EtcdSafety.quorumGuard(offByUser, 3, us)).isEqualTo(EtcdSafety.QuorumGuard.LEAVE);
    assertThat(EtcdSafety.quorumGuard(report("1 members are available"), 1, us))
        .as("a single node has no guard to turn off")
        .isEqualTo(EtcdSafety.QuorumGuard.LEAVE);
  }

  @Test
  void healthSaysWhatIsWrong() {
    assertThat(EtcdSafety.health(report("3 members are available")))
        .extracting(c -> c.status(), c -> c.reason(), c -> c.message())
        .containsExactly("True", "Healthy", "all 3 etcd members are healthy");
    assertThat(EtcdSafety.health(report("2 of 3 members are available, m2 is unhealthy")))
        .extracting(c -> c.status(), c -> c.reason(), c -> c.message())
        .containsExactly(
            "False", "NotHealthy", "2 of 3 etcd members are healthy; unhealthy members: m2");
  }
}
