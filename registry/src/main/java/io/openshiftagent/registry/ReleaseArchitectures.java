package io.openshiftagent.registry;

import java.util.Map;
import java.util.Optional;

/**
 * OpenShift's release architecture names (in release tags and {@code cpuArchitecture}) and the OCI
 * platform names a manifest list uses.
 */
public final class ReleaseArchitectures {
  private static final Map<String, String> OCI =
      Map.of(
          "x86_64", "amd64",
          "amd64", "amd64",
          "aarch64", "arm64",
          "arm64", "arm64",
          "ppc64le", "ppc64le",
          "s390x", "s390x");

  private ReleaseArchitectures() {}

  /** The OCI name of {@code architecture} (either spelling), or empty for an unknown one. */
  public static Optional<String> oci(String architecture) {
    return Optional.ofNullable(architecture == null ? null : OCI.get(architecture));
  }
}
