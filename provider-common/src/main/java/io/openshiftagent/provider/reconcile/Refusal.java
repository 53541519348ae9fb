package io.openshiftagent.provider.reconcile;

import io.fabric8.kubernetes.client.KubernetesClientException;
import java.util.Optional;

/**
 * A write the API server refused for what it contains: invalid for the target's schema (a peer's
 * CRD may be older or stricter than ours), or too large to store. Sent again unchanged it fails
 * again, so a reconciler reports it as a condition instead of throwing into a retry loop.
 */
public final class Refusal {
  static final int MAX_MESSAGE = 1024;

  private Refusal() {}

  /** The API server's reason, when {@code e} is such a refusal. */
  public static Optional<String> of(KubernetesClientException e) {
    String message =
        e.getStatus() != null && e.getStatus().getMessage() != null
            ? e.getStatus().getMessage()
            : String.valueOf(e.getMessage());
    boolean refused =
        e.getCode() == 400
            || e.getCode() == 413
            || e.getCode() == 422
            || (e.getCode() == 500 && message.contains("request is too large"));
    if (!refused) {
      return Optional.empty();
    }
    // It can quote the refused value, which may be huge.
    return Optional.of(
        message.length() <= MAX_MESSAGE ? message : message.substring(0, MAX_MESSAGE) + "...");
  }
}
