package io.openshiftagent.testsupport;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Without the API-server binaries or the upstream CRDs the tests fail and say what to run; they
 * never skip.
 */
class MissingPrerequisitesTest {

  @Test
  void missingBinariesAndCrdsFailWithTheCommandsToRun(@TempDir Path dir) {
    assertThatThrownBy(
            () -> KubeApiServerEnvironment.requirePrepared(dir.resolve("k8s"), dir.resolve("crds")))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("kube-apiserver (run hack/build-kube-binaries.sh)")
        .hasMessageContaining("etcd (run hack/build-kube-binaries.sh)")
        .hasMessageContaining("crds (run hack/fetch-upstream-crds.sh)")
        .hasMessageContaining("Run ./hack/test.sh");
  }

  @Test
  void aNonExecutableBinaryCountsAsMissing(@TempDir Path dir) throws IOException {
    prepare(dir);
    Files.setPosixFilePermissions(
        dir.resolve("k8s/etcd"), PosixFilePermissions.fromString("rw-r--r--"));
    assertThatThrownBy(
            () -> KubeApiServerEnvironment.requirePrepared(dir.resolve("k8s"), dir.resolve("crds")))
        .hasMessageContaining("etcd (run hack/build-kube-binaries.sh)")
        .hasMessageNotContaining("kube-apiserver (run");
  }

  @Test
  void everythingPreparedPasses(@TempDir Path dir) throws IOException {
    prepare(dir);
    assertThatCode(
            () -> KubeApiServerEnvironment.requirePrepared(dir.resolve("k8s"), dir.resolve("crds")))
        .doesNotThrowAnyException();
  }

  private static void prepare(Path dir) throws IOException {
    Files.createDirectories(dir.resolve("k8s"));
    for (String binary : new String[] {"etcd", "kube-apiserver", "kubectl"}) {
      Path file = Files.createFile(dir.resolve("k8s").resolve(binary));
      Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwxr-xr-x"));
    }
    Files.createDirectories(dir.resolve("crds"));
    Files.writeString(dir.resolve("crds/.complete"), "stamp");
  }
}
