package io.openshiftagent.simulator;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.openshiftagent.api.external.OwnedFieldsPatch;
import java.net.HttpURLConnection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One simulated system. It reacts to watches of the API server, one event at a time on its own
 * thread, and writes through the same API the real system uses. A simulated duration is a delayed
 * reaction on that thread, never a poll.
 */
abstract class Actor implements AutoCloseable {
  protected final Logger log = LoggerFactory.getLogger(getClass());
  protected final KubernetesClient client;
  private final ScheduledExecutorService thread;
  private final List<SharedIndexInformer<GenericKubernetesResource>> informers = new ArrayList<>();

  /**
   * @param client a client of its own, closed with the actor
   */
  Actor(KubernetesClient client) {
    this.client = client;
    String name = "sim-" + getClass().getSimpleName();
    this.thread = Executors.newSingleThreadScheduledExecutor(r -> new Thread(r, name));
  }

  /** Starts the watches; events then arrive on this actor's thread. */
  abstract void start();

  /** Calls {@code react} for every added or changed object of the kind, in all namespaces. */
  protected void watch(String apiVersion, String kind, Consumer<GenericKubernetesResource> react) {
    watch(client, apiVersion, kind, react, gone -> {});
  }

  /**
   * Calls {@code react} for every added or changed object of the kind in all namespaces of the API
   * server of {@code source}, and {@code gone} for every object deleted from it.
   */
  protected void watch(
      KubernetesClient source,
      String apiVersion,
      String kind,
      Consumer<GenericKubernetesResource> react,
      Consumer<GenericKubernetesResource> gone) {
    informers.add(
        source
            .genericKubernetesResources(apiVersion, kind)
            .inAnyNamespace()
            .inform(
                new ResourceEventHandler<>() {
                  @Override
                  public void onAdd(GenericKubernetesResource object) {
                    act(() -> react.accept(object));
                  }

                  @Override
                  public void onUpdate(
                      GenericKubernetesResource old, GenericKubernetesResource object) {
                    act(() -> react.accept(object));
                  }

                  @Override
                  public void onDelete(GenericKubernetesResource object, boolean unknown) {
                    act(() -> gone.accept(object));
                  }
                }));
  }

  /** Runs {@code action} on this actor's thread. */
  protected void act(Runnable action) {
    after(Duration.ZERO, action);
  }

  /** Runs {@code action} on this actor's thread once the simulated duration has passed. */
  protected void after(Duration duration, Runnable action) {
    if (thread.isShutdown()) {
      return;
    }
    thread.schedule(
        () -> {
          try {
            action.run();
          } catch (KubernetesClientException e) {
            if (e.getCode() == HttpURLConnection.HTTP_CONFLICT
                || e.getCode() == HttpURLConnection.HTTP_NOT_FOUND) {
              // A conflict or a vanished object: the next watch event brings the current state.
              log.debug("{}: {}", getClass().getSimpleName(), e.getMessage());
            } else {
              log.warn("{} failed to write: {}", getClass().getSimpleName(), e.getMessage());
            }
          } catch (RuntimeException e) {
            log.warn("{} failed to react", getClass().getSimpleName(), e);
          }
        },
        duration.toMillis(),
        TimeUnit.MILLISECONDS);
  }

  protected Resource<GenericKubernetesResource> resource(
      String apiVersion, String kind, String namespace, String name) {
    return client
        .genericKubernetesResources(apiVersion, kind)
        .inNamespace(namespace)
        .withName(name);
  }

  /** The objects of a kind in one namespace. */
  protected List<GenericKubernetesResource> list(String apiVersion, String kind, String namespace) {
    return client
        .genericKubernetesResources(apiVersion, kind)
        .inNamespace(namespace)
        .list()
        .getItems();
  }

  protected static void mergePatch(Resource<GenericKubernetesResource> target, OwnedFieldsPatch p) {
    target.patch(PatchContext.of(PatchType.JSON_MERGE), p.toJson());
  }

  protected static void mergePatchStatus(
      Resource<GenericKubernetesResource> target, OwnedFieldsPatch p) {
    target.subresource("status").patch(PatchContext.of(PatchType.JSON_MERGE), p.toJson());
  }

  /**
   * The reconcile of a controller with a finalizer: the object as it is now; while it lives, the
   * finalizer held and {@code reconcile}; once it is being deleted, {@code cleanUp}, which says
   * whether the cleanup is done and the finalizer can go.
   */
  protected void reconcileWithFinalizer(
      GenericKubernetesResource event,
      String finalizer,
      Consumer<GenericKubernetesResource> reconcile,
      Predicate<GenericKubernetesResource> cleanUp) {
    GenericKubernetesResource object = current(event);
    if (object == null) {
      return;
    }
    if (isDeleting(object)) {
      if (cleanUp.test(object)) {
        releaseFinalizer(object, finalizer);
      }
      return;
    }
    holdFinalizer(object, finalizer);
    reconcile.accept(object);
  }

  /**
   * Adds {@code finalizer}, as the real controller does before it acts on the object, so that its
   * deletion waits for {@link #releaseFinalizer}. Written with the object's resourceVersion: a
   * conflict means a newer event is on its way.
   */
  protected void holdFinalizer(GenericKubernetesResource object, String finalizer) {
    List<String> finalizers = finalizers(object);
    if (!finalizers.contains(finalizer) && object.getMetadata().getDeletionTimestamp() == null) {
      finalizers.add(finalizer);
      writeFinalizers(object, finalizers);
    }
  }

  /** Removes {@code finalizer}: the real controller's cleanup is done. */
  protected void releaseFinalizer(GenericKubernetesResource object, String finalizer) {
    List<String> finalizers = finalizers(object);
    if (finalizers.remove(finalizer)) {
      writeFinalizers(object, finalizers);
    }
  }

  private void writeFinalizers(GenericKubernetesResource object, List<String> finalizers) {
    mergePatch(
        resource(
            object.getApiVersion(),
            object.getKind(),
            object.getMetadata().getNamespace(),
            object.getMetadata().getName()),
        new OwnedFieldsPatch()
            .requireResourceVersion(object.getMetadata().getResourceVersion())
            .set(finalizers, "metadata", "finalizers"));
  }

  private static List<String> finalizers(GenericKubernetesResource object) {
    List<String> finalizers = object.getMetadata().getFinalizers();
    return finalizers == null ? new ArrayList<>() : new ArrayList<>(finalizers);
  }

  /** The object as the API server has it now (an event may be older), or null when gone. */
  protected GenericKubernetesResource current(GenericKubernetesResource event) {
    return resource(event.getApiVersion(), event.getKind(), namespace(event), name(event)).get();
  }

  static String key(GenericKubernetesResource object) {
    return namespace(object) + "/" + name(object);
  }

  static String namespace(GenericKubernetesResource object) {
    return object.getMetadata().getNamespace();
  }

  static String name(GenericKubernetesResource object) {
    return object.getMetadata().getName();
  }

  protected static boolean isDeleting(GenericKubernetesResource object) {
    return object.getMetadata().getDeletionTimestamp() != null;
  }

  @Override
  public void close() {
    informers.forEach(SharedIndexInformer::close);
    thread.shutdownNow();
    client.close();
  }
}
