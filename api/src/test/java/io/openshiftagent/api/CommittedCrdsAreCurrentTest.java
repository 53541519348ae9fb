package io.openshiftagent.api;

import static org.assertj.core.api.Assertions.assertThat;

import io.openshiftagent.testsupport.TestPaths;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The CRDs committed under config/crd/<provider>/ are exactly what the Java model generates, with
 * their printer columns in the model's order ({@link PrinterColumnOrder}). {@code
 * -Dcrds.update=true} (hack/update-crds.sh) writes them.
 */
class CommittedCrdsAreCurrentTest {
  private static final Path GENERATED = Path.of("target/classes/META-INF/fabric8");

  @Test
  void everyGeneratedCrdIsCommittedUnchanged() throws IOException {
    List<Path> generated;
    try (Stream<Path> files = Files.list(GENERATED)) {
      generated = files.filter(p -> p.toString().endsWith("-v1.yml")).sorted().toList();
    }
    assertThat(generated).hasSize(4);
    for (Path file : generated) {
      String name = file.getFileName().toString().replace("-v1.yml", "");
      String plural = name.substring(0, name.indexOf('.'));
      String group = name.substring(name.indexOf('.') + 1);
      String provider = group.substring(0, group.indexOf('.'));
      Path committed =
          TestPaths.ourCrds().resolve(provider).resolve(group + "_" + plural + ".yaml");
      String expected = PrinterColumnOrder.apply(plural, Files.readString(file));
      if (Boolean.getBoolean("crds.update")) {
        Files.writeString(committed, expected);
      }
      assertThat(committed).as("committed CRD for %s (run hack/update-crds.sh)", name).exists();
      assertThat(Files.readString(committed))
          .as("%s is stale: run hack/update-crds.sh and commit the result", committed)
          .isEqualTo(expected);
    }
  }

  @Test
  void noCommittedCrdIsLeftOverFromARemovedKind() throws IOException {
    assertThat(TestPaths.ourCrdFiles())
        .as("config/crd holds a CRD the model no longer generates (run hack/update-crds.sh)")
        .hasSize(4);
  }
}
