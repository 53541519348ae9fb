package io.openshiftagent.provider.reconcile;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.MicroTimeBuilder;
import io.fabric8.kubernetes.api.model.ObjectReferenceBuilder;
import io.fabric8.kubernetes.api.model.events.v1.Event;
import io.fabric8.kubernetes.api.model.events.v1.EventBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.UUID;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes Kubernetes Events (events.k8s.io/v1) about objects, for notable transitions a person
 * watching {@code kubectl describe} or {@code kubectl get events} should see. Events are best
 * effort: they are written in the background, in order, so that a reconcile never waits for them,
 * and one that cannot be written (or finds a full queue) is logged and dropped. Messages must never
 * carry secrets.
 */
public final class EventRecorder {
  public static final String NORMAL = "Normal";
  public static final String WARNING = "Warning";
  private static final Logger LOG = LoggerFactory.getLogger(EventRecorder.class);
  private static final DateTimeFormatter MICRO_TIME =
      DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSSSSXXX");

  /** One writer for the process: Events keep their order, and a burst waits in a bounded queue. */
  private static final ExecutorService WRITER =
      new ThreadPoolExecutor(
          1,
          1,
          0,
          TimeUnit.SECONDS,
          new ArrayBlockingQueue<>(10_000),
          DaemonThreads.named("event-writer"),
          (r, executor) -> LOG.warn("dropped an Event: too many are waiting to be written"));

  private final KubernetesClient client;
  private final String controller;
  private final String instance;

  /**
   * @param controller the reporting controller, e.g. {@code openshift-agent.io/bootstrap-provider}
   * @param instance the reporting instance, e.g. the pod name
   */
  public EventRecorder(KubernetesClient client, String controller, String instance) {
    this.client = client;
    this.controller = controller;
    this.instance = instance;
  }

  /**
   * Waits until the Events recorded so far in this process are written (or dropped); false when
   * {@code timeout} passed first. Called on stop, and by tests before they read Events.
   */
  public static boolean flush(Duration timeout) {
    try {
      WRITER.submit(() -> {}).get(timeout.toMillis(), TimeUnit.MILLISECONDS);
      return true;
    } catch (TimeoutException e) {
      return false;
    } catch (ExecutionException | RejectedExecutionException e) {
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  public void normal(HasMetadata regarding, String reason, String action, String note) {
    record(regarding, NORMAL, reason, action, note);
  }

  public void warning(HasMetadata regarding, String reason, String action, String note) {
    record(regarding, WARNING, reason, action, note);
  }

  private void record(
      HasMetadata regarding, String type, String reason, String action, String note) {
    String namespace = regarding.getMetadata().getNamespace();
    Event event =
        new EventBuilder()
            .withNewMetadata()
            .withName(
                regarding.getMetadata().getName()
                    + "."
                    + UUID.randomUUID().toString().substring(0, 8))
            .withNamespace(namespace == null ? "default" : namespace)
            .endMetadata()
            .withType(type)
            .withReason(reason)
            .withAction(action)
            .withNote(note.length() > 1024 ? note.substring(0, 1021) + "..." : note)
            .withEventTime(
                new MicroTimeBuilder()
                    .withTime(OffsetDateTime.now(ZoneOffset.UTC).format(MICRO_TIME))
                    .build())
            .withReportingController(controller)
            .withReportingInstance(instance)
            .withRegarding(
                new ObjectReferenceBuilder()
                    .withApiVersion(regarding.getApiVersion())
                    .withKind(regarding.getKind())
                    .withName(regarding.getMetadata().getName())
                    .withNamespace(namespace)
                    .withUid(regarding.getMetadata().getUid())
                    .withResourceVersion(regarding.getMetadata().getResourceVersion())
                    .build())
            .build();
    WRITER.execute(
        () -> {
          try {
            client
                .events()
                .v1()
                .events()
                .inNamespace(event.getMetadata().getNamespace())
                .resource(event)
                .create();
          } catch (RuntimeException e) { // refused, or the client closed meanwhile
            LOG.warn(
                "could not record event {} on {}: {}",
                reason,
                regarding.getMetadata().getName(),
                e.getMessage());
          }
        });
  }
}
