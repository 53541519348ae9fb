package io.openshiftagent.simulator.e2e;

import io.openshiftagent.simulator.SimulatedDurations;
import io.openshiftagent.simulator.World;
import io.openshiftagent.testsupport.ProviderJar;
import io.openshiftagent.testsupport.SecretScanner;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.TestExecutionExceptionHandler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One {@link World} for a test class ({@code @RegisterExtension static final E2eWorld world = new
 * E2eWorld();}): started before its first test, stopped after its last. When a test fails, the
 * failure carries a dump of every cluster the class applied, so it says why.
 */
public final class E2eWorld
    implements BeforeAllCallback, AfterAllCallback, TestExecutionExceptionHandler {
  private static final Logger LOG = LoggerFactory.getLogger(E2eWorld.class);
  // Tests of a class may run side by side (@Execution(CONCURRENT)).
  private final List<ClusterScenario> scenarios = new CopyOnWriteArrayList<>();
  private final SecretLeaks secrets = new SecretLeaks();
  private final UnaryOperator<World.Options> options;
  private World world;
  private Path workDir;

  /** A world of near-zero simulated durations, one API server per installed cluster. */
  public E2eWorld() {
    this(options -> options);
  }

  /** A world whose options (durations, workload API servers...) {@code options} changes. */
  public E2eWorld(UnaryOperator<World.Options> options) {
    this.options = options;
  }

  @Override
  public void beforeAll(ExtensionContext context) throws Exception {
    workDir = Path.of("target", "world", context.getRequiredTestClass().getSimpleName());
    world = World.start(options.apply(World.Options.of(SimulatedDurations.nearZero(), workDir)));
  }

  /**
   * Checks that no secret of the class's clusters reached a log, an Event or a condition; deletes
   * the clusters the tests left, so that the next class's world (on the same hub) does not
   * reconcile them; then stops the world.
   */
  @Override
  public void afterAll(ExtensionContext context) {
    try {
      if (world != null) {
        assertNoSecretLeaked();
      }
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
   * Every secret the clusters had (remembered when each was installed, and now), looked for in the
   * world's logs and in the clusters' Events and conditions.
   */
  private void assertNoSecretLeaked() {
    List<String> namespaces = scenarios.stream().map(ClusterScenario::namespace).toList();
    namespaces.forEach(namespace -> secrets.remember(world.hub(), namespace));
    List<SecretScanner.Finding> findings = secrets.findIn(workDir, world.hub(), namespaces);
    LOG.info(
        "{} secrets of {} clusters looked for in the logs under {} and in the namespaces' Events and"
            + " conditions: {} found",
        secrets.size(),
        namespaces.size(),
        workDir,
        findings.size());
    SecretScanner.assertNone(findings);
  }

  /**
   * A new namespace of the hub for one cluster named {@code clusterName}: what the scenario applies
   * goes there.
   */
  public ClusterScenario scenario(String namespacePrefix, String clusterName) {
    String namespace = world.hubEnvironment().createNamespace(namespacePrefix);
    ClusterScenario scenario = new ClusterScenario(world, namespace, clusterName, secrets);
    scenarios.add(scenario);
    return scenario;
  }

  public World world() {
    return world;
  }

  /** Where the world's files and logs go; what else the class starts may log here too. */
  public Path workDir() {
    return workDir;
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
