package io.openshiftagent.bootstrap.config;

import io.fabric8.kubernetes.client.utils.Serialization;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.UpdateControl;
import io.openshiftagent.api.bootstrap.v1alpha2.OpenshiftAssistedConfig;
import io.openshiftagent.api.bootstrap.v1alpha2.OpenshiftAssistedConfigStatus;
import io.openshiftagent.api.common.Conditions;
import io.openshiftagent.bootstrap.names.Reasons;
import io.openshiftagent.provider.reconcile.StatusCoalescing;
import io.openshiftagent.provider.reconcile.Writes;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * The one writer of OpenshiftAssistedConfig status: where a reconcile ended ({@link Outcome})
 * becomes the Paused, DataSecretAvailable, Ready and InstallationDiskFound conditions and the data
 * secret name (Ready also says when the host fails assisted-service's validations), applied
 * server-side only when they changed ({@link Writes#applyPrimaryStatus}). A change of the wait's
 * reason or message alone is a detail ({@link StatusCoalescing}): a config goes through several
 * waits in a few seconds, and Cluster API acts only on the data Secret being ready.
 */
final class ConfigStatus {
  /** The prefix of every reason that is a wait, not a problem. */
  private static final String WAITING = "WaitingFor";

  /**
   * A new config's waits are the normal course of its Machine's creation; on a busy hub they last
   * minutes (about 100 s to its bootstrap data with 50 clusters applied together), so they are
   * written only beyond this, 2 minutes ({@link StatusCoalescing#WINDOW_PROPERTY}). A problem is
   * written at once.
   */
  static final Duration FIRST_WINDOW = StatusCoalescing.WINDOW.multipliedBy(8);

  private final StatusCoalescing writes = new StatusCoalescing(Instant::now, FIRST_WINDOW);

  /**
   * Where a reconcile ended: a wait with its reason, paused, or the bootstrap data ready.
   *
   * @param hostTrouble with the data ready: what holds its host's installation back; else null
   */
  record Outcome(
      boolean paused,
      String reason,
      String message,
      String dataSecretName,
      Duration recheckAfter,
      HostTrouble hostTrouble) {

    static Outcome waiting(String reason, String message) {
      return new Outcome(false, reason, message, null, null, null);
    }

    static Outcome paused(String message) {
      return new Outcome(true, Reasons.PAUSED, message, null, null, null);
    }

    static Outcome ready(String dataSecretName) {
      String available = "bootstrap data Secret " + dataSecretName + " is available";
      return new Outcome(false, Reasons.SECRET_AVAILABLE, available, dataSecretName, null, null);
    }

    Outcome recheckAfter(Duration delay) {
      return new Outcome(paused, reason, message, dataSecretName, delay, hostTrouble);
    }

    /** The data ready, and its host's installation held back by {@code trouble} (null: none). */
    Outcome hostTrouble(HostTrouble trouble) {
      return new Outcome(paused, reason, message, dataSecretName, recheckAfter, trouble);
    }

    boolean ready() {
      return dataSecretName != null;
    }

    /** {@code status} as this outcome reports it. */
    OpenshiftAssistedConfigStatus applyTo(
        OpenshiftAssistedConfigStatus status, OpenshiftAssistedConfig config, Instant now) {
      Long generation = config.getMetadata().getGeneration();
      if (paused) {
        status.conditions =
            Conditions.set(
                status.conditions,
                Reasons.PAUSED,
                Conditions.TRUE,
                Reasons.PAUSED,
                message,
                generation,
                now);
        // Paused: nothing else was observed, so nothing else is reported.
        return status;
      }
      status.conditions =
          Conditions.set(
              status.conditions,
              Reasons.PAUSED,
              Conditions.FALSE,
              Reasons.NOT_PAUSED,
              "",
              generation,
              now);
      String conditionStatus = ready() ? Conditions.TRUE : Conditions.FALSE;
      status.conditions =
          Conditions.set(
              status.conditions,
              Reasons.DATA_SECRET_AVAILABLE,
              conditionStatus,
              reason,
              message,
              generation,
              now);
      HostTrouble trouble = ready() ? hostTrouble : null;
      status.conditions =
          Conditions.set(
              status.conditions,
              Reasons.READY,
              ready() && trouble == null ? Conditions.TRUE : Conditions.FALSE,
              trouble != null ? trouble.reason() : ready() ? Reasons.READY : reason,
              trouble != null ? trouble.message() : message,
              generation,
              now);
      if (trouble != null && trouble.isNoInstallationDisk()) {
        status.conditions =
            Conditions.set(
                status.conditions,
                Reasons.INSTALLATION_DISK_FOUND,
                Conditions.FALSE,
                trouble.reason(),
                trouble.message(),
                generation,
                now);
      } else if (ready()
          && Conditions.find(status.conditions, Reasons.INSTALLATION_DISK_FOUND).isPresent()) {
        // Only a config that reported no disk has this condition: it says that is over.
        status.conditions =
            Conditions.set(
                status.conditions,
                Reasons.INSTALLATION_DISK_FOUND,
                Conditions.TRUE,
                Reasons.ROOT_DEVICE_HINTS_MATCHED,
                "a disk of the host matches its BareMetalHost's rootDeviceHints: its Agent is"
                    + " approved",
                generation,
                now);
      }
      if (ready()) {
        status.dataSecretName = dataSecretName;
        status.initialization = new OpenshiftAssistedConfigStatus.Initialization();
        status.initialization.dataSecretCreated = true;
      }
      status.observedGeneration = generation;
      return status;
    }
  }

  /** Writes the status (if anything changed); returns the next look (if the outcome asks one). */
  UpdateControl<OpenshiftAssistedConfig> report(
      OpenshiftAssistedConfig config, Outcome outcome, Context<OpenshiftAssistedConfig> context) {
    OpenshiftAssistedConfigStatus current =
        config.getStatus() == null ? new OpenshiftAssistedConfigStatus() : config.getStatus();
    OpenshiftAssistedConfigStatus status = outcome.applyTo(copy(current), config, Instant.now());
    Optional<Duration> later = Optional.empty();
    if (!Serialization.asJson(status).equals(Serialization.asJson(current))) {
      boolean detailsOnly = onlyDetailsChanged(config.getStatus(), status);
      later = writes.deferral(config, detailsOnly);
      if (later.isEmpty()) {
        apply(config, status, context);
        writes.written(config, detailsOnly);
      }
    }
    UpdateControl<OpenshiftAssistedConfig> control = UpdateControl.noUpdate();
    return StatusCoalescing.earliest(Optional.ofNullable(outcome.recheckAfter()), later)
        .map(control::rescheduleAfter)
        .orElse(control);
  }

  /**
   * Reports what a deletion waits for, as its Deleting condition (True since the first wait; the
   * reason and message follow the wait), at once when it changed: a deletion is rare, and its waits
   * are what a user looks for when it does not end.
   */
  void reportDeleting(
      OpenshiftAssistedConfig config,
      String reason,
      String message,
      Context<OpenshiftAssistedConfig> context) {
    OpenshiftAssistedConfigStatus current =
        config.getStatus() == null ? new OpenshiftAssistedConfigStatus() : config.getStatus();
    OpenshiftAssistedConfigStatus status = copy(current);
    status.conditions =
        Conditions.set(
            status.conditions,
            Reasons.DELETING,
            Conditions.TRUE,
            reason,
            message,
            config.getMetadata().getGeneration(),
            Instant.now());
    if (!Serialization.asJson(status).equals(Serialization.asJson(current))) {
      apply(config, status, context);
    }
  }

  /** Server-side apply of a fresh object that holds only the status we own. */
  private static void apply(
      OpenshiftAssistedConfig config,
      OpenshiftAssistedConfigStatus status,
      Context<OpenshiftAssistedConfig> context) {
    OpenshiftAssistedConfig patch = new OpenshiftAssistedConfig();
    patch.getMetadata().setName(config.getMetadata().getName());
    patch.getMetadata().setNamespace(config.getMetadata().getNamespace());
    patch.setStatus(status);
    Writes.applyPrimaryStatus(context, config, patch);
  }

  /** {@code config} is gone. */
  void forget(OpenshiftAssistedConfig config) {
    writes.forget(config);
  }

  /**
   * Whether {@code desired} differs from {@code stored} in details only: it reports a wait ({@code
   * WaitingFor…}: the Cluster, its infrastructure, assisted-service's image...) and differs only in
   * which wait and its message, or is a new config's first wait. Nothing acts on a wait, and a new
   * config's next step often follows within seconds (the live ISO of a new InfraEnv). Whether the
   * data is ready or the config paused, and a problem a user must act on (a refused InfraEnv, an
   * invalid override), are written at once.
   */
  static boolean onlyDetailsChanged(
      OpenshiftAssistedConfigStatus stored, OpenshiftAssistedConfigStatus desired) {
    boolean waiting =
        desired.dataSecretName == null
            && !Conditions.isTrue(desired.conditions, Reasons.PAUSED)
            && Conditions.find(desired.conditions, Reasons.DATA_SECRET_AVAILABLE)
                .map(c -> c.getReason() != null && c.getReason().startsWith(WAITING))
                .orElse(false);
    if (!waiting) {
      return false;
    }
    if (stored == null || stored.conditions == null || stored.conditions.isEmpty()) {
      return true;
    }
    return Serialization.asJson(withoutDetails(stored))
        .equals(Serialization.asJson(withoutDetails(desired)));
  }

  private static OpenshiftAssistedConfigStatus withoutDetails(
      OpenshiftAssistedConfigStatus status) {
    OpenshiftAssistedConfigStatus copy = copy(status);
    if (copy.conditions != null) {
      copy.conditions.forEach(
          condition -> {
            condition.setReason(null);
            condition.setMessage(null);
          });
    }
    return copy;
  }

  /** Whether the config reported its bootstrap data created (it is never taken back). */
  static boolean dataSecretCreated(OpenshiftAssistedConfig config) {
    return config.getStatus() != null
        && config.getStatus().initialization != null
        && Boolean.TRUE.equals(config.getStatus().initialization.dataSecretCreated);
  }

  private static OpenshiftAssistedConfigStatus copy(OpenshiftAssistedConfigStatus status) {
    return Serialization.unmarshal(
        Serialization.asJson(status), OpenshiftAssistedConfigStatus.class);
  }
}
