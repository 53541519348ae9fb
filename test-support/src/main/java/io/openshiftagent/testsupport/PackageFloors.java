package io.openshiftagent.testsupport;

import static com.tngtech.archunit.library.Architectures.layeredArchitecture;

import com.tngtech.archunit.library.Architectures.LayeredArchitecture;
import java.util.ArrayList;
import java.util.List;

/**
 * A provider's packages as floors, the rule both providers' architecture tests check: each package
 * is a layer that only the packages of the floors above it may use (never one beside it), and every
 * class is in one of them.
 */
public final class PackageFloors {
  private PackageFloors() {}

  /**
   * @param root the provider's root package
   * @param floors the packages of each floor, top first, relative to {@code root}; "" is the root
   */
  public static LayeredArchitecture rule(String root, List<List<String>> floors) {
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
