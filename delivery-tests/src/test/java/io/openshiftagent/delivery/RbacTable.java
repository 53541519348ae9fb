package io.openshiftagent.delivery;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * Reads the "RBAC the provider needs" table at the end of a provider's doc as {@code "group
 * resource verb"} grants, so the chart and the docs cannot drift apart.
 */
final class RbacTable {
  private RbacTable() {}

  static Set<String> grants(Path doc) throws IOException {
    List<String> lines = Files.readAllLines(doc);
    int heading = -1;
    for (int i = 0; i < lines.size(); i++) {
      if (lines.get(i).startsWith("## RBAC")) {
        heading = i;
      }
    }
    if (heading < 0) {
      throw new AssertionError(doc + " has no '## RBAC' section");
    }
    Set<String> grants = new TreeSet<>();
    for (String line : lines.subList(heading + 1, lines.size())) {
      if (line.startsWith("## ")) {
        break;
      }
      if (!line.startsWith("|")
          || line.startsWith("|---")
          || line.toLowerCase().contains("| verbs")) {
        continue;
      }
      String[] cells = line.split("\\|");
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
    if (grants.isEmpty()) {
      throw new AssertionError(doc + ": the RBAC table is empty");
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
