package io.openshiftagent.registry;

/** Why one registry could not tell the digest of an image. */
public final class LookupFailure extends Exception {
  /** What went wrong, as far as the registry's answer (or silence) tells. */
  public enum Problem {
    NOT_FOUND,
    UNAUTHORIZED,
    FORBIDDEN,
    TLS,
    TIMEOUT,
    UNREACHABLE,
    NO_MATCHING_ARCHITECTURE,
    ERROR
  }

  private final Problem problem;
  private final ImageReference image;

  public LookupFailure(Problem problem, ImageReference image, String detail, Throwable cause) {
    super(detail, cause);
    this.problem = problem;
    this.image = image;
  }

  public Problem problem() {
    return problem;
  }

  /** The image as asked of that registry (a mirror's name for a mirror). */
  public ImageReference image() {
    return image;
  }

  /** What happened, for a person: no credential, no response body beyond the registry's error. */
  public String detail() {
    return getMessage();
  }
}
