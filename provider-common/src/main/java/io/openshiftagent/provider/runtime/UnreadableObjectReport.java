package io.openshiftagent.provider.runtime;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.micrometer.core.instrument.Metrics;
import io.openshiftagent.provider.reconcile.EventRecorder;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reports each object the client skipped because it cannot be read ({@link UnreadableObjects}):
 * once per version of the object in this process (every informer of its kind, and every relist,
 * skips it again), as a warning in the log, a Warning Event {@value #REASON} on it, and the counter
 * {@value #COUNTER}{@code _total{kind}}.
 */
final class UnreadableObjectReport implements Consumer<UnreadableObjects.Skipped> {
  static final String COUNTER = "openshift_agent_unreadable_objects";
  static final String REASON = "Unreadable";
  private static final Logger LOG = LoggerFactory.getLogger(UnreadableObjectReport.class);

  /** Versions reported: a bounded memory, so a long-lived process does not grow with them. */
  private static final int REMEMBERED = 10_000;

  private final Map<String, Boolean> reported =
      new LinkedHashMap<>() {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Boolean> eldest) {
          return size() > REMEMBERED;
        }
      };

  private volatile EventRecorder events;

  /**
   * Counts from zero for each kind, so that an alert on the counter has a series from the start.
   */
  UnreadableObjectReport(List<Class<? extends HasMetadata>> kinds) {
    kinds.forEach(kind -> Metrics.counter(COUNTER, "kind", HasMetadata.getKind(kind)));
  }

  /** Where the Events go, once the client exists (it is built with the serialization we report). */
  void eventsTo(EventRecorder events) {
    this.events = events;
  }

  @Override
  public void accept(UnreadableObjects.Skipped skipped) {
    HasMetadata object = skipped.object();
    var metadata = object.getMetadata();
    String version = metadata.getUid() + "/" + metadata.getResourceVersion();
    synchronized (reported) {
      if (reported.put(version, Boolean.TRUE) != null) {
        return;
      }
    }
    LOG.warn(
        "skipping {} {}/{} (resourceVersion {}): it cannot be read: {}",
        object.getKind(),
        metadata.getNamespace(),
        metadata.getName(),
        metadata.getResourceVersion(),
        skipped.problem());
    Metrics.counter(COUNTER, "kind", object.getKind()).increment();
    EventRecorder recorder = events;
    if (recorder != null) {
      recorder.warning(
          object,
          REASON,
          "Read",
          "This provider cannot read this object and leaves it alone until it is changed: "
              + skipped.problem()
              + ". A CRD without this provider's bounds admitted it; set the field to a value the"
              + " current CRD admits.");
    }
  }
}
