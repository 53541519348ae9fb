package io.openshiftagent.bootstrap.agent;

import java.util.Optional;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * Which Agent of an InfraEnv is approved: at most one, the one holding the InfraEnv's claim (an
 * annotation set by compare-and-swap on its resourceVersion). The claim of an Agent that no longer
 * exists is free again; an Agent approved by someone else (a person, or before claims existed)
 * holds it as well. A pure rule: the reads it may need are passed in and made only when needed.
 */
final class Approval {
  private Approval() {}

  /** Who holds the approval, as far as can be told before claiming it. */
  sealed interface Holder {}

  /** {@code agent} holds it. */
  record Held(String agent) implements Holder {}

  /** Nobody: the Agent asking may claim it. */
  record Unclaimed() implements Holder {}

  /**
   * @param agent the Agent asking
   * @param claimed the InfraEnv's claim annotation, or null
   * @param exists whether an Agent of that name exists (read only for another Agent's claim)
   * @param approvedElsewhere another Agent of the InfraEnv already approved (read only when the
   *     claim is free)
   */
  static Holder holder(
      String agent,
      String claimed,
      Predicate<String> exists,
      Supplier<Optional<String>> approvedElsewhere) {
    if (claimed != null && (claimed.equals(agent) || exists.test(claimed))) {
      return new Held(claimed);
    }
    Optional<String> other = approvedElsewhere.get();
    if (other.isPresent()) {
      // Approved by someone else: that one is the host.
      return new Held(other.get());
    }
    return new Unclaimed();
  }

  /** Whether {@code agent} is approved, given the holder (null when a lost claim left none). */
  static boolean approves(String agent, String holder) {
    return agent.equals(holder);
  }

  /** Why an Agent is not approved: recorded once on it, and as an Event. */
  static String notApprovedBecause(String infraEnv, String holder, String machine) {
    return "InfraEnv "
        + infraEnv
        + " already has approved Agent "
        + holder
        + " for Machine "
        + machine
        + "; a second host booted the same discovery image";
  }
}
