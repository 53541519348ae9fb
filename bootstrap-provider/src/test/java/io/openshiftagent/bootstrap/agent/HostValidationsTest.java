package io.openshiftagent.bootstrap.agent;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ConditionBuilder;
import io.openshiftagent.api.external.assisted.Agent;
import io.openshiftagent.api.external.assisted.AgentSpec;
import io.openshiftagent.api.external.assisted.AgentStatus;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Which Agents' validations are reported, and from when. */
class HostValidationsTest {
  private static final Instant NOW = Instant.parse("2026-11-29T12:00:00Z");
  private static final String NTP =
      "The agent's validations are failing: Host couldn't synchronize with any NTP server";

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          # case                                          | approved | stage                 | status  | reason                 | failing for (graces) | latest results | verdict
          failing beyond the grace                        | true     |                       | False   | ValidationsFailing     | 1.5                  |                | Failing
          waiting for the user beyond the grace           | true     |                       | False   | ValidationsUserPending | 10                   |                | Failing
          failing exactly the grace                       | true     |                       | False   | ValidationsFailing     | 1                    |                | Failing
          failing briefly, as a host registering          | true     |                       | False   | ValidationsFailing     | 0.25                 |                | FailingBriefly
          passing                                         | true     |                       | True    | ValidationsPassing     | 10                   |                | Passing
          not known yet                                   | true     |                       | Unknown | ValidationsUnknown     | 10                   |                | Passing
          binding                                         | true     |                       | False   | Binding                | 10                   |                | Passing
          not approved: not the config's host             | false    |                       | False   | ValidationsFailing     | 10                   |                | NotTheConfigsHost
          installing: past its validations                | true     | Writing image to disk | False   | ValidationsFailing     | 10                   |                | Passing
          no condition                                    | true     |                       |         |                        | 0                    |                | Passing
          failing, and so the service's latest results    | true     |                       | False   | ValidationsFailing     | 1.5                  | failure        | Failing
          waiting for the user, as the latest results say | true     |                       | False   | ValidationsUserPending | 10                   | pending        | Failing
          failing, with latest results in error           | true     |                       | False   | ValidationsFailing     | 1.5                  | error          | Failing
          failing, latest results unreadable              | true     |                       | False   | ValidationsFailing     | 1.5                  | {not json      | Failing
          failing as a status the service did not update  | true     |                       | False   | ValidationsFailing     | 1.5                  | success        | Passing
          """)
  void judgesOnlyAnApprovedHostBeforeItsInstallationFailingForLongerThanTheGrace(
      String name,
      boolean approved,
      String stage,
      String status,
      String reason,
      double failingForGraces,
      String latestResults,
      String verdict) {
    Agent agent = new Agent();
    agent.getMetadata().setName("a");
    agent.setSpec(new AgentSpec());
    agent.getSpec().approved = approved;
    agent.getSpec().hostname = "host-0";
    if (latestResults != null) {
      agent
          .getMetadata()
          .setAnnotations(
              Map.of(HostValidations.VALIDATIONS_INFO_ANNOTATION, validationsInfo(latestResults)));
    }
    agent.setStatus(new AgentStatus());
    if (stage != null) {
      agent.getStatus().progress = new AgentStatus.Progress();
      agent.getStatus().progress.currentStage = stage;
    }
    Duration failingFor =
        Duration.ofMillis(Math.round(HostValidations.GRACE.toMillis() * failingForGraces));
    Instant since = NOW.minus(failingFor);
    if (status != null) {
      agent.getStatus().conditions =
          List.of(
              new ConditionBuilder()
                  .withType("Validated")
                  .withStatus(status)
                  .withReason(reason)
                  .withMessage(NTP)
                  .withLastTransitionTime(since.toString())
                  .build());
    }

    HostValidations.Verdict judged = HostValidations.judge(agent, NOW);

    assertThat(judged.getClass().getSimpleName()).isEqualTo(verdict);
    if (judged instanceof HostValidations.Failing failing) {
      assertThat(failing.since()).isEqualTo(since);
      assertThat(failing.message())
          .isEqualTo(
              "host host-0 (Agent a) fails assisted-service's validations since "
                  + since
                  + ", its installation waits: "
                  + NTP);
    }
    if (judged instanceof HostValidations.FailingBriefly briefly) {
      assertThat(briefly.remaining()).isEqualTo(HostValidations.GRACE.minus(failingFor));
    }
  }

  /**
   * The annotation as assisted-service writes it: the host's validations by group, one of them with
   * the status {@code last} (or {@code last} itself when it is not a status: unreadable).
   */
  private static String validationsInfo(String last) {
    if (last.startsWith("{")) {
      return last;
    }
    return "{\"hardware\":[{\"id\":\"has-inventory\",\"status\":\"success\","
        + "\"message\":\"Valid inventory exists for the host\"}],"
        + "\"network\":[{\"id\":\"ntp-synced\",\"status\":\"success\",\"message\":\"ok\"},"
        + "{\"id\":\"belongs-to-majority-group\",\"status\":\""
        + last
        + "\",\"message\":\"m\"},"
        + "{\"id\":\"api-domain-name-resolved-correctly\",\"status\":\"disabled\","
        + "\"message\":\"m\"}]}";
  }

  @org.junit.jupiter.api.Test
  void theCacheKeepsOnlyTheValidatedCondition() {
    Agent agent = new Agent();
    agent.setStatus(new AgentStatus());
    agent.getStatus().conditions =
        List.of(
            new ConditionBuilder().withType("SpecSynced").withStatus("True").build(),
            new ConditionBuilder()
                .withType("Validated")
                .withStatus("False")
                .withReason("ValidationsFailing")
                .withMessage(NTP)
                .withLastTransitionTime("2026-11-29T12:00:00Z")
                .withObservedGeneration(3L)
                .build());
    assertThat(HostValidations.validatedOnly(agent))
        .singleElement()
        .satisfies(
            c -> {
              assertThat(c.getType()).isEqualTo("Validated");
              assertThat(c.getMessage()).isEqualTo(NTP);
              assertThat(c.getLastTransitionTime()).isEqualTo("2026-11-29T12:00:00Z");
              assertThat(c.getObservedGeneration()).isNull();
            });
  }
}
