package io.openshiftagent.api;

import static org.assertj.core.api.Assertions.assertThat;

import io.openshiftagent.testsupport.TestPaths;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** docs/api-reference.md is exactly what the committed CRDs say. */
class ApiReferenceIsCurrentTest {

  @Test
  void apiReferenceMatchesTheCrds() throws IOException {
    Path doc = TestPaths.repoRoot().resolve("docs/api-reference.md");
    String rendered = ApiReference.render(TestPaths.ourCrdFiles());
    if (Boolean.getBoolean("api.reference.update")) {
      Files.writeString(doc, rendered);
    }
    assertThat(doc).as("docs/api-reference.md (regenerate: see its header)").exists();
    assertThat(Files.readString(doc))
        .as("docs/api-reference.md is stale: see its header for the command that regenerates it")
        .isEqualTo(rendered);
  }
}
