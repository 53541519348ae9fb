package io.openshiftagent.delivery;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.rbac.ClusterRole;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.openshiftagent.testsupport.Command;
import io.openshiftagent.testsupport.TestPaths;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Each provider's roles, as kustomize renders them, grant exactly the (group, resource, verb)
 * triples of their table in docs/security.md: nothing missing, nothing more. Each provider has a
 * table: its ClusterRole {@code <label>-manager} grants the rows of scope {@code namespace} (what a
 * namespaced install binds in each watched namespace, config/namespaced), its ClusterRole {@code
 * <label>-cluster-scoped} those of scope {@code cluster}. The leader-election Role, the same for
 * both, has one table.
 */
class RbacMatchesTheDocsTest {
  @ParameterizedTest
  @CsvSource({
    "bootstrap, ClusterRole, -manager, NAMESPACE, " + RbacTable.BOOTSTRAP,
    "bootstrap, ClusterRole, -cluster-scoped, CLUSTER, " + RbacTable.BOOTSTRAP,
    "controlplane, ClusterRole, -manager, NAMESPACE, " + RbacTable.CONTROL_PLANE,
    "controlplane, ClusterRole, -cluster-scoped, CLUSTER, " + RbacTable.CONTROL_PLANE,
    "bootstrap, Role, -leader-election, ANY, " + RbacTable.LEADER_ELECTION,
    "controlplane, Role, -leader-election, ANY, " + RbacTable.LEADER_ELECTION
  })
  void rolesGrantExactlyTheDocumentedRules(
      String provider, String kind, String nameSuffix, RbacTable.Scope scope, String section)
      throws IOException {
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
            "%s *%s of config/%s against docs/security.md, '%s', scope %s",
            kind, nameSuffix, provider, section, scope)
        .isEqualTo(RbacTable.grants(section, scope));
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
      triples.addAll(
          RbacTable.grantsOf(
              Serialization.jsonMapper().convertValue(object, ClusterRole.class).getRules()));
    }
    assertThat(roles).as("%s *%s rendered", kind, nameSuffix).isEqualTo(1);
    return triples;
  }
}
