package io.openshiftagent.bootstrap;

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
 * The bootstrap provider's packages are floors: the entry point on top, the two controllers, the
 * parts they share, and the names at the bottom. A package uses its own classes and those of the
 * floors below it, never one above it or beside it (the controllers never call each other); and no
 * packages depend on each other in a cycle.
 */
@AnalyzeClasses(
    packages = ArchitectureTest.ROOT,
    importOptions = ImportOption.DoNotIncludeTests.class)
class ArchitectureTest {
  static final String ROOT = "io.openshiftagent.bootstrap";

  /** The floors, top first; "" is the root package. */
  static final List<List<String>> FLOORS =
      List.of(
          List.of(""), // the process
          List.of("config", "agent"), // the controllers
          List.of("hosts", "ignition"), // what they share: the Metal3 side, the ignition documents
          List.of("identity"), // who a host becomes
          List.of("names")); // names, labels, annotations and reasons

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
