package io.openshiftagent.bootstrap.agent;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.ConditionBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.openshiftagent.api.bootstrap.v1alpha2.OpenshiftAssistedConfig;
import io.openshiftagent.api.external.OwnedFieldsPatch;
import io.openshiftagent.api.external.assisted.Agent;
import io.openshiftagent.bootstrap.names.Names;
import io.openshiftagent.bootstrap.names.Reasons;
import io.openshiftagent.provider.reconcile.EventRecorder;
import io.openshiftagent.provider.reconcile.Metadata;
import io.openshiftagent.provider.reconcile.StatusCoalescing;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Why a host is stuck, where the user looks: the approved Agent of a config whose host fails
 * assisted-service's validations (no NTP source, a disk too small, no route to the API VIP...) for
 * longer than {@link #GRACE} before its installation is named on the config, and through its Ready
 * condition on the Machine (Cluster API mirrors it), with one Warning Event when the failure starts
 * or changes. The config's status has one writer, the config controller: this controller hands it
 * the message in an annotation of the config ({@link Names#HOST_VALIDATIONS_FAILING_ANNOTATION}),
 * which wakes it, and removes the annotation once the validations pass or the installation starts.
 *
 * <p>A registering host fails some validations for a few seconds (its first NTP check, its
 * inventory not yet in): only a failure that lasts is reported, so that an installation that goes
 * well writes nothing more.
 */
final class HostValidations {
  /** How long a host fails its validations before it is reported: 4 status windows, 60 s. */
  static final Duration GRACE = StatusCoalescing.WINDOW.multipliedBy(4);

  /** The Agent's condition where assisted-service sums up its host's validations. */
  static final String VALIDATED = "Validated";

  /** assisted-service's results of each of the host's validations, grouped (JSON). */
  static final String VALIDATIONS_INFO_ANNOTATION =
      "agent.agent-install.openshift.io/validations-info";

  private static final ObjectMapper JSON = new ObjectMapper();

  /** A validation's results that keep a host from installing. */
  private static final Set<String> NOT_PASSING = Set.of("failure", "pending", "error");

  /** Its reasons for failing validations: failing, or waiting for the user's input. */
  static final Set<String> FAILING_REASONS = Set.of("ValidationsFailing", "ValidationsUserPending");

  /** What an Agent's validations say now. */
  sealed interface Verdict {}

  /** Not the config's host (not approved): what it fails is not reported, nor cleared. */
  record NotTheConfigsHost() implements Verdict {}

  /** Nothing to report: the validations pass, are unknown, or no longer matter. */
  record Passing() implements Verdict {}

  /** Failing, but not for long enough: look again after {@code remaining}. */
  record FailingBriefly(Duration remaining) implements Verdict {}

  /** Failing since {@code since}, beyond the grace: {@code message} tells the user. */
  record Failing(String message, Instant since) implements Verdict {}

  private final KubernetesClient client;
  private final AgentCaches caches;
  private final EventRecorder events;

  HostValidations(KubernetesClient client, AgentCaches caches, EventRecorder events) {
    this.client = client;
    this.caches = caches;
    this.events = events;
  }

  /**
   * The verdict on {@code agent} at {@code now}. Pure: its table test is {@code
   * HostValidationsTest}. Only an approved Agent that has not started installing is judged: an
   * unapproved one is not the config's host (a second host that booted the same image), and an
   * installing one is past its validations.
   */
  static Verdict judge(Agent agent, Instant now) {
    if (agent.getSpec() == null || !Boolean.TRUE.equals(agent.getSpec().approved)) {
      return new NotTheConfigsHost();
    }
    if (InstallStage.started(agent)) {
      return new Passing();
    }
    Optional<Condition> validated = validated(agent);
    if (validated.isEmpty()
        || !"False".equals(validated.get().getStatus())
        || !FAILING_REASONS.contains(validated.get().getReason())
        || latestResultsPass(agent)) {
      return new Passing();
    }
    Instant since = since(validated.get()).orElse(now);
    Duration failingFor = Duration.between(since, now);
    if (failingFor.compareTo(GRACE) < 0) {
      return new FailingBriefly(GRACE.minus(failingFor));
    }
    String hostname =
        agent.getSpec().hostname != null ? agent.getSpec().hostname : Metadata.name(agent);
    return new Failing(
        "host "
            + hostname
            + " (Agent "
            + Metadata.name(agent)
            + ") fails assisted-service's validations since "
            + since
            + ", its installation waits: "
            + validated.get().getMessage(),
        since);
  }

  /**
   * Reports the verdict on {@code config}, the config the Agent was approved for; returns when to
   * look again, if the failure is not yet long enough to be reported.
   */
  Optional<Duration> report(Agent agent, OpenshiftAssistedConfig config, Instant now) {
    Verdict verdict = judge(agent, now);
    if (verdict instanceof NotTheConfigsHost) {
      // Its reconcile must not clear what the approved Agent told of the config's host.
      return Optional.empty();
    }
    String told = Metadata.annotation(config, Names.HOST_VALIDATIONS_FAILING_ANNOTATION);
    if (verdict instanceof Failing failing) {
      if (!failing.message().equals(told)) {
        annotate(config, failing.message());
        events.warning(config, Reasons.HOST_VALIDATIONS_FAILING, "Install", failing.message());
      }
      return Optional.empty();
    }
    if (told != null) {
      annotate(config, null);
    }
    return verdict instanceof FailingBriefly briefly
        ? Optional.of(briefly.remaining())
        : Optional.empty();
  }

  /**
   * Whether assisted-service's latest results, in the annotation it writes on the Agent before its
   * status, have nothing failing, pending or in error. The service may fail to write the status
   * after the annotation (a conflict) and try again only a minute later: a Validated condition
   * failing meanwhile is then out of date, and the host is not stuck.
   */
  static boolean latestResultsPass(Agent agent) {
    String results = Metadata.annotation(agent, VALIDATIONS_INFO_ANNOTATION);
    if (results == null) {
      return false;
    }
    try {
      JsonNode groups = JSON.readTree(results);
      if (!groups.isObject() || groups.isEmpty()) {
        return false;
      }
      for (JsonNode group : groups) {
        for (JsonNode validation : group) {
          if (NOT_PASSING.contains(validation.path("status").asText())) {
            return false;
          }
        }
      }
      return true;
    } catch (JsonProcessingException e) {
      return false;
    }
  }

  /** The Agent's Validated condition; the cache keeps it while the host has not installed. */
  static Optional<Condition> validated(Agent agent) {
    return agent.getStatus() == null || agent.getStatus().conditions == null
        ? Optional.empty()
        : agent.getStatus().conditions.stream()
            .filter(c -> VALIDATED.equals(c.getType()))
            .findFirst();
  }

  /** What the cache keeps of the Agent's conditions: its Validated condition, without heartbeat. */
  static List<Condition> validatedOnly(Agent agent) {
    return validated(agent).stream()
        .map(
            c ->
                new ConditionBuilder()
                    .withType(c.getType())
                    .withStatus(c.getStatus())
                    .withReason(c.getReason())
                    .withMessage(c.getMessage())
                    .withLastTransitionTime(c.getLastTransitionTime())
                    .build())
        .toList();
  }

  private static Optional<Instant> since(Condition condition) {
    try {
      return Optional.ofNullable(condition.getLastTransitionTime()).map(Instant::parse);
    } catch (DateTimeParseException e) {
      return Optional.empty();
    }
  }

  private void annotate(OpenshiftAssistedConfig config, String message) {
    caches.written(
        config,
        new OwnedFieldsPatch()
            .set(message, "metadata", "annotations", Names.HOST_VALIDATIONS_FAILING_ANNOTATION)
            .applyTo(client, config));
  }
}
