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
  private final boolean credentialsWithheld;

  public LookupFailure(Problem problem, ImageReference image, String detail, Throwable cause) {
    this(problem, image, detail, cause, false);
  }

  /**
   * @param credentialsWithheld the pull secret has credentials for the registry, but they were not
   *     sent because the registry was asked over plain HTTP
   */
  public LookupFailure(
      Problem problem,
      ImageReference image,
      String detail,
      Throwable cause,
      boolean credentialsWithheld) {
    super(detail, cause);
    this.problem = problem;
    this.image = image;
    this.credentialsWithheld = credentialsWithheld;
  }

  /** A failure the registry's answer (or silence) explains by itself: no cause to keep. */
  static LookupFailure of(Problem problem, ImageReference image, String detail) {
    return new LookupFailure(problem, image, detail, null);
  }

  public Problem problem() {
    return problem;
  }

  /** The image as asked of that registry (a mirror's name for a mirror). */
  public ImageReference image() {
    return image;
  }

  /** The pull secret's credentials were not sent: the registry was asked over plain HTTP. */
  public boolean credentialsWithheld() {
    return credentialsWithheld;
  }

  /** What happened, for a person: no credential, no response body beyond the registry's error. */
  public String detail() {
    return getMessage();
  }
}
