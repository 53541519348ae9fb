package io.openshiftagent.simulator.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.openshiftagent.simulator.GoProviderCheckout;
import io.openshiftagent.simulator.GoProviders;
import io.openshiftagent.simulator.SimulatedDurations;
import io.openshiftagent.simulator.World;
import io.openshiftagent.simulator.WorldProcess;
import io.openshiftagent.testsupport.ProviderJar;
import io.openshiftagent.testsupport.SecretScanner;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.UnaryOperator;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.TestExecutionExceptionHandler;
import org.junit.jupiter.api.parallel.ResourceLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@link World} of a test class ({@code @RegisterExtension static final E2eWorld world = new
 * E2eWorld();}). When a test fails, the failure carries a dump of every cluster the class applied,
 * so it says why.
 *
 * <p>Two kinds of world:
 *
 * <ul>
 *   <li>{@code new E2eWorld()}: the world shared by every such class of the JVM (default options)
 *       on the JVM's shared hub, started by the first and stopped when the JVM exits. Every world's
 *       controllers reconcile every namespace of their hub, so its classes run side by side, each
 *       cluster in a namespace of its own: they carry {@code @ResourceLock(value = WORLD, mode =
 *       READ)}, or {@code @ResourceLock(WORLD)} to run alone on it (e.g. killing its processes).
 *   <li>{@code new E2eWorld(options -> ...)}: a world of its own, on a hub of its own, for a class
 *       that needs other options or stops the world's processes; started before the class's first
 *       test and stopped after its last. Nothing is shared, so it takes no lock; it carries
 *       {@code @Tag(HUB_OF_ITS_OWN)}, by which the build runs such classes together after the
 *       others.
 * </ul>
 *
 * Both are checked: a class without the right annotations fails at once.
 */
public final class E2eWorld
    implements BeforeAllCallback, AfterAllCallback, TestExecutionExceptionHandler {
  private static final Pattern GOROUTINE = Pattern.compile(" go-id=(\\d+)");

  private static final Logger LOG = LoggerFactory.getLogger(E2eWorld.class);
  // Tests of a class may run side by side (@Execution(CONCURRENT)).
  private final List<ClusterScenario> scenarios = new CopyOnWriteArrayList<>();
  private final SecretLeaks secrets = new SecretLeaks();

  /** The JUnit resource every class on the shared world locks. */
  public static final String WORLD = "world";

  /** The tag of every class with a world of its own (on a hub of its own). */
  public static final String HUB_OF_ITS_OWN = "hub-of-its-own";

  private static final Path SHARED_WORK_DIR = Path.of("target", "world", "shared");
  private static World shared;

  private final UnaryOperator<World.Options> options;
  private World world;
  private Path workDir;

  /** The shared world: near-zero simulated durations, one API server per installed cluster. */
  public E2eWorld() {
    this.options = null;
  }

  /** A world of its own on a hub of its own, with the shared world's options. */
  public static E2eWorld ofItsOwn() {
    return new E2eWorld(UnaryOperator.identity());
  }

  /**
   * A world of its own on a hub of its own that runs the Go provider pair instead of ours, built
   * from the checkout {@code -Dworld.providers=go:<checkout>} names ({@link GoProviderCheckout});
   * without one, the class is skipped.
   */
  public static E2eWorld withGoProviders() {
    return new E2eWorld(options -> options.withGoProvider(GoProviderCheckout.assumeGiven()));
  }

  /**
   * A world of its own on a hub of its own, whose options (durations, workload API servers...)
   * {@code options} changes.
   */
  public E2eWorld(UnaryOperator<World.Options> options) {
    this.options = base -> options.apply(base).withHubOfItsOwn();
  }

  @Override
  public void beforeAll(ExtensionContext context) throws Exception {
    Class<?> testClass = context.getRequiredTestClass();
    requireAnnotations(testClass, options == null);
    if (options == null) {
      workDir = SHARED_WORK_DIR;
      world = sharedWorld();
    } else {
      workDir = Path.of("target", "world", testClass.getSimpleName());
      world = World.start(options.apply(World.Options.of(SimulatedDurations.nearZero(), workDir)));
    }
  }

  /** The shared world, started on first use. */
  public static synchronized World sharedWorld() throws Exception {
    if (shared == null) {
      shared = World.start(World.Options.of(SimulatedDurations.nearZero(), SHARED_WORK_DIR));
    }
    return shared;
  }

  private static void requireAnnotations(Class<?> testClass, boolean sharedWorld) {
    ResourceLock lock = testClass.getAnnotation(ResourceLock.class);
    boolean locked = lock != null && WORLD.equals(lock.value());
    boolean tagged =
        Arrays.stream(testClass.getAnnotationsByType(Tag.class))
            .anyMatch(tag -> HUB_OF_ITS_OWN.equals(tag.value()));
    if (sharedWorld && (!locked || tagged)) {
      throw new IllegalStateException(
          testClass.getSimpleName()
              + " shares the world: it must carry @ResourceLock(value = E2eWorld.WORLD, mode ="
              + " READ) to run beside other classes, or @ResourceLock(E2eWorld.WORLD) to run alone"
              + " on it, and not @Tag(E2eWorld.HUB_OF_ITS_OWN)");
    }
    if (!sharedWorld && (locked || !tagged)) {
      throw new IllegalStateException(
          testClass.getSimpleName()
              + " has a world of its own: it must carry @Tag(E2eWorld.HUB_OF_ITS_OWN), and no"
              + " lock on E2eWorld.WORLD");
    }
  }

  /**
   * Checks that no secret of the class's clusters reached a log, an Event or a condition; on the
   * shared world, deletes the clusters the tests left, so that the classes after it do not share
   * the hub with them; stops a world of its own with its hub, clusters and all (the deletion of a
   * cluster is what the deletion tests show).
   */
  @Override
  public void afterAll(ExtensionContext context) {
    try {
      if (world != null) {
        assertNoSecretLeaked();
      }
      if (options == null) {
        deleteTheClustersLeft(context);
      }
    } catch (Throwable e) {
      throw e instanceof Error error ? error : new AssertionError(e);
    } finally {
      if (world != null && options != null) {
        world.close();
      }
    }
  }

  private void deleteTheClustersLeft(ExtensionContext context) throws Throwable {
    for (ClusterScenario scenario : scenarios) {
      if (scenario.cluster() != null) {
        try {
          scenario.deleteCluster();
        } catch (AssertionError e) {
          handleTestExecutionException(context, e);
        }
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
    SecretLeaks.Scan scan = secrets.findIn(workDir, world.hub(), namespaces);
    LOG.info(
        "{} secrets of {} clusters looked for in {} logs under {} and in the namespaces' Events and"
            + " conditions: {} found",
        secrets.size(),
        namespaces.size(),
        scan.logs(),
        workDir,
        scan.findings().size());
    // A check that read nothing would pass: the providers' logs at least (the secrets of each
    // installed cluster are checked as it is installed).
    assertThat(scan.logs())
        .as("logs scanned for secrets under " + workDir)
        .isGreaterThanOrEqualTo(2);
    SecretScanner.assertNone(scan.findings());
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
    dump.append("\n").append(agentControllerLastSeen());
    for (ClusterScenario scenario : scenarios) {
      dump.append("\n\n").append(scenario.dump());
    }
    for (WorldProcess manager : world.upstreamManagers()) {
      dump.append("\n")
          .append(manager.name())
          .append(" log: ")
          .append(manager.log().toAbsolutePath());
    }
    if (world.goProviders().isPresent()) {
      for (GoProviders.Manager manager : GoProviders.Manager.values()) {
        WorldProcess process = world.goProviders().get().process(manager);
        dump.append("\n").append(process.name()).append(" log: ").append(process.log());
      }
    } else {
      for (ProviderJar jar : ProviderJar.values()) {
        dump.append("\n").append(jar.command).append(" log: ").append(world.provider(jar).log());
      }
    }
    AssertionError withDump = new AssertionError(dump.toString(), failure);
    withDump.setStackTrace(failure.getStackTrace());
    throw withDump;
  }

  /**
   * When assisted-service's Agent controller (one worker for every Agent of the hub) last began and
   * ended a reconcile, and of which Agent: a controller stuck in one reconcile leaves every other
   * Agent without status. When the last one began has not ended, what that goroutine logged since
   * (its {@code go-id}) and the database sessions that wait: where it is stuck. And whether the
   * service's client waited on its own rate limit.
   */
  private String agentControllerLastSeen() {
    Path log = world.assistedService().log();
    String began = null;
    String ended = null;
    String goroutine = null;
    Deque<String> trail = new ArrayDeque<>();
    String throttled = null;
    int throttledLines = 0;
    try (Stream<String> lines = Files.lines(log, StandardCharsets.UTF_8)) {
      for (String l : (Iterable<String>) lines::iterator) {
        if (l.contains("msg=\"Agent Reconcile started\"")) {
          began = l;
          goroutine = goroutineOf(l);
          trail.clear();
        } else if (l.contains("msg=\"Agent Reconcile ended\"")) {
          ended = l;
          if (goroutine != null && goroutine.equals(goroutineOf(l))) {
            goroutine = null;
          }
        } else {
          // A throttling line of the unended goroutine belongs to its trail as well.
          if (l.contains("client-side throttling")) {
            throttled = l;
            throttledLines++;
          }
          if (goroutine != null && goroutine.equals(goroutineOf(l))) {
            trail.addLast(ClusterScenario.brief(l));
            if (trail.size() > 5) {
              trail.removeFirst();
            }
          }
        }
      }
    } catch (IOException | RuntimeException e) {
      return "assisted-service's log " + log + " unread: " + e;
    }
    StringBuilder out =
        new StringBuilder("assisted-service's Agent controller: last began ")
            .append(brief(began))
            .append("; last ended ")
            .append(brief(ended));
    if (throttled != null) {
      // client-go writes one such line at most every 10 s, for waits over 5 s.
      out.append("\n  a client of the service waited over 5 s for its own rate limit (")
          .append(throttledLines)
          .append(" lines), last: ")
          .append(ClusterScenario.brief(throttled));
    }
    if (goroutine != null) {
      out.append("\n  unended; what its goroutine logged since:");
      trail.forEach(l -> out.append("\n    ").append(l));
      out.append("\n  database sessions waiting or in a transaction:");
      try {
        world
            .assistedService()
            .postgres()
            .stuckSessions()
            .forEach(l -> out.append("\n    ").append(l));
      } catch (IOException | RuntimeException e) {
        out.append(" unread: ").append(e);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    return out.toString();
  }

  private static String goroutineOf(String logLine) {
    Matcher id = GOROUTINE.matcher(logLine);
    return id.find() ? id.group(1) : null;
  }

  private static String brief(String logLine) {
    if (logLine == null) {
      return "never";
    }
    Matcher time = Pattern.compile("time=\"([^\"]+)\"").matcher(logLine);
    Matcher agent = Pattern.compile(" agent=(\\S+) agent_namespace=(\\S+)").matcher(logLine);
    return (time.find() ? time.group(1) : "?")
        + (agent.find() ? " (Agent " + agent.group(2) + "/" + agent.group(1) + ")" : "");
  }
}
