package io.openshiftagent.registry;

/** The condition reasons of a release image that could not be resolved, one per problem. */
public final class Reasons {
  public static final String RELEASE_IMAGE_NOT_FOUND = "ReleaseImageNotFound";
  public static final String REGISTRY_UNAUTHORIZED = "RegistryUnauthorized";
  public static final String REGISTRY_FORBIDDEN = "RegistryForbidden";
  public static final String REGISTRY_TLS_FAILED = "RegistryTLSFailed";
  public static final String REGISTRY_TIMEOUT = "RegistryTimeout";
  public static final String REGISTRY_UNREACHABLE = "RegistryUnreachable";
  public static final String ARCHITECTURE_NOT_IN_RELEASE = "ArchitectureNotInRelease";
  public static final String REGISTRY_ERROR = "RegistryError";
  public static final String REGISTRY_BLOCKED = "RegistryBlocked";

  private Reasons() {}

  public static String of(LookupFailure.Problem problem) {
    return switch (problem) {
      case NOT_FOUND -> RELEASE_IMAGE_NOT_FOUND;
      case UNAUTHORIZED -> REGISTRY_UNAUTHORIZED;
      case FORBIDDEN -> REGISTRY_FORBIDDEN;
      case TLS -> REGISTRY_TLS_FAILED;
      case TIMEOUT -> REGISTRY_TIMEOUT;
      case UNREACHABLE -> REGISTRY_UNREACHABLE;
      case NO_MATCHING_ARCHITECTURE -> ARCHITECTURE_NOT_IN_RELEASE;
      case ERROR -> REGISTRY_ERROR;
    };
  }
}
