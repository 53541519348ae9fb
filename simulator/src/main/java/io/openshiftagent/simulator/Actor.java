package io.openshiftagent.simulator;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
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
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One simulated system. It reacts to watches of the API server and writes through the same API the
 * real system uses. The events of one namespace are handled one at a time, in order, on one of the
 * actor's lanes (threads); namespaces, and so clusters, proceed in parallel, as in a real
 * controller with several workers. A simulated duration is a delayed reaction on the same lane,
 * never a poll.
 */
abstract class Actor implements AutoCloseable {
  protected final Logger log = LoggerFactory.getLogger(getClass());
  protected final KubernetesClient client;

  /** Enough to overlap the requests of a few clusters; more would only crowd two cores. */
  private static final int LANES = 4;

  /** How long a reaction refused for a conflict waits before it is tried again, times its tries. */
  private static final Duration CONFLICT_RETRY = Duration.ofMillis(50);

  /** A reaction that keeps conflicting this often is a bug of the simulation: it is reported. */
  private static final int MAX_CONFLICTS = 40;

  private final ScheduledExecutorService[] lanes = new ScheduledExecutorService[LANES];
  private final ThreadLocal<Integer> currentLane = new ThreadLocal<>();

  /** The informers of this actor, by apiVersion and kind: what it watches and what it reads. */
  private final Map<String, SharedIndexInformer<GenericKubernetesResource>> informers =
      new ConcurrentHashMap<>();

  /** The informers of this actor on other API servers (workload clusters). */
  private final List<SharedIndexInformer<GenericKubernetesResource>> otherInformers =
      new CopyOnWriteArrayList<>();

  /**
   * @param client a client of its own, closed with the actor
   */
  Actor(KubernetesClient client) {
    this.client = client;
    for (int i = 0; i < LANES; i++) {
      int lane = i;
      String name = "sim-" + getClass().getSimpleName() + "-" + i;
      lanes[i] =
          Executors.newSingleThreadScheduledExecutor(
              r ->
                  new Thread(
                      () -> {
                        currentLane.set(lane);
                        r.run();
                      },
                      name));
    }
  }

  /** Starts the watches; events then arrive on this actor's lanes. */
  abstract void start();

  /** Calls {@code react} for every added or changed object of the kind, in all namespaces. */
  protected void watch(String apiVersion, String kind, Consumer<GenericKubernetesResource> react) {
    watch(client, apiVersion, kind, react, gone -> {});
  }

  /**
   * Calls {@code react} for every added or changed object of the kind in all namespaces of the API
   * server of {@code source}, and {@code gone} for every object deleted from it. A watch of this
   * actor's own API server also fills the cache that {@link #cached} reads.
   */
  protected void watch(
      KubernetesClient source,
      String apiVersion,
      String kind,
      Consumer<GenericKubernetesResource> react,
      Consumer<GenericKubernetesResource> gone) {
    ResourceEventHandler<GenericKubernetesResource> handler =
        new ResourceEventHandler<>() {
          @Override
          public void onAdd(GenericKubernetesResource object) {
            schedule(laneOf(object), Duration.ZERO, () -> react.accept(object));
          }

          @Override
          public void onUpdate(GenericKubernetesResource old, GenericKubernetesResource object) {
            schedule(laneOf(object), Duration.ZERO, () -> react.accept(object));
          }

          @Override
          public void onDelete(GenericKubernetesResource object, boolean unknown) {
            schedule(laneOf(object), Duration.ZERO, () -> gone.accept(object));
          }
        };
    if (source == client) {
      informer(apiVersion, kind).addEventHandler(handler);
    } else {
      otherInformers.add(
          source.genericKubernetesResources(apiVersion, kind).inAnyNamespace().inform(handler));
    }
  }

  /** Runs {@code action} on the current lane (the first one outside a lane). */
  protected void act(Runnable action) {
    after(Duration.ZERO, action);
  }

  /**
   * Runs {@code action} on the lane of the object's namespace: for a reaction handed over from
   * another actor.
   */
  protected void actOn(GenericKubernetesResource object, Runnable action) {
    schedule(laneOf(object), Duration.ZERO, action);
  }

  /** Runs {@code action} on the current lane once the simulated duration has passed. */
  protected void after(Duration duration, Runnable action) {
    schedule(lane(), duration, action);
  }

  private int lane() {
    Integer lane = currentLane.get();
    return lane == null ? 0 : lane;
  }

  private static int laneOf(GenericKubernetesResource object) {
    String namespace = object.getMetadata().getNamespace();
    return namespace == null ? 0 : Math.floorMod(namespace.hashCode(), LANES);
  }

  private void schedule(int lane, Duration duration, Runnable action) {
    schedule(lane, duration, action, 0);
  }

  /**
   * Runs the action on the lane. A write refused for a conflict is retried (the reaction reads the
   * current state again), never dropped: the simulated systems, like real controllers, requeue on a
   * conflict rather than wait for a watch event that may not come.
   */
  private void schedule(int lane, Duration duration, Runnable action, int conflicts) {
    if (lanes[lane].isShutdown()) {
      return;
    }
    lanes[lane].schedule(
        () -> {
          try {
            action.run();
          } catch (KubernetesClientException e) {
            if (e.getCode() == HttpURLConnection.HTTP_CONFLICT && conflicts < MAX_CONFLICTS) {
              log.debug("{}: conflict, retried: {}", getClass().getSimpleName(), e.getMessage());
              schedule(lane, CONFLICT_RETRY.multipliedBy(conflicts + 1), action, conflicts + 1);
            } else if (e.getCode() == HttpURLConnection.HTTP_NOT_FOUND) {
              // A vanished object: its deletion event brings what follows.
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

  /**
   * Runs {@code action} with the future's value on the current lane once it is there, without
   * blocking the lane meanwhile.
   */
  protected <T> void when(CompletableFuture<T> future, Consumer<T> action) {
    int lane = lane();
    future.whenComplete(
        (value, failure) -> {
          if (failure != null) {
            log.warn("{} cannot go on", getClass().getSimpleName(), failure);
          } else {
            schedule(lane, Duration.ZERO, () -> action.accept(value));
          }
        });
  }

  /**
   * The object as this actor's watch last saw it, as a controller reads its cache; kinds it does
   * not react to get a watch on first use.
   */
  protected GenericKubernetesResource cached(
      String apiVersion, String kind, String namespace, String name) {
    return informer(apiVersion, kind).getStore().getByKey(namespace + "/" + name);
  }

  /** The objects of a kind in a namespace, as this actor's watch last saw them. */
  protected List<GenericKubernetesResource> cachedIn(
      String apiVersion, String kind, String namespace) {
    return informer(apiVersion, kind).getStore().list().stream()
        .filter(o -> namespace.equals(o.getMetadata().getNamespace()))
        .toList();
  }

  private SharedIndexInformer<GenericKubernetesResource> informer(String apiVersion, String kind) {
    return informers.computeIfAbsent(
        apiVersion + "/" + kind,
        k -> client.genericKubernetesResources(apiVersion, kind).inAnyNamespace().inform());
  }

  /**
   * An object by name. It carries a stub of the object, so that a patch is one request (fabric8
   * reads an object it does not have before patching it).
   */
  protected Resource<GenericKubernetesResource> resource(
      String apiVersion, String kind, String namespace, String name) {
    GenericKubernetesResource stub = new GenericKubernetesResource();
    stub.setApiVersion(apiVersion);
    stub.setKind(kind);
    stub.setMetadata(new ObjectMetaBuilder().withNamespace(namespace).withName(name).build());
    return client.resource(stub);
  }

  protected static void mergePatch(Resource<GenericKubernetesResource> target, OwnedFieldsPatch p) {
    target.patch(PatchContext.of(PatchType.JSON_MERGE), p.toJson());
  }

  protected static void mergePatchStatus(
      Resource<GenericKubernetesResource> target, OwnedFieldsPatch p) {
    target.subresource("status").patch(PatchContext.of(PatchType.JSON_MERGE), p.toJson());
  }

  /**
   * Adds {@code finalizer}, as the real controller does before it acts on the object, so that its
   * deletion waits for {@link #releaseFinalizer}. Written with the object's resourceVersion: on a
   * conflict the reaction runs again on the current object.
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
    informers.values().forEach(SharedIndexInformer::close);
    otherInformers.forEach(SharedIndexInformer::close);
    for (ScheduledExecutorService lane : lanes) {
      lane.shutdownNow();
    }
    client.close();
  }
}
