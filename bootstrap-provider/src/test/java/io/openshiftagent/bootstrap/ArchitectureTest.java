package io.openshiftagent.bootstrap;

import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;
import io.openshiftagent.testsupport.PackageFloors;
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

  @ArchTest static final ArchRule floors = PackageFloors.rule(ROOT, FLOORS);

  @ArchTest
  static final ArchRule noCycles = slices().matching(ROOT + ".(**)").should().beFreeOfCycles();
}
