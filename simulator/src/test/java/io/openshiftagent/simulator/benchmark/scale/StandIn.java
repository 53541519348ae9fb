package io.openshiftagent.simulator.benchmark.scale;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.fabric8.kubernetes.client.informers.cache.Cache;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.openshiftagent.api.external.ExternalKinds;
import io.openshiftagent.api.external.OwnedFieldsPatch;
import io.openshiftagent.simulator.Fields;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One stand-in of the scale benchmark: it plays what a real component (Cluster API, CAPM3, the
 * baremetal-operator, assisted-service, the installed clusters) writes to the hub, as fast as the
 * {@link Pace} allows, without doing the work behind it. It proves load, not behaviour: the
 * end-to-end suite runs the real components.
 *
 * <p>Like a controller it is level-based: every event of an object queues that object's reaction
 * once (events coming while it waits collapse into one), and the reaction reads the object from the
 * stand-in's cache, decides the next write from what is there, and makes it. A step that takes time
 * is {@link #waited}: the object's reaction comes back when its time is up. A refused write (a
 * conflict, a busy server) queues the reaction again. The objects of one namespace are handled one
 * at a time, on one of a few lanes (threads).
 */
abstract class StandIn implements AutoCloseable {
  /** How every stand-in's user agent starts, in the hub's audit log. */
  static final String USER_AGENT_PREFIX = "openshift-agent-standin-";

  private static final int LANES = 4;
  private static final Duration RETRY = Duration.ofMillis(200);

  protected final Logger log = LoggerFactory.getLogger(getClass());
  protected final KubernetesClient client;
  protected final Pace pace;

  private final ScheduledExecutorService[] lanes = new ScheduledExecutorService[LANES];
  private final Map<String, SharedIndexInformer<GenericKubernetesResource>> informers =
      new ConcurrentHashMap<>();
  private final Map<String, Consumer<GenericKubernetesResource>> reactions =
      new ConcurrentHashMap<>();
  private final Set<String> queued = ConcurrentHashMap.newKeySet();
  private final Map<String, Long> stepsStarted = new ConcurrentHashMap<>();
  private volatile boolean started;

  /**
   * @param client a client of its own, named {@link #USER_AGENT_PREFIX}{@code <component>}; closed
   *     with the stand-in
   */
  StandIn(KubernetesClient client, Pace pace) {
    this.client = client;
    this.pace = pace;
    for (int i = 0; i < LANES; i++) {
      String name = "standin-" + getClass().getSimpleName() + "-" + i;
      lanes[i] =
          Executors.newSingleThreadScheduledExecutor(
              r -> {
                Thread thread = new Thread(r, name);
                thread.setDaemon(true);
                return thread;
              });
    }
  }

  /** Registers the watches and indexes ({@link #watch}, {@link #index}). */
  abstract void register();

  /** Starts the watches and waits until each has listed what exists. */
  final void start() {
    register();
    informers.values().forEach(SharedIndexInformer::run);
    started = true;
  }

  // ---- watching ----

  /** Reacts to every object of the kind on the hub, in all namespaces. */
  protected void watch(String apiVersion, String kind, Consumer<GenericKubernetesResource> react) {
    watch(client, apiVersion, kind, react);
  }

  /** Reacts to every object of the kind on the API server {@code source}. */
  protected void watch(
      KubernetesClient source,
      String apiVersion,
      String kind,
      Consumer<GenericKubernetesResource> react) {
    String id = informerId(source, apiVersion, kind);
    reactions.put(id, react);
    informer(source, apiVersion, kind)
        .addEventHandler(
            new ResourceEventHandler<>() {
              @Override
              public void onAdd(GenericKubernetesResource object) {
                queue(id, object, Duration.ZERO);
              }

              @Override
              public void onUpdate(GenericKubernetesResource old, GenericKubernetesResource now) {
                queue(id, now, Duration.ZERO);
              }

              @Override
              public void onDelete(GenericKubernetesResource object, boolean unknown) {
                forget(object);
              }
            });
  }

  /**
   * Calls {@code listener} with every added or changed object of a hub kind, on the watch's thread:
   * to requeue the reactions an object's change concerns (it must not write).
   */
  protected void onChange(
      String apiVersion, String kind, Consumer<GenericKubernetesResource> listener) {
    informer(client, apiVersion, kind)
        .addEventHandler(
            new ResourceEventHandler<>() {
              @Override
              public void onAdd(GenericKubernetesResource object) {
                listener.accept(object);
              }

              @Override
              public void onUpdate(GenericKubernetesResource old, GenericKubernetesResource now) {
                listener.accept(now);
              }

              @Override
              public void onDelete(GenericKubernetesResource object, boolean unknown) {}
            });
  }

  /** Requeues the reaction to the hub's object {@code namespace/name} of a watched kind. */
  protected void requeue(String apiVersion, String kind, String namespace, String name) {
    String id = informerId(client, apiVersion, kind);
    GenericKubernetesResource object =
        informers.get(id).getStore().getByKey(Cache.namespaceKeyFunc(namespace, name));
    if (object != null) {
      queue(id, object, Duration.ZERO);
    }
  }

  /** Requeues the reaction to each of the hub's objects. */
  protected void requeue(List<GenericKubernetesResource> objects) {
    objects.forEach(
        o ->
            requeue(
                o.getApiVersion(),
                o.getKind(),
                o.getMetadata().getNamespace(),
                o.getMetadata().getName()));
  }

  /** Indexes the hub's objects of a kind by {@code keys}, read back with {@link #indexed}. */
  protected void index(
      String apiVersion,
      String kind,
      String index,
      Function<GenericKubernetesResource, List<String>> keys) {
    index(client, apiVersion, kind, index, keys);
  }

  /** Indexes the objects of a kind on {@code source} by {@code keys}. */
  protected void index(
      KubernetesClient source,
      String apiVersion,
      String kind,
      String index,
      Function<GenericKubernetesResource, List<String>> keys) {
    informer(source, apiVersion, kind).addIndexers(Map.of(index, keys::apply));
  }

  protected List<GenericKubernetesResource> indexed(
      String apiVersion, String kind, String index, String key) {
    return indexed(client, apiVersion, kind, index, key);
  }

  protected List<GenericKubernetesResource> indexed(
      KubernetesClient source, String apiVersion, String kind, String index, String key) {
    return informer(source, apiVersion, kind).getIndexer().byIndex(index, key);
  }

  /** The hub's object as last seen, or null. */
  protected GenericKubernetesResource cached(
      String apiVersion, String kind, String namespace, String name) {
    return informer(client, apiVersion, kind)
        .getStore()
        .getByKey(Cache.namespaceKeyFunc(namespace, name));
  }

  /** The hub's objects of a kind in a namespace, as last seen. */
  protected List<GenericKubernetesResource> cachedIn(
      String apiVersion, String kind, String namespace) {
    return informer(client, apiVersion, kind)
        .getIndexer()
        .byIndex(Cache.NAMESPACE_INDEX, namespace);
  }

  private SharedIndexInformer<GenericKubernetesResource> informer(
      KubernetesClient source, String apiVersion, String kind) {
    return informers.computeIfAbsent(
        informerId(source, apiVersion, kind),
        id -> {
          SharedIndexInformer<GenericKubernetesResource> informer =
              source
                  .genericKubernetesResources(apiVersion, kind)
                  .inAnyNamespace()
                  .runnableInformer(0);
          if (started) {
            informer.run(); // a kind only read, first read after the start
          }
          return informer;
        });
  }

  private String informerId(KubernetesClient source, String apiVersion, String kind) {
    return (source == client ? "hub" : source.getMasterUrl()) + "|" + apiVersion + "|" + kind;
  }

  // ---- reacting ----

  private void queue(String informer, HasMetadata object, Duration delay) {
    String namespace = object.getMetadata().getNamespace();
    String key = informer + "|" + Cache.metaNamespaceKeyFunc(object);
    if (!queued.add(key)) {
      return;
    }
    ScheduledExecutorService lane =
        lanes[namespace == null ? 0 : Math.floorMod(namespace.hashCode(), LANES)];
    Runnable reaction =
        () -> {
          queued.remove(key);
          GenericKubernetesResource current =
              informers.get(informer).getStore().getByKey(Cache.metaNamespaceKeyFunc(object));
          if (current == null) {
            return;
          }
          try {
            reactions.get(informer).accept(current);
          } catch (KubernetesClientException e) {
            if (e.getCode() != 404) {
              // A conflict, a busy server: the same reaction on the object as it is then.
              log.debug("{} retries {}: {}", getClass().getSimpleName(), key, e.getMessage());
              queue(informer, current, RETRY);
            }
          } catch (RuntimeException e) {
            log.warn("{} failed to react to {}", getClass().getSimpleName(), key, e);
            queue(informer, current, RETRY.multipliedBy(5));
          }
        };
    try {
      lane.schedule(reaction, delay.toMillis(), TimeUnit.MILLISECONDS);
    } catch (java.util.concurrent.RejectedExecutionException closing) {
      queued.remove(key);
    }
  }

  /**
   * Whether {@code step} of the object has taken its time: the first call starts it; until it is
   * over this answers false and the object's reaction on the hub's {@code kind} comes back when it
   * is. A zero duration is over at once.
   */
  protected boolean waited(GenericKubernetesResource object, String step, Duration duration) {
    if (duration.isZero()) {
      return true;
    }
    String key = step + "|" + uidOf(object);
    long now = System.currentTimeMillis();
    long started = stepsStarted.computeIfAbsent(key, k -> now);
    long left = started + duration.toMillis() - now;
    if (left <= 0) {
      return true;
    }
    queue(
        informerId(client, object.getApiVersion(), object.getKind()),
        object,
        Duration.ofMillis(left));
    return false;
  }

  private void forget(HasMetadata object) {
    String uid = uidOf(object);
    stepsStarted.keySet().removeIf(key -> key.endsWith("|" + uid));
  }

  private static String uidOf(HasMetadata object) {
    return object.getMetadata().getUid();
  }

  // ---- writing ----

  /** An object by name, as a stub: a patch of it is one request. */
  protected Resource<GenericKubernetesResource> resource(
      String apiVersion, String kind, String namespace, String name) {
    GenericKubernetesResource stub = new GenericKubernetesResource();
    stub.setApiVersion(apiVersion);
    stub.setKind(kind);
    stub.setMetadata(new ObjectMetaBuilder().withNamespace(namespace).withName(name).build());
    return client.resource(stub);
  }

  protected Resource<GenericKubernetesResource> resource(HasMetadata object) {
    return resource(
        object.getApiVersion(),
        object.getKind(),
        object.getMetadata().getNamespace(),
        object.getMetadata().getName());
  }

  /** A JSON merge patch of the object's fields in {@code patch}. */
  protected void patch(HasMetadata object, OwnedFieldsPatch patch) {
    resource(object).patch(PatchContext.of(PatchType.JSON_MERGE), patch.toJson());
  }

  /** A JSON merge patch of the object's status subresource. */
  protected void patchStatus(HasMetadata object, OwnedFieldsPatch patch) {
    resource(object)
        .subresource("status")
        .patch(PatchContext.of(PatchType.JSON_MERGE), patch.toJson());
  }

  /** Creates the object; one that exists already is left as it is. */
  protected void createIfMissing(HasMetadata object) {
    try {
      client.resource(object).create();
    } catch (KubernetesClientException e) {
      if (e.getCode() != 409) {
        throw e;
      }
    }
  }

  /** Adds the finalizer, as the real controller does before it acts on an object it manages. */
  protected void holdFinalizer(GenericKubernetesResource object, String finalizer) {
    List<String> finalizers =
        new ArrayList<>(
            object.getMetadata().getFinalizers() == null
                ? List.of()
                : object.getMetadata().getFinalizers());
    if (!finalizers.contains(finalizer)) {
      finalizers.add(finalizer);
      patch(
          object,
          new OwnedFieldsPatch()
              .requireResourceVersion(object.getMetadata().getResourceVersion())
              .set(finalizers, "metadata", "finalizers"));
    }
  }

  // ---- conditions and owners, as the real controllers write them ----

  /**
   * The object's conditions with {@code ours} set (by type): each keeps its last transition time
   * when its status did not change; the conditions of other writers stay.
   */
  protected static List<Map<String, Object>> withConditions(
      GenericKubernetesResource object, List<Map<String, Object>> ours) {
    List<Map<String, Object>> merged = new ArrayList<>();
    List<Map<String, Object>> current = Fields.conditions(object);
    for (Map<String, Object> existing : current) {
      Map<String, Object> replacement =
          ours.stream()
              .filter(c -> c.get("type").equals(existing.get("type")))
              .findFirst()
              .orElse(null);
      if (replacement == null) {
        merged.add(existing);
      } else if (replacement.get("status").equals(existing.get("status"))) {
        Map<String, Object> kept = new java.util.LinkedHashMap<>(replacement);
        kept.put("lastTransitionTime", existing.get("lastTransitionTime"));
        merged.add(kept);
      } else {
        merged.add(replacement);
      }
    }
    for (Map<String, Object> condition : ours) {
      if (current.stream().noneMatch(c -> condition.get("type").equals(c.get("type")))) {
        merged.add(condition);
      }
    }
    return merged;
  }

  /** Whether the object's conditions say what {@code ours} say (times aside). */
  protected static boolean hasConditions(
      GenericKubernetesResource object, List<Map<String, Object>> ours) {
    List<Map<String, Object>> current = Fields.conditions(object);
    return ours.stream()
        .allMatch(
            c ->
                current.stream()
                    .anyMatch(
                        e ->
                            c.get("type").equals(e.get("type"))
                                && c.get("status").equals(e.get("status"))
                                && java.util.Objects.equals(c.get("reason"), e.get("reason"))
                                && java.util.Objects.equals(c.get("message"), e.get("message"))));
  }

  /** A reference to {@code owner}, as a controller (blocking its deletion) or not. */
  protected static Map<String, Object> ownerReference(HasMetadata owner, boolean controller) {
    Map<String, Object> ref = new java.util.LinkedHashMap<>();
    ref.put("apiVersion", owner.getApiVersion());
    ref.put("kind", owner.getKind());
    ref.put("name", owner.getMetadata().getName());
    ref.put("uid", owner.getMetadata().getUid());
    if (controller) {
      ref.put("controller", true);
      ref.put("blockOwnerDeletion", true);
    }
    return ref;
  }

  /**
   * Makes {@code owner} an owner of {@code object} and labels it with the cluster's name, as
   * Cluster API does with the objects a Cluster or Machine references; nothing when both are there.
   */
  protected void adopt(
      GenericKubernetesResource object, HasMetadata owner, boolean controller, String cluster) {
    List<io.fabric8.kubernetes.api.model.OwnerReference> refs =
        object.getMetadata().getOwnerReferences();
    boolean owned =
        refs != null
            && refs.stream().anyMatch(r -> r.getUid().equals(owner.getMetadata().getUid()));
    boolean labelled =
        cluster == null || cluster.equals(Fields.label(object, ExternalKinds.CLUSTER_NAME_LABEL));
    if (owned && labelled) {
      return;
    }
    OwnedFieldsPatch patch =
        new OwnedFieldsPatch().requireResourceVersion(object.getMetadata().getResourceVersion());
    if (!owned) {
      List<Object> updated = new ArrayList<>();
      if (refs != null) {
        refs.forEach(r -> updated.add(Serialization.jsonMapper().convertValue(r, Map.class)));
      }
      updated.add(ownerReference(owner, controller));
      patch.set(updated, "metadata", "ownerReferences");
    }
    if (!labelled) {
      patch.set(cluster, "metadata", "labels", ExternalKinds.CLUSTER_NAME_LABEL);
    }
    patch(object, patch);
  }

  protected static String namespace(HasMetadata object) {
    return object.getMetadata().getNamespace();
  }

  protected static String name(HasMetadata object) {
    return object.getMetadata().getName();
  }

  @Override
  public void close() {
    informers.values().forEach(SharedIndexInformer::close);
    for (ScheduledExecutorService lane : lanes) {
      lane.shutdownNow();
    }
    client.close();
  }
}
