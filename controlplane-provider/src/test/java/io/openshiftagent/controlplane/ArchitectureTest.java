package io.openshiftagent.controlplane;

import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;
import io.openshiftagent.testsupport.PackageFloors;
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
          List.of("cluster", "machines", "upgrade", "inplace"), // the phases, the in-place hooks
          List.of("release", "etcd"), // what the phases share
          List.of("scope"), // every read
          List.of("names")); // names, labels and conditions

  @ArchTest static final ArchRule floors = PackageFloors.rule(ROOT, FLOORS);

  @ArchTest
  static final ArchRule noCycles = slices().matching(ROOT + ".(**)").should().beFreeOfCycles();
}
