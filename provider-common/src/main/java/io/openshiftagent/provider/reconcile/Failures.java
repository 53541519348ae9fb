package io.openshiftagent.provider.reconcile;

/** A failure in words for a condition's message. */
public final class Failures {
  private Failures() {}

  /**
   * The failure's message, followed by its root cause's when the message does not say it: a
   * client's "Operation: [list] for kind: [Node] ... failed." hides the "Connection refused" a user
   * can act on.
   */
  public static String describe(Throwable failure) {
    Throwable root = failure;
    while (root.getCause() != null && root.getCause() != root) {
      root = root.getCause();
    }
    String message = String.valueOf(failure.getMessage());
    String cause = root.getMessage();
    if (root == failure || cause == null || message.contains(cause)) {
      return message;
    }
    return message + " (" + cause + ")";
  }
}
