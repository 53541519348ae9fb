package io.openshiftagent.simulator.e2e;

import io.openshiftagent.simulator.SimulatedDurations;
import io.openshiftagent.simulator.World;
import io.openshiftagent.testsupport.ProviderJar;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.TestExecutionExceptionHandler;

/**
 * One {@link World} for a test class ({@code @RegisterExtension static final E2eWorld world = new
 * E2eWorld();}): started before its first test, stopped after its last. When a test fails, the
 * failure carries a dump of every cluster the class applied, so it says why.
 */
public final class E2eWorld
    implements BeforeAllCallback, AfterAllCallback, TestExecutionExceptionHandler {
  private final List<ClusterScenario> scenarios = new ArrayList<>();
  private World world;
  private Path workDir;

  @Override
  public void beforeAll(ExtensionContext context) throws Exception {
    workDir = Path.of("target", "world", context.getRequiredTestClass().getSimpleName());
    world = World.start(SimulatedDurations.nearZero(), workDir);
  }

  /**
   * Deletes the clusters the tests left, so that the next class's world (on the same hub) does not
   * reconcile them, then stops the world.
   */
  @Override
  public void afterAll(ExtensionContext context) {
    try {
      for (ClusterScenario scenario : scenarios) {
        if (scenario.cluster() != null) {
          try {
            scenario.deleteCluster();
          } catch (AssertionError e) {
            handleTestExecutionException(context, e);
          }
        }
      }
    } catch (Throwable e) {
      throw e instanceof Error error ? error : new AssertionError(e);
    } finally {
      if (world != null) {
        world.close();
      }
    }
  }

  /**
   * A new namespace of the hub for one cluster named {@code clusterName}: what the scenario applies
   * goes there.
   */
  public ClusterScenario scenario(String namespacePrefix, String clusterName) {
    String namespace = world.hubEnvironment().createNamespace(namespacePrefix);
    ClusterScenario scenario = new ClusterScenario(world, namespace, clusterName);
    scenarios.add(scenario);
    return scenario;
  }

  public World world() {
    return world;
  }

  @Override
  public void handleTestExecutionException(ExtensionContext context, Throwable failure)
      throws Throwable {
    if (world == null || scenarios.isEmpty()) {
      throw failure;
    }
    StringBuilder dump = new StringBuilder(String.valueOf(failure.getMessage()));
    for (ClusterScenario scenario : scenarios) {
      dump.append("\n\n").append(scenario.dump());
    }
    dump.append("\nCluster API manager log: ").append(world.capiManagerLog().toAbsolutePath());
    for (ProviderJar jar : ProviderJar.values()) {
      dump.append("\n").append(jar.command).append(" log: ").append(world.provider(jar).log());
    }
    AssertionError withDump = new AssertionError(dump.toString(), failure);
    withDump.setStackTrace(failure.getStackTrace());
    throw withDump;
  }
}
