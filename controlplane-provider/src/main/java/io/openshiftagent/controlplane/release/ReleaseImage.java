package io.openshiftagent.controlplane.release;

import io.openshiftagent.api.controlplane.v1alpha3.OpenshiftAssistedControlPlane;
import io.openshiftagent.provider.reconcile.Metadata;
import java.util.Map;

/**
 * The release image of an OpenShift or OKD version, as requested: by tag, or the digest the user
 * pinned. {@link ReleaseImageResolution} turns a tag into the digest written
 * (docs/release-images.md).
 */
public final class ReleaseImage {
  /** Annotation on the control plane: the repository to take release images from. */
  public static final String REPOSITORY_OVERRIDE_ANNOTATION =
      "cluster.x-k8s.io/release-image-repository-override";

  public static final String OCP_REPOSITORY = "quay.io/openshift-release-dev/ocp-release";
  public static final String OKD_REPOSITORY = "quay.io/okd/scos-release";

  private static final Map<String, String> RELEASE_ARCHITECTURES =
      Map.of(
          "x86_64", "x86_64",
          "amd64", "x86_64",
          "aarch64", "aarch64",
          "arm64", "aarch64",
          "ppc64le", "ppc64le",
          "s390x", "s390x");

  private ReleaseImage() {}

  /**
   * The pull spec of {@code version}'s release image.
   *
   * @param cpuArchitecture the control-plane hosts' architecture (x86_64 when null)
   * @param repositoryOverride the repository override annotation's value, or null
   */
  public static String pullSpec(
      OpenShiftVersion version, String cpuArchitecture, String repositoryOverride) {
    String override = repositoryOverride == null ? "" : repositoryOverride.trim();
    if (override.contains("@sha256:")) {
      return override; // the user pinned the release by digest
    }
    if (version.isOkd()) {
      // OKD release images are multi-architecture manifests tagged with the bare version.
      return (override.isEmpty() ? OKD_REPOSITORY : override) + ":" + version;
    }
    String arch =
        RELEASE_ARCHITECTURES.getOrDefault(
            cpuArchitecture == null ? "x86_64" : cpuArchitecture, "multi");
    return (override.isEmpty() ? OCP_REPOSITORY : override) + ":" + version + "-" + arch;
  }

  /**
   * The release architecture of hosts with these {@code cpuArchitecture}s (either spelling; unset
   * ones are x86_64): theirs when they agree, else {@code multi}, whose release holds them all.
   */
  public static String architecture(java.util.Collection<String> cpuArchitectures) {
    java.util.Set<String> distinct = new java.util.TreeSet<>();
    for (String arch : cpuArchitectures) {
      distinct.add(RELEASE_ARCHITECTURES.getOrDefault(arch == null ? "x86_64" : arch, arch));
    }
    return distinct.isEmpty()
        ? "x86_64"
        : distinct.size() == 1 ? distinct.iterator().next() : "multi";
  }

  /** Whether the repository is one of the default public ones (no override, or an equal one). */
  public static boolean isDefaultRepository(String repositoryOverride) {
    return repositoryOverride == null
        || repositoryOverride.isBlank()
        || repositoryOverride.trim().equals(OCP_REPOSITORY)
        || repositoryOverride.trim().equals(OKD_REPOSITORY);
  }

  /**
   * The release image a control plane asks for: {@code version} for its hosts' architectures (the
   * {@code cpuArchitecture}s of its own and its workers' configs: {@link #architecture}), from its
   * repository override if it has one.
   */
  public static String of(
      OpenshiftAssistedControlPlane cp,
      OpenShiftVersion version,
      java.util.Collection<String> cpuArchitectures) {
    return pullSpec(
        version,
        architecture(cpuArchitectures),
        Metadata.annotation(cp, REPOSITORY_OVERRIDE_ANNOTATION));
  }

  /**
   * Whether {@code version} is a published release: generally available and from a default
   * repository, so signed, and the Cluster Version Operator can verify it; anything else (a
   * pre-release, a nightly, another repository) can only be asked for with {@code force}, as the Go
   * provider does.
   */
  public static boolean isPublished(OpenshiftAssistedControlPlane cp, OpenShiftVersion version) {
    return version.isGenerallyAvailable()
        && isDefaultRepository(Metadata.annotation(cp, REPOSITORY_OVERRIDE_ANNOTATION));
  }
}
