package io.openshiftagent.testsupport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The releases users name, served by the real registry as a real client (crane) reads them: each by
 * its tag, with the digest the catalog records; OKD's as manifest lists of amd64 and arm64; a
 * version never published is not there.
 */
class PublishedReleasesTest {
  @TempDir Path dir;

  @Test
  void theListHoldsEachSupportedMinorsZStreamsAndRecentOkdReleases() {
    List<String> all = PublishedReleases.all();

    assertThat(all)
        .contains("4.14.0-x86_64", "4.14.71-x86_64", "4.16.33-x86_64", "4.22.14-x86_64")
        .contains("4.20.0-okd-scos.0", "4.22.0-okd-scos.8")
        .doesNotContain("4.13.0-x86_64", "4.14.72-x86_64", "4.22.15-x86_64")
        .doesNotHaveDuplicates();
    assertThat(all.stream().filter(r -> r.startsWith("4.16.")).count()).isEqualTo(71);
  }

  @Test
  void aRegistryServesThemAllBesidesTheReleasesTestsName() throws Exception {
    try (ReleaseRegistry registry =
        ReleaseRegistry.start(dir, List.of("4.20.0-x86_64", "4.19.0-okd-scos.ec.6"), false)) {
      String named = registry.release("4.20.0", "x86_64").digest();
      long started = System.nanoTime();
      registry.withPublished();
      long millis = (System.nanoTime() - started) / 1_000_000;
      System.out.printf(
          "%d published releases pushed in %d ms%n", registry.published().size(), millis);

      assertThat(registry.published()).hasSize(PublishedReleases.all().size() - 1);
      assertThat(registry.release("4.20.0", "x86_64").digest())
          .as("a release the tests named keeps its image")
          .isEqualTo(named);
      assertThat(registry.catalog()).hasSize(registry.published().size() + 2);
      assertThat(registry.catalog().stream().map(ReleaseRegistry.Release::digest))
          .doesNotHaveDuplicates();

      Crane crane = new Crane(dir.resolve("crane"), registry.registry());
      ReleaseRegistry.Release ocp = registry.release("4.16.33", "x86_64");
      assertThat(ocp.tag()).isEqualTo(registry.ocpRepository() + ":4.16.33-x86_64");
      assertThat(crane.digest(ocp.tag())).isEqualTo(ocp.digest());
      assertThat(crane.run("config", ocp.tag())).contains("\"architecture\":\"amd64\"");
      assertThat(ocp.kubernetesVersion()).isEqualTo("1.29.0");
      assertThat(crane.run("export", ocp.tag(), "-"))
          .as("the image's file system")
          .contains("release-manifests/image-references")
          .contains("kubernetes=1.29.0");

      ReleaseRegistry.Release okd = registry.release("4.21.0-okd-scos.3", "multi");
      assertThat(crane.digest(okd.tag())).isEqualTo(okd.digest());
      assertThat(crane.run("manifest", okd.tag()))
          .contains("\"architecture\":\"amd64\"")
          .contains("\"architecture\":\"arm64\"");

      assertThatThrownBy(() -> crane.digest(registry.ocpRepository() + ":4.20.99-x86_64"))
          .hasMessageContaining("MANIFEST_UNKNOWN");
      assertThat(registry.withPublished().published()).hasSize(registry.published().size());
    }
  }
}
