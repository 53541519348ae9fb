package io.openshiftagent.simulator.e2e;

import java.util.Comparator;
import org.junit.jupiter.api.ClassDescriptor;
import org.junit.jupiter.api.ClassOrderer;
import org.junit.jupiter.api.ClassOrdererContext;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.parallel.ResourceAccessMode;
import org.junit.jupiter.api.parallel.ResourceLock;

/**
 * The order in which the classes start (junit-platform.properties): those without a world first
 * (they overlap with everything), then those that share the world (side by side), then those that
 * need a world alone ({@link E2eWorld}). A class that needs the world alone waits for every class
 * started before it, and holds back every class started after it: started last, it waits once.
 * Within a rank, a class with a lower {@link Order} comes first: JUnit's pool starts the first
 * classes of the list on other threads at once, so a long class given {@code @Order(1)} does not
 * begin late and end its run alone.
 *
 * <p>The classes with a world of their own run on two threads (simulator/pom.xml): the thread that
 * lists them runs the list from its end backwards, the other from its start forwards (JUnit forks
 * them in order and joins them in reverse; the idle thread steals the oldest). Their {@link Order}
 * therefore makes two lanes of about equal length (docs/testing.md, "How long it takes").
 */
public final class WorldClassOrder implements ClassOrderer {
  @Override
  public void orderClasses(ClassOrdererContext context) {
    context
        .getClassDescriptors()
        .sort(
            Comparator.comparingInt(WorldClassOrder::rank)
                .thenComparingInt(
                    d -> d.findAnnotation(Order.class).map(Order::value).orElse(Order.DEFAULT))
                .thenComparing(d -> d.getTestClass().getSimpleName()));
  }

  private static int rank(ClassDescriptor descriptor) {
    return descriptor
        .findAnnotation(ResourceLock.class)
        .filter(lock -> E2eWorld.WORLD.equals(lock.value()))
        .map(lock -> lock.mode() == ResourceAccessMode.READ ? 1 : 2)
        .orElse(0);
  }
}
