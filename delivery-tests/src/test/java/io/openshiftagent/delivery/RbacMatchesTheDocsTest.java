package io.openshiftagent.delivery;

import static org.assertj.core.api.Assertions.assertThat;

import io.openshiftagent.testsupport.Command;
import io.openshiftagent.testsupport.TestPaths;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Each provider's ClusterRole, as kustomize renders it, grants exactly the (group, resource, verb)
 * triples of the RBAC table at the end of its document: nothing missing, nothing more.
 */
class RbacMatchesTheDocsTest {
  @ParameterizedTest
  @CsvSource({"bootstrap, docs/bootstrap.md", "controlplane, docs/controlplane.md"})
  void clusterRoleGrantsExactlyTheDocumentedRules(String provider, String doc) throws IOException {
    Path rendered = Files.createTempFile("rbac", ".yaml");
    Files.writeString(
        rendered,
        Command.of(
                TestPaths.kubectl(),
                "kustomize",
                TestPaths.repoRoot().resolve("config/" + provider))
            .ok());
    assertThat(granted(rendered)).isEqualTo(documented(TestPaths.repoRoot().resolve(doc)));
    Files.delete(rendered);
  }

  @SuppressWarnings("unchecked")
  private static Set<String> granted(Path rendered) {
    Set<String> triples = new TreeSet<>();
    for (Map<String, Object> object : Release.objects(rendered)) {
      // The manager's role; the metrics reader's is for scrapers.
      if (!"ClusterRole".equals(object.get("kind"))
          || !((Map<String, Object>) object.get("metadata"))
              .get("name")
              .toString()
              .endsWith("-manager")) {
        continue;
      }
      for (Map<String, Object> rule : (List<Map<String, Object>>) object.get("rules")) {
        for (String group : (List<String>) rule.get("apiGroups")) {
          for (String resource : (List<String>) rule.get("resources")) {
            for (String verb : (List<String>) rule.get("verbs")) {
              triples.add(group + " " + resource + " " + verb);
            }
          }
        }
      }
    }
    return triples;
  }

  /** The rows of the table after the "RBAC" heading: | group | resources | verbs |. */
  private static Set<String> documented(Path doc) throws IOException {
    Set<String> triples = new TreeSet<>();
    boolean inSection = false;
    for (String line : Files.readAllLines(doc)) {
      if (line.startsWith("## ")) {
        inSection = line.startsWith("## RBAC");
        continue;
      }
      if (!inSection
          || !line.startsWith("|")
          || line.startsWith("|---")
          || line.contains("API group")) {
        continue;
      }
      String[] cells = line.split("\\|");
      String group = clean(cells[1]);
      group = group.equals("core") || group.equals("\"\"") ? "" : group;
      for (String resource : clean(cells[2]).split(",")) {
        for (String verb : clean(cells[3]).split(",")) {
          triples.add(group + " " + resource.strip() + " " + verb.strip());
        }
      }
    }
    assertThat(triples).as("the RBAC table of %s", doc).isNotEmpty();
    return triples;
  }

  /** Drops backticks and remarks in parentheses. */
  private static String clean(String cell) {
    return cell.replaceAll("\\([^)]*\\)", "").replace("`", "").strip();
  }
}
