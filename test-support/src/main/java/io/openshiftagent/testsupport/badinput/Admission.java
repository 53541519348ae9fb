package io.openshiftagent.testsupport.badinput;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Status;
import io.fabric8.kubernetes.api.model.StatusCause;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.UnaryOperator;

/**
 * Submits a variant to the API server and checks what admission did against the variant's verdict:
 * a variant that must be admitted is; one that must be refused is, with HTTP 422 and a message that
 * names the field of at least one of its refusable changes. The one exception is an object too
 * large for etcd once stored (see {@link StoredSize}), which the API server refuses for its size. A
 * failed check throws AssertionError.
 */
public final class Admission {
  private Admission() {}

  /**
   * A client for submitting variants: it does not retry, and gives up after 5 s (the largest
   * admitted objects take well under a second), since the API server answers an oversized request
   * by resetting the stream, which the client would otherwise wait out and retry for minutes. The
   * caller closes it.
   */
  public static KubernetesClient client(String kubeConfigYaml) {
    return new KubernetesClientBuilder()
        .withConfig(
            new ConfigBuilder(Config.fromKubeconfig(kubeConfigYaml))
                .withRequestRetryBackoffLimit(0)
                .withRequestTimeout(5_000)
                .build())
        .build();
  }

  /** The admitted object, or empty when admission refused it (as it had to). */
  public static Optional<GenericKubernetesResource> submit(
      KubernetesClient client, String namespace, String name, SpecVariant variant, Tally tally) {
    return submit(
        client, variant, variant.toObject(namespace, name), UnaryOperator.identity(), tally);
  }

  /**
   * Like {@link #submit(KubernetesClient, String, String, SpecVariant)}, with {@code beforeCreate}
   * adding what the world needs (owner references, labels) to the object.
   */
  public static Optional<GenericKubernetesResource> submit(
      KubernetesClient client,
      SpecVariant variant,
      GenericKubernetesResource object,
      UnaryOperator<GenericKubernetesResource> beforeCreate,
      Tally tally) {
    GenericKubernetesResource created;
    long size = StoredSize.estimate(object);
    boolean nearEtcdLimit = size > StoredSize.SURELY_STORABLE;
    try {
      created = client.resource(beforeCreate.apply(object)).create();
    } catch (KubernetesClientException e) {
      if (nearEtcdLimit && isTooLarge(e, size)) {
        tally.refusedTooLarge();
      } else {
        checkRefusal(variant, e);
        tally.refused();
      }
      return Optional.empty();
    }
    if (variant.verdict() == Verdict.REJECTED) {
      throw new AssertionError("admitted, but must have been refused: " + variant);
    }
    return Optional.of(created);
  }

  static void checkRefusal(SpecVariant variant, KubernetesClientException e) {
    String text = refusalText(e);
    if (variant.verdict() == Verdict.ACCEPTED) {
      throw new AssertionError(
          "refused (HTTP "
              + e.getCode()
              + "), but must have been admitted: "
              + variant
              + "\n  "
              + text,
          e);
    }
    if (e.getCode() != 422) {
      throw new AssertionError(
          "refused with HTTP "
              + e.getCode()
              + " instead of 422 Invalid: "
              + variant
              + "\n  "
              + text,
          e);
    }
    List<String> names = new ArrayList<>();
    for (Change change : variant.refusable()) {
      names.addAll(variant.namesOf(change));
    }
    if (names.stream().noneMatch(text::contains) && !namedByCause(variant, e.getStatus())) {
      throw new AssertionError(
          "refused without naming the field (any of " + names + "): " + variant + "\n  " + text, e);
    }
  }

  /**
   * Refused for its size: by the API server (413, or over HTTP/2 a reset stream while the body is
   * still being sent) or by etcd.
   */
  private static boolean isTooLarge(KubernetesClientException e, long size) {
    String text = refusalText(e);
    return e.getCode() == 413
        || (e.getCode() == -1 && size > StoredSize.REQUEST_LIMIT)
        || text.contains("request is too large")
        || text.contains("larger than max");
  }

  /**
   * Whether a cause is about the object holding a refusable field and says the field's name (a rule
   * on an object that several kinds embed cannot spell the full path).
   */
  private static boolean namedByCause(SpecVariant variant, Status status) {
    if (status == null || status.getDetails() == null || status.getDetails().getCauses() == null) {
      return false;
    }
    for (Change change : variant.refusable()) {
      for (String name : variant.namesOf(change)) {
        int dot = name.lastIndexOf('.');
        String parent = name.substring(0, Math.max(dot, 0));
        String leaf = name.substring(dot + 1);
        for (StatusCause cause : status.getDetails().getCauses()) {
          if (parent.equals(cause.getField())
              && String.valueOf(cause.getMessage()).contains(leaf)) {
            return true;
          }
        }
      }
    }
    return false;
  }

  /** The refusal as a person reads it: the status message and every cause. */
  static String refusalText(KubernetesClientException e) {
    Status status = e.getStatus();
    if (status == null) {
      return String.valueOf(e.getMessage());
    }
    StringBuilder text = new StringBuilder(String.valueOf(status.getMessage()));
    if (status.getDetails() != null && status.getDetails().getCauses() != null) {
      for (StatusCause cause : status.getDetails().getCauses()) {
        text.append("\n  cause ").append(cause.getField()).append(": ").append(cause.getMessage());
      }
    }
    return text.toString();
  }
}
