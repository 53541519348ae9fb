package io.openshiftagent.delivery;

import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import io.openshiftagent.testsupport.Command;
import io.openshiftagent.testsupport.TestPaths;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The clusterctl release artifacts, made by the one release command, {@code hack/release.sh}. */
final class Release {
  static final String BOOTSTRAP_LABEL = "bootstrap-openshift-agent";
  static final String CONTROL_PLANE_LABEL = "control-plane-openshift-agent";

  private Release() {}

  /** Runs {@code hack/release.sh VERSION} writing into {@code out}. */
  static Path build(String version, Path out) {
    Command.of(TestPaths.repoRoot().resolve("hack/release.sh"), version)
        .env("OUT_DIR", out.toString())
        .env("KUBECTL", TestPaths.kubectl().toString())
        .run()
        .ok();
    return out;
  }

  /** The release version of the parent pom: its version without {@code -SNAPSHOT}. */
  static String pomReleaseVersion() {
    try {
      String pom = Files.readString(TestPaths.repoRoot().resolve("pom.xml"));
      // The parent pom's own version is the first <version> directly under <project> (it has no
      // <parent>), after <artifactId>openshift-agent-parent</artifactId>.
      Matcher m =
          Pattern.compile("<artifactId>openshift-agent-parent</artifactId>\\s*<version>([^<]+)<")
              .matcher(pom);
      if (!m.find()) {
        throw new IllegalStateException("no version in the parent pom");
      }
      return m.group(1).replace("-SNAPSHOT", "");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @SuppressWarnings("unchecked")
  static List<Map<String, Object>> objects(Path yaml) {
    try (var values = new YAMLMapper().readerFor(Map.class).readValues(yaml.toFile())) {
      List<Map<String, Object>> objects = new ArrayList<>();
      while (values.hasNext()) {
        Map<String, Object> object = (Map<String, Object>) values.next();
        if (object != null) {
          objects.add(object);
        }
      }
      return objects;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot parse " + yaml, e);
    }
  }
}
