package io.openshiftagent.bootstrap.config;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.openshiftagent.api.bootstrap.v1alpha2.OpenshiftAssistedConfig;
import io.openshiftagent.api.bootstrap.v1alpha2.OpenshiftAssistedConfigStatus;
import io.openshiftagent.api.common.Conditions;
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

  @org.junit.jupiter.api.Test
  void noDiskMatchingTheHintsMakesTheReadyDataNotReadyUntilOneMatches() {
    OpenshiftAssistedConfig config = new OpenshiftAssistedConfig();
    config.getMetadata().setGeneration(1L);
    OpenshiftAssistedConfigStatus ready =
        ConfigStatus.Outcome.ready("data").applyTo(new OpenshiftAssistedConfigStatus(), config, T0);
    assertThat(Conditions.find(ready.conditions, Reasons.INSTALLATION_DISK_FOUND)).isEmpty();

    String why = "Agent a is not approved: no disk matches rootDeviceHints {rotational: true}";
    OpenshiftAssistedConfigStatus noDisk =
        ConfigStatus.Outcome.ready("data")
            .hostTrouble(HostTrouble.noInstallationDisk(why))
            .applyTo(copy(ready), config, T0.plusSeconds(1));
    assertThat(noDisk.dataSecretName).isEqualTo("data");
    assertThat(noDisk.initialization.dataSecretCreated).isTrue();
    assertThat(Conditions.isTrue(noDisk.conditions, Reasons.DATA_SECRET_AVAILABLE)).isTrue();
    Condition notReady = Conditions.find(noDisk.conditions, Reasons.READY).orElseThrow();
    assertThat(notReady.getStatus()).isEqualTo(Conditions.FALSE);
    assertThat(notReady.getReason()).isEqualTo(Reasons.NO_DISK_MATCHES_ROOT_DEVICE_HINTS);
    assertThat(notReady.getMessage()).isEqualTo(why);
    Condition found = Conditions.find(noDisk.conditions, Reasons.INSTALLATION_DISK_FOUND).get();
    assertThat(found.getStatus()).isEqualTo(Conditions.FALSE);
    assertThat(found.getReason()).isEqualTo(Reasons.NO_DISK_MATCHES_ROOT_DEVICE_HINTS);
    // A problem the user must act on: written at once.
    assertThat(ConfigStatus.onlyDetailsChanged(ready, noDisk)).isFalse();

    OpenshiftAssistedConfigStatus matched =
        ConfigStatus.Outcome.ready("data").applyTo(copy(noDisk), config, T0.plusSeconds(2));
    assertThat(Conditions.isTrue(matched.conditions, Reasons.READY)).isTrue();
    found = Conditions.find(matched.conditions, Reasons.INSTALLATION_DISK_FOUND).get();
    assertThat(found.getStatus()).isEqualTo(Conditions.TRUE);
    assertThat(found.getReason()).isEqualTo(Reasons.ROOT_DEVICE_HINTS_MATCHED);
  }

  @org.junit.jupiter.api.Test
  void aHostFailingItsValidationsMakesTheReadyDataNotReadyUntilTheyPass() {
    OpenshiftAssistedConfig config = new OpenshiftAssistedConfig();
    config.getMetadata().setGeneration(1L);
    OpenshiftAssistedConfigStatus ready =
        ConfigStatus.Outcome.ready("data").applyTo(new OpenshiftAssistedConfigStatus(), config, T0);

    String why = "host host-0 (Agent a) fails assisted-service's validations since ...: NTP";
    OpenshiftAssistedConfigStatus failing =
        ConfigStatus.Outcome.ready("data")
            .hostTrouble(HostTrouble.validationsFailing(why))
            .applyTo(copy(ready), config, T0.plusSeconds(1));
    assertThat(failing.dataSecretName).isEqualTo("data");
    assertThat(Conditions.isTrue(failing.conditions, Reasons.DATA_SECRET_AVAILABLE)).isTrue();
    Condition notReady = Conditions.find(failing.conditions, Reasons.READY).orElseThrow();
    assertThat(notReady.getStatus()).isEqualTo(Conditions.FALSE);
    assertThat(notReady.getReason()).isEqualTo(Reasons.HOST_VALIDATIONS_FAILING);
    assertThat(notReady.getMessage()).isEqualTo(why);
    assertThat(Conditions.find(failing.conditions, Reasons.INSTALLATION_DISK_FOUND)).isEmpty();
    assertThat(ConfigStatus.onlyDetailsChanged(ready, failing)).isFalse();

    OpenshiftAssistedConfigStatus passing =
        ConfigStatus.Outcome.ready("data").applyTo(copy(failing), config, T0.plusSeconds(3));
    assertThat(Conditions.isTrue(passing.conditions, Reasons.READY)).isTrue();
  }

  private static OpenshiftAssistedConfigStatus copy(OpenshiftAssistedConfigStatus status) {
    return Serialization.unmarshal(
        Serialization.asJson(status), OpenshiftAssistedConfigStatus.class);
  }
}
