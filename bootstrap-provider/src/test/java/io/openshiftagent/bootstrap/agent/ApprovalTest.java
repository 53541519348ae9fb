package io.openshiftagent.bootstrap.agent;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** At most one Agent per InfraEnv: who holds the approval, and which reads that takes. */
class ApprovalTest {
  static Stream<Arguments> holders() {
    return Stream.of(
        // name, claimed, existing Agents, approved elsewhere, holder (null: unclaimed), reads
        Arguments.of(
            "nobody claimed it and nobody is approved", null, Set.of(), null, null, "approved"),
        Arguments.of("this Agent claimed it", "agent-a", Set.of(), null, "agent-a", ""),
        Arguments.of(
            "another Agent claimed it and exists",
            "agent-b",
            Set.of("agent-b"),
            null,
            "agent-b",
            "exists"),
        Arguments.of(
            "another Agent claimed it but is gone",
            "agent-b",
            Set.of(),
            null,
            null,
            "exists approved"),
        Arguments.of(
            "the claimant is gone and someone approved another",
            "agent-b",
            Set.of(),
            "agent-c",
            "agent-c",
            "exists approved"),
        Arguments.of(
            "unclaimed, but a person approved another Agent",
            null,
            Set.of("agent-c"),
            "agent-c",
            "agent-c",
            "approved"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("holders")
  void theHolderIsTheClaimantThatExistsElseAnApprovedAgentElseNobody(
      String name,
      String claimed,
      Set<String> existing,
      String approvedElsewhere,
      String expected,
      String expectedReads) {
    List<String> reads = new ArrayList<>();
    Approval.Holder holder =
        Approval.holder(
            "agent-a",
            claimed,
            agent -> {
              reads.add("exists");
              return existing.contains(agent);
            },
            () -> {
              reads.add("approved");
              return Optional.ofNullable(approvedElsewhere);
            });
    assertThat(holder)
        .isEqualTo(expected == null ? new Approval.Unclaimed() : new Approval.Held(expected));
    // Each read is a request to the API server: made only when the answer can change the holder.
    assertThat(String.join(" ", reads)).isEqualTo(expectedReads);
  }

  @Test
  void onlyTheHolderIsApproved() {
    assertThat(Approval.approves("agent-a", "agent-a")).isTrue();
    assertThat(Approval.approves("agent-a", "agent-b")).isFalse();
    // A claim lost to a writer who then removed it leaves no holder: not approved, tried again.
    assertThat(Approval.approves("agent-a", null)).isFalse();
  }

  @Test
  void theRefusalNamesTheInfraEnvTheHolderAndTheMachine() {
    assertThat(Approval.notApprovedBecause("ocp1-w-0", "agent-b", "ocp1-w-0"))
        .isEqualTo(
            "InfraEnv ocp1-w-0 already has approved Agent agent-b for Machine ocp1-w-0; a second"
                + " host booted the same discovery image");
  }
}
