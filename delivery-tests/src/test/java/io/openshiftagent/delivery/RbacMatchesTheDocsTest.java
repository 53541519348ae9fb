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
 * Each provider's roles, as kustomize renders them, grant exactly the (group, resource, verb)
 * triples of their table in docs/security.md: nothing missing, nothing more. The manager's
 * ClusterRole has a table per provider; the leader-election Role, the same for both, one table.
 */
class RbacMatchesTheDocsTest {
  @ParameterizedTest
  @CsvSource({
    "bootstrap, ClusterRole, -manager, " + RbacTable.BOOTSTRAP,
    "controlplane, ClusterRole, -manager, " + RbacTable.CONTROL_PLANE,
    "bootstrap, Role, -leader-election, " + RbacTable.LEADER_ELECTION,
    "controlplane, Role, -leader-election, " + RbacTable.LEADER_ELECTION
  })
  void rolesGrantExactlyTheDocumentedRules(
      String provider, String kind, String nameSuffix, String section) throws IOException {
    Path rendered = Files.createTempFile("rbac", ".yaml");
    Files.writeString(
        rendered,
        Command.of(
                TestPaths.kubectl(),
                "kustomize",
                TestPaths.repoRoot().resolve("config/" + provider))
            .ok());
    assertThat(granted(rendered, kind, nameSuffix))
        .as(
            "%s *%s of config/%s against docs/security.md, '%s'",
            kind, nameSuffix, provider, section)
        .isEqualTo(RbacTable.grants(section));
    Files.delete(rendered);
  }

  /**
   * The triples of the roles of {@code kind} whose name ends with {@code nameSuffix} (the metrics
   * reader's ClusterRole is for scrapers, and is not the manager's).
   */
  @SuppressWarnings("unchecked")
  private static Set<String> granted(Path rendered, String kind, String nameSuffix) {
    Set<String> triples = new TreeSet<>();
    int roles = 0;
    for (Map<String, Object> object : Release.objects(rendered)) {
      if (!kind.equals(object.get("kind"))
          || !((Map<String, Object>) object.get("metadata"))
              .get("name")
              .toString()
              .endsWith(nameSuffix)) {
        continue;
      }
      roles++;
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
    assertThat(roles).as("%s *%s rendered", kind, nameSuffix).isEqualTo(1);
    return triples;
  }
}
