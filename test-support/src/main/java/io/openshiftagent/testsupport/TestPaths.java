package io.openshiftagent.testsupport;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

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

  /**
   * Our generated CRDs, as committed for kubectl/GitOps users: one kustomization directory per
   * provider ({@code bootstrap/}, {@code controlplane/}) below this one.
   */
  public static Path ourCrds() {
    return repoRoot().resolve("config/crd");
  }

  /** The committed CRD files of {@link #ourCrds()}, sorted, without the kustomization files. */
  public static List<Path> ourCrdFiles() {
    try (Stream<Path> files = Files.walk(ourCrds())) {
      return files
          .filter(p -> p.getFileName().toString().endsWith(".yaml"))
          .filter(p -> !p.getFileName().toString().equals("kustomization.yaml"))
          .sorted()
          .toList();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot list " + ourCrds(), e);
    }
  }

  /**
   * Every CRD a management cluster ("hub") of the tests has: {@link #ourCrds()} and {@link
   * #upstreamCrds()}.
   */
  public static List<Path> hubCrds() {
    return List.of(ourCrds(), upstreamCrds());
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

  /**
   * An OpenShift hub's {@code config.openshift.io} APIServer CRD (its TLS profile and adherence)
   * that {@code hack/fetch-upstream-crds.sh} copied out of the openshift/api Go module.
   */
  public static Path openshiftHubCrds() {
    return repoRoot().resolve(".cache/openshift-hub-crds");
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
   * A client {@code hack/build-tools.sh} built ({@code clusterctl}, {@code helm}) in the hack
   * cache's {@code bin/} ({@link #toolsBin()}).
   */
  public static Path tool(String name) {
    Path tool = toolsBin().resolve(name);
    if (!Files.isExecutable(tool)) {
      throw new IllegalStateException(tool + " is missing: run hack/build-tools.sh");
    }
    return tool;
  }

  /**
   * The hack cache's {@code bin/}, where the hack/ scripts build tools and upstream managers: under
   * {@code $OPENSHIFT_AGENT_CACHE} as hack/lib.sh reads it, else the {@code openshiftagent.cache}
   * property Maven sets, else {@code ~/.cache/openshift-agent}.
   */
  public static Path toolsBin() {
    String cache = System.getenv("OPENSHIFT_AGENT_CACHE");
    if (cache == null || cache.isBlank()) {
      cache = System.getProperty("openshiftagent.cache");
    }
    Path dir =
        cache != null && !cache.isBlank()
            ? Path.of(cache)
            : Path.of(System.getProperty("user.home"), ".cache", "openshift-agent");
    return dir.resolve("bin");
  }

  /** The real kubectl (kustomize built in) that {@code hack/build-kube-binaries.sh} built. */
  public static Path kubectl() {
    return kubeBinaries().resolve("kubectl");
  }

  /**
   * What {@code hack/render-upstream-providers.sh} prepared: {@code clusterctl-repository} (Cluster
   * API core and Metal3 components) and {@code cert-manager-crds}.
   */
  public static Path upstreamProviders(String name) {
    Path dir = repoRoot().resolve(".cache").resolve(name);
    if (!Files.isRegularFile(dir.resolve(".complete"))) {
      throw new IllegalStateException(dir + " is missing: run hack/render-upstream-providers.sh");
    }
    return dir;
  }

  /** Deletes {@code path} and everything under it; nothing when it does not exist. */
  public static void deleteRecursively(Path path) throws IOException {
    if (!Files.exists(path, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
      return;
    }
    try (Stream<Path> files = Files.walk(path)) {
      for (Path file : files.sorted(java.util.Comparator.reverseOrder()).toList()) {
        Files.delete(file);
      }
    }
  }
}
