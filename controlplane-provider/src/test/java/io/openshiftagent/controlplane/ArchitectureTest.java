package io.openshiftagent.controlplane;

import static com.tngtech.archunit.library.Architectures.layeredArchitecture;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.library.Architectures.LayeredArchitecture;
import java.util.ArrayList;
import java.util.List;

/**
 * The control-plane provider's packages are floors: the entry point on top, the report, the phases,
 * the parts they share, the scope, and the names at the bottom. A package uses its own classes and
 * those of the floors below it, never one above it or beside it; and no packages depend on each
 * other in a cycle.
 */
@AnalyzeClasses(
    packages = ArchitectureTest.ROOT,
    importOptions = ImportOption.DoNotIncludeTests.class)
class ArchitectureTest {
  static final String ROOT = "io.openshiftagent.controlplane";

  /** The floors, top first; "" is the root package. */
  static final List<List<String>> FLOORS =
      List.of(
          List.of(""), // the process and the reconciler: caches, preflight, memory, cleanup
          List.of("report"), // the one status writer, from what the phases found
          List.of("cluster", "machines", "upgrade"), // the phases
          List.of("release", "etcd"), // what the phases share
          List.of("scope"), // every read
          List.of("names")); // names, labels and conditions

  @ArchTest static final ArchRule floors = floors(ROOT, FLOORS);

  @ArchTest
  static final ArchRule noCycles = slices().matching(ROOT + ".(**)").should().beFreeOfCycles();

  /**
   * Each package is a layer that only the packages of the floors above it may use; every class is
   * in one of them.
   */
  static LayeredArchitecture floors(String root, List<List<String>> floors) {
    LayeredArchitecture rule =
        layeredArchitecture()
            .consideringOnlyDependenciesInLayers()
            .ensureAllClassesAreContainedInArchitecture();
    for (List<String> floor : floors) {
      for (String pkg : floor) {
        rule = rule.layer(layer(pkg)).definedBy(pkg.isEmpty() ? root : root + "." + pkg);
      }
    }
    List<String> above = new ArrayList<>();
    for (List<String> floor : floors) {
      for (String pkg : floor) {
        rule =
            above.isEmpty()
                ? rule.whereLayer(layer(pkg)).mayNotBeAccessedByAnyLayer()
                : rule.whereLayer(layer(pkg))
                    .mayOnlyBeAccessedByLayers(above.toArray(String[]::new));
      }
      floor.forEach(pkg -> above.add(layer(pkg)));
    }
    return rule;
  }

  private static String layer(String pkg) {
    return pkg.isEmpty() ? "(root)" : pkg;
  }
}
