package io.openshiftagent.simulator.e2e;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.openshiftagent.simulator.Fields;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.IntSupplier;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What Argo CD reported about one Application, as it wrote it in the Application's status: every
 * change of its sync status, health, synced revision, number of syncs or any resource's health, in
 * the order a watch saw them, each logged. The test asks what was reported between two moments.
 */
final class ApplicationTimeline implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(ApplicationTimeline.class);

  /**
   * One report.
   *
   * @param sync {@code status.sync.status}: Synced, OutOfSync, Unknown
   * @param health {@code status.health.status}: Healthy, Progressing, Degraded, Missing...
   * @param revision the Git commit the sync status compares with
   * @param syncs how many syncs Argo CD ran ({@code status.history})
   * @param resources each managed resource ({@code Kind name}) → its sync status, health and health
   *     message
   * @param index its place in the timeline
   */
  record Report(
      int index,
      String sync,
      String health,
      String revision,
      int syncs,
      Map<String, String> resources,
      Instant at) {

    boolean is(String syncStatus, String healthStatus) {
      return syncStatus.equals(sync) && healthStatus.equals(health);
    }

    /** The health message Argo CD computed for one resource ({@code Kind name}). */
    String resourceHealth(String resource) {
      return resources.get(resource);
    }

    String describe() {
      return "sync "
          + sync
          + " at "
          + (revision == null ? "-" : revision.substring(0, Math.min(7, revision.length())))
          + ", health "
          + health
          + ", "
          + syncs
          + " sync(s); "
          + resources;
    }

    private boolean sameAs(Report other) {
      return other != null
          && java.util.Objects.equals(sync, other.sync)
          && java.util.Objects.equals(health, other.health)
          && java.util.Objects.equals(revision, other.revision)
          && syncs == other.syncs
          && resources.equals(other.resources);
    }
  }

  private final String name;
  private final IntSupplier comparisons;
  private final List<Report> reports = new ArrayList<>();
  private final SharedIndexInformer<GenericKubernetesResource> informer;
  private boolean gone;

  private ApplicationTimeline(KubernetesClient hub, String name, IntSupplier comparisons) {
    this.name = name;
    this.comparisons = comparisons;
    this.informer =
        hub.genericKubernetesResources(ArgoCd.API_VERSION, "Application")
            .inNamespace(ArgoCd.NAMESPACE)
            .withName(name)
            .inform(
                new ResourceEventHandler<>() {
                  @Override
                  public void onAdd(GenericKubernetesResource app) {
                    record(app);
                  }

                  @Override
                  public void onUpdate(
                      GenericKubernetesResource old, GenericKubernetesResource app) {
                    record(app);
                  }

                  @Override
                  public void onDelete(GenericKubernetesResource app, boolean unknown) {
                    synchronized (ApplicationTimeline.this) {
                      gone = true;
                      ApplicationTimeline.this.notifyAll();
                    }
                  }
                });
  }

  /**
   * Starts watching Application {@code name} in Argo CD's namespace; {@code comparisons} tells how
   * many times Argo CD has compared it with Git and the live objects so far.
   */
  static ApplicationTimeline watch(KubernetesClient hub, String name, IntSupplier comparisons) {
    return new ApplicationTimeline(hub, name, comparisons);
  }

  private synchronized void record(GenericKubernetesResource app) {
    Report report = report(reports.size(), app);
    Report last = reports.isEmpty() ? null : reports.get(reports.size() - 1);
    if (report.sync() != null && !report.sameAs(last)) {
      reports.add(report);
      LOG.info("Application {} #{}: {}", name, report.index(), report.describe());
      notifyAll();
    }
  }

  @SuppressWarnings("unchecked")
  private static Report report(int index, GenericKubernetesResource app) {
    Map<String, String> resources = new LinkedHashMap<>();
    if (Fields.get(app, "status", "resources") instanceof List<?> list) {
      for (Object item : list) {
        Map<String, Object> resource = (Map<String, Object>) item;
        Map<String, Object> health =
            resource.get("health") instanceof Map<?, ?> h ? (Map<String, Object>) h : Map.of();
        String message = (String) health.get("message");
        resources.put(
            resource.get("kind") + " " + resource.get("name"),
            resource.get("status")
                + " "
                + health.getOrDefault("status", "-")
                + (message == null ? "" : " (" + message + ")"));
      }
    }
    Object history = Fields.get(app, "status", "history");
    return new Report(
        index,
        Fields.string(app, "status", "sync", "status"),
        Fields.string(app, "status", "health", "status"),
        Fields.string(app, "status", "sync", "revision"),
        history instanceof List<?> h ? h.size() : 0,
        resources,
        Instant.now());
  }

  String name() {
    return name;
  }

  /** How many reports so far: a mark to look at what came after. */
  synchronized int mark() {
    return reports.size();
  }

  /** The reports from {@code mark} on. */
  synchronized List<Report> since(int mark) {
    return List.copyOf(reports.subList(mark, reports.size()));
  }

  synchronized Report last() {
    return reports.isEmpty() ? null : reports.get(reports.size() - 1);
  }

  /**
   * Waits until a report from {@code mark} on satisfies {@code condition}; returns it. Fails after
   * {@code timeout} with every report since the mark.
   */
  synchronized Report await(String what, int mark, Predicate<Report> condition, Duration timeout)
      throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    int next = mark;
    while (true) {
      for (; next < reports.size(); next++) {
        if (condition.test(reports.get(next))) {
          return reports.get(next);
        }
      }
      long left = deadline - System.nanoTime();
      if (left <= 0) {
        throw new AssertionError(
            "Application "
                + name
                + ": timed out after "
                + timeout
                + " waiting for "
                + what
                + "; reports since:\n  "
                + String.join("\n  ", since(mark).stream().map(Report::describe).toList()));
      }
      wait(Math.max(1, left / 1_000_000));
    }
  }

  /** Waits until the Application is deleted. */
  synchronized void awaitGone(Duration timeout) throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (!gone) {
      long left = deadline - System.nanoTime();
      if (left <= 0) {
        throw new AssertionError(
            "Application "
                + name
                + " still exists after "
                + timeout
                + "; last: "
                + last().describe());
      }
      wait(Math.max(1, left / 1_000_000));
    }
  }

  /**
   * Logs the Application's sync status and health as Argo CD last reported them, as the step's
   * outcome (the report quotes these lines).
   */
  void step(String step) {
    Report last = last();
    LOG.info(
        "Argo CD step \"{}\": Application {} {} / {} (revision {}, {} sync(s), {} comparisons so far)",
        step,
        name,
        last.sync(),
        last.health(),
        last.revision(),
        last.syncs(),
        comparisons.getAsInt());
  }

  @Override
  public void close() {
    informer.close();
  }
}
