package io.openshiftagent.testsupport;

import java.nio.file.Files;
import java.nio.file.Path;

/** Where the tests find the repository and what the hack/ scripts prepared. */
public final class TestPaths {
  public static final String KUBERNETES_VERSION = "1.36.3";

  private TestPaths() {}

  /** The repository root: set by Maven, or found by walking up to the parent pom. */
  public static Path repoRoot() {
    String configured = System.getProperty("openshiftagent.repoRoot");
    if (configured != null && !configured.isBlank()) {
      return Path.of(configured).toAbsolutePath().normalize();
    }
    Path dir = Path.of("").toAbsolutePath();
    while (dir != null) {
      if (Files.isDirectory(dir.resolve("hack")) && Files.isRegularFile(dir.resolve("pom.xml"))) {
        return dir;
      }
      dir = dir.getParent();
    }
    throw new IllegalStateException(
        "cannot find the repository root from " + Path.of("").toAbsolutePath());
  }

  /** Our generated CRDs, as committed for kubectl/GitOps users. */
  public static Path ourCrds() {
    return repoRoot().resolve("config/crd/bases");
  }

  /** The upstream CRDs that {@code hack/fetch-upstream-crds.sh} copied out of their Go modules. */
  public static Path upstreamCrds() {
    return repoRoot().resolve(".cache/upstream-crds");
  }

  /**
   * The CRDs of an installed OpenShift cluster (ClusterVersion) that {@code
   * hack/fetch-upstream-crds.sh} copied out of the openshift/api Go module.
   */
  public static Path workloadCrds() {
    return repoRoot().resolve(".cache/workload-crds");
  }

  /** The kube-api-test directory holding {@code k8s/<version>-linux-amd64/}. */
  public static Path kubeApiTestDir() {
    String env = System.getenv("KUBE_API_TEST_DIR");
    return env != null && !env.isBlank()
        ? Path.of(env)
        : Path.of(System.getProperty("user.home"), ".kubeapitest");
  }

  public static Path kubeBinaries() {
    return kubeApiTestDir().resolve("k8s").resolve(KUBERNETES_VERSION + "-linux-amd64");
  }

  /**
   * A client that {@code hack/build-tools.sh} built (helm, clusterctl) in {@code
   * $OPENSHIFT_AGENT_CACHE/bin}, default {@code ~/.cache/openshift-agent/bin}.
   */
  public static Path tool(String name) {
    String cache = System.getenv("OPENSHIFT_AGENT_CACHE");
    Path dir =
        cache != null && !cache.isBlank()
            ? Path.of(cache)
            : Path.of(System.getProperty("user.home"), ".cache", "openshift-agent");
    Path tool = dir.resolve("bin").resolve(name);
    if (!Files.isExecutable(tool)) {
      throw new IllegalStateException(tool + " is missing: run hack/build-tools.sh");
    }
    return tool;
  }
}
