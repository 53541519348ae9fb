package io.openshiftagent.simulator.e2e;

import java.util.Arrays;
import java.util.Comparator;
import java.util.HashSet;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ForkJoinPool;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.parallel.ResourceLock;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.engine.support.descriptor.ClassSource;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.TestPlan;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * When a class with a hub of its own ({@code @Tag(E2eWorld.HUB_OF_ITS_OWN)}) may start: all classes
 * run in one JUnit launch, and the classes on the shared world keep 2 cores about four-fifths busy
 * until only their longest are left. A class with a hub of its own waits until at most {@link
 * #SHARED_LEFT} classes on the shared world are unfinished, and until fewer than {@link #AT_ONCE}
 * such classes run; among those waiting, the lowest {@link Order} goes first (docs/testing.md gives
 * the order and why). Registered for every class by JUnit's extension auto-detection, and as a
 * listener of the launch that counts the shared world's classes (META-INF/services). Without that
 * count (one class run alone) nothing waits.
 *
 * <p>Waiting is a {@link ForkJoinPool#managedBlock managed block}: JUnit's pool starts another
 * thread for the classes on the shared world while these wait.
 */
public final class OwnHubAdmission
    implements BeforeAllCallback, AfterAllCallback, TestExecutionListener {
  private static final Logger LOG = LoggerFactory.getLogger(OwnHubAdmission.class);

  /** Classes with a hub of their own running at once (four saturated 2 cores). */
  static final int AT_ONCE = 2;

  /** Unfinished classes on the shared world from which the first class of its own may start. */
  static final int SHARED_LEFT = 4;

  private static final Object LOCK = new Object();
  private static final Set<String> unfinishedShared = new HashSet<>();
  private static final TreeSet<Class<?>> waiting =
      new TreeSet<>(
          Comparator.<Class<?>>comparingInt(OwnHubAdmission::order).thenComparing(Class::getName));
  private static final Set<Class<?>> running = new HashSet<>();

  @Override
  public void testPlanExecutionStarted(TestPlan plan) {
    synchronized (LOCK) {
      for (TestIdentifier root : plan.getRoots()) {
        for (TestIdentifier test : plan.getDescendants(root)) {
          if (sharedWorldClass(test)) {
            unfinishedShared.add(test.getUniqueId());
          }
        }
      }
    }
  }

  @Override
  public void executionFinished(TestIdentifier test, TestExecutionResult result) {
    finished(test);
  }

  @Override
  public void executionSkipped(TestIdentifier test, String reason) {
    finished(test);
  }

  @Override
  public void beforeAll(ExtensionContext context) throws InterruptedException {
    Class<?> testClass = context.getRequiredTestClass();
    if (!hubOfItsOwn(testClass)) {
      return;
    }
    long since = System.nanoTime();
    synchronized (LOCK) {
      waiting.add(testClass);
    }
    ForkJoinPool.managedBlock(new Admission(testClass));
    LOG.info(
        "{} starts its hub after waiting {} s for its turn",
        testClass.getSimpleName(),
        (System.nanoTime() - since) / 1_000_000_000);
  }

  @Override
  public void afterAll(ExtensionContext context) {
    if (hubOfItsOwn(context.getRequiredTestClass())) {
      synchronized (LOCK) {
        running.remove(context.getRequiredTestClass());
        LOCK.notifyAll();
      }
    }
  }

  private static void finished(TestIdentifier test) {
    synchronized (LOCK) {
      if (unfinishedShared.remove(test.getUniqueId())) {
        LOCK.notifyAll();
      }
    }
  }

  /** Admits its class, under {@link #LOCK}, once it may start. */
  private record Admission(Class<?> testClass) implements ForkJoinPool.ManagedBlocker {
    @Override
    public boolean block() throws InterruptedException {
      synchronized (LOCK) {
        while (!admit()) {
          LOCK.wait();
        }
      }
      return true;
    }

    @Override
    public boolean isReleasable() {
      synchronized (LOCK) {
        return admit();
      }
    }

    /** Whether its turn came (it then counts as running), or it was admitted before. */
    private boolean admit() {
      if (!waiting.contains(testClass)) {
        return true;
      }
      if (unfinishedShared.size() > SHARED_LEFT
          || running.size() >= AT_ONCE
          || waiting.first() != testClass) {
        return false;
      }
      waiting.remove(testClass);
      running.add(testClass);
      LOCK.notifyAll();
      return true;
    }
  }

  private static boolean sharedWorldClass(TestIdentifier test) {
    return test.getSource()
        .filter(ClassSource.class::isInstance)
        .map(source -> ((ClassSource) source).getJavaClass().getAnnotation(ResourceLock.class))
        .filter(lock -> E2eWorld.WORLD.equals(lock.value()))
        .isPresent();
  }

  static boolean hubOfItsOwn(Class<?> testClass) {
    return Arrays.stream(testClass.getAnnotationsByType(Tag.class))
        .anyMatch(tag -> E2eWorld.HUB_OF_ITS_OWN.equals(tag.value()));
  }

  private static int order(Class<?> testClass) {
    Order order = testClass.getAnnotation(Order.class);
    return order == null ? Order.DEFAULT : order.value();
  }
}
