package io.openshiftagent.bootstrap.config;

import static org.assertj.core.api.Assertions.assertThat;

import io.openshiftagent.api.bootstrap.v1alpha2.OpenshiftAssistedConfig;
import io.openshiftagent.api.bootstrap.v1alpha2.OpenshiftAssistedConfigStatus;
import io.openshiftagent.bootstrap.names.Reasons;
import java.time.Instant;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Which wait a config is in is a detail, and so is a new config's first wait; whether its data is
 * ready, it is paused or has a problem a user must act on is not.
 */
class ConfigStatusTest {
  private static final Instant T0 = Instant.parse("2026-11-26T10:00:00Z");

  @ParameterizedTest(name = "{0}: details only = {1}")
  @CsvSource({
    "another wait, true",
    "the same wait in other words, true",
    "ready, false",
    "paused, false",
    "a problem, false",
    "first report: a wait, true",
    "first report: a problem, false",
    "first report: ready, false",
    "first report: paused, false",
  })
  void onlyTheReasonAndMessageOfAWaitAreDetails(String change, boolean detailsOnly) {
    OpenshiftAssistedConfig config = new OpenshiftAssistedConfig();
    config.getMetadata().setGeneration(1L);
    OpenshiftAssistedConfigStatus stored =
        ConfigStatus.Outcome.waiting(Reasons.WAITING_FOR_DISCOVERY_IMAGE, "waiting for the ISO")
            .applyTo(new OpenshiftAssistedConfigStatus(), config, T0);
    boolean first = change.startsWith("first report: ");
    ConfigStatus.Outcome outcome =
        switch (change.replace("first report: ", "")) {
          case "another wait", "a wait" ->
              ConfigStatus.Outcome.waiting(
                  Reasons.WAITING_FOR_INFRASTRUCTURE_MACHINE, "waiting for Metal3Machine m");
          case "the same wait in other words" ->
              ConfigStatus.Outcome.waiting(
                  Reasons.WAITING_FOR_DISCOVERY_IMAGE, "waiting for the ISO of InfraEnv i");
          case "a problem" ->
              ConfigStatus.Outcome.waiting(
                  Reasons.INFRA_ENV_REFUSED, "the API server refused InfraEnv i: spec.x");
          case "ready" -> ConfigStatus.Outcome.ready("data");
          case "paused" -> ConfigStatus.Outcome.paused("the Cluster is paused");
          default -> throw new IllegalArgumentException(change);
        };
    OpenshiftAssistedConfigStatus desired =
        outcome.applyTo(
            first
                ? new OpenshiftAssistedConfigStatus()
                : ConfigStatus.Outcome.waiting(
                        Reasons.WAITING_FOR_DISCOVERY_IMAGE, "waiting for the ISO")
                    .applyTo(new OpenshiftAssistedConfigStatus(), config, T0),
            config,
            T0.plusSeconds(1));
    assertThat(ConfigStatus.onlyDetailsChanged(first ? null : stored, desired))
        .isEqualTo(detailsOnly);
  }
}
