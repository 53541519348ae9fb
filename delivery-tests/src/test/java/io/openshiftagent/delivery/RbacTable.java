package io.openshiftagent.delivery;

import io.fabric8.kubernetes.api.model.rbac.PolicyRule;
import io.openshiftagent.testsupport.TestPaths;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * Reads the rule table of a section of docs/security.md as {@code "group resource verb"} grants, so
 * that the kustomize roles, the chart's and the docs cannot drift apart. The table is the first one
 * after the heading {@code "## <section>"}; of each row only the first four cells count (API group,
 * resources, verbs, scope), without backticks and without remarks in parentheses; {@code core} or
 * {@code ""} is the core group. The scope is {@code namespace} (a namespaced install grants the row
 * in each watched namespace only) or {@code cluster} (a cluster-scoped kind, granted cluster-wide
 * in every install).
 */
final class RbacTable {
  static final String BOOTSTRAP = "RBAC of the bootstrap provider";
  static final String CONTROL_PLANE = "RBAC of the control-plane provider";
  static final String LEADER_ELECTION = "RBAC of leader election";

  private static final Path DOC = TestPaths.repoRoot().resolve("docs/security.md");

  private RbacTable() {}

  /** Which rows of a table: those of one scope, or all. */
  enum Scope {
    NAMESPACE,
    CLUSTER,
    ANY;

    boolean includes(String cell) {
      return this == ANY || name().equalsIgnoreCase(cell);
    }
  }

  /** The grants of {@code rules}, as the table's rows read: one per group, resource and verb. */
  static Set<String> grantsOf(List<PolicyRule> rules) {
    Set<String> grants = new TreeSet<>();
    for (PolicyRule rule : rules) {
      for (String group : rule.getApiGroups()) {
        for (String resource : rule.getResources()) {
          for (String verb : rule.getVerbs()) {
            grants.add(group + " " + resource + " " + verb);
          }
        }
      }
    }
    return grants;
  }

  /** The grants of {@code section} of docs/security.md. */
  static Set<String> grants(String section) throws IOException {
    return grants(DOC, section, Scope.ANY);
  }

  /** The grants of the rows of {@code scope} of {@code section} of docs/security.md. */
  static Set<String> grants(String section, Scope scope) throws IOException {
    return grants(DOC, section, scope);
  }

  static Set<String> grants(Path doc, String section, Scope scope) throws IOException {
    List<String> lines = Files.readAllLines(doc);
    int heading = lines.indexOf("## " + section);
    if (heading < 0 || lines.lastIndexOf("## " + section) != heading) {
      throw new AssertionError(doc + " has not exactly one section '## " + section + "'");
    }
    int header = heading + 1;
    while (header < lines.size()
        && !lines.get(header).startsWith("|")
        && !lines.get(header).startsWith("## ")) {
      header++;
    }
    if (header + 1 >= lines.size()
        || !lines.get(header).startsWith("|")
        || !lines.get(header + 1).startsWith("|---")) {
      throw new AssertionError(doc + ", '" + section + "': no table");
    }
    String[] columns = lines.get(header).split("\\|");
    if (columns.length < 5
        || !clean(columns[1]).equalsIgnoreCase("API group")
        || !clean(columns[2]).equalsIgnoreCase("resources")
        || !clean(columns[3]).equalsIgnoreCase("verbs")
        || !clean(columns[4]).equalsIgnoreCase("scope")) {
      throw new AssertionError(
          doc
              + ", '"
              + section
              + "': the table does not start with | API group | resources | verbs | scope |");
    }
    Set<String> grants = new TreeSet<>();
    for (String line : lines.subList(header + 2, lines.size())) {
      if (!line.startsWith("|")) {
        break; // the end of the table
      }
      String[] cells = line.split("\\|");
      if (cells.length != columns.length) {
        throw new AssertionError(
            doc + ", '" + section + "': a row has not as many cells as the header: " + line);
      }
      String rowScope = clean(cells[4]);
      if (!rowScope.equals("namespace") && !rowScope.equals("cluster")) {
        throw new AssertionError(
            doc + ", '" + section + "': the scope is namespace or cluster, not: " + line);
      }
      if (!scope.includes(rowScope)) {
        continue;
      }
      String group = clean(cells[1]);
      if (group.equals("core") || group.equals("\"\"")) {
        group = "";
      }
      for (String resource : list(cells[2])) {
        for (String verb : list(cells[3])) {
          grants.add(group + " " + resource + " " + verb);
        }
      }
    }
    if (grants.isEmpty() && scope == Scope.ANY) {
      throw new AssertionError(doc + ", '" + section + "': the table is empty");
    }
    return grants;
  }

  /** A comma-separated cell without backticks and remarks in parentheses. */
  private static List<String> list(String cell) {
    return List.of(clean(cell).split(",")).stream()
        .map(String::trim)
        .filter(s -> !s.isEmpty())
        .toList();
  }

  private static String clean(String cell) {
    return cell.replace("`", "").replaceAll("\\([^)]*\\)", "").trim();
  }
}
