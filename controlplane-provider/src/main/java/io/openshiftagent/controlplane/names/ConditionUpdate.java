package io.openshiftagent.controlplane.names;

import io.openshiftagent.api.common.Conditions;

/** A condition as a decision sets it: type, status, reason and message. */
public record ConditionUpdate(String type, String status, String reason, String message) {
  public static ConditionUpdate isTrue(String type, String reason, String message) {
    return new ConditionUpdate(type, Conditions.TRUE, reason, message);
  }

  public static ConditionUpdate isFalse(String type, String reason, String message) {
    return new ConditionUpdate(type, Conditions.FALSE, reason, message);
  }
}
