package io.openshiftagent.api.common;

import io.fabric8.kubernetes.api.model.Condition;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Standard Kubernetes conditions kept in a list keyed by type. A condition's lastTransitionTime
 * changes only when its status changes, so status writes stay idempotent.
 */
public final class Conditions {
  public static final String TRUE = "True";
  public static final String FALSE = "False";
  public static final String UNKNOWN = "Unknown";

  private Conditions() {}

  public static Optional<Condition> find(List<Condition> conditions, String type) {
    if (conditions == null) {
      return Optional.empty();
    }
    return conditions.stream().filter(c -> type.equals(c.getType())).findFirst();
  }

  public static boolean isTrue(List<Condition> conditions, String type) {
    return find(conditions, type).map(c -> TRUE.equals(c.getStatus())).orElse(false);
  }

  /**
   * Returns a copy of {@code conditions} with {@code type} set. The transition time is kept when
   * the status does not change.
   */
  public static List<Condition> set(
      List<Condition> conditions,
      String type,
      String status,
      String reason,
      String message,
      Long observedGeneration,
      Instant now) {
    List<Condition> result = new ArrayList<>(conditions == null ? List.of() : conditions);
    Optional<Condition> existing = find(result, type);
    String transitionTime =
        existing
            .filter(c -> Objects.equals(c.getStatus(), status))
            .map(Condition::getLastTransitionTime)
            .orElse(now.truncatedTo(java.time.temporal.ChronoUnit.SECONDS).toString());
    Condition condition = new Condition();
    condition.setType(type);
    condition.setStatus(status);
    condition.setReason(reason);
    condition.setMessage(message == null ? "" : message);
    condition.setObservedGeneration(observedGeneration);
    condition.setLastTransitionTime(transitionTime);
    existing.ifPresentOrElse(
        old -> result.set(result.indexOf(old), condition), () -> result.add(condition));
    return result;
  }
}
