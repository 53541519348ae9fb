package io.openshiftagent.simulator.e2e;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Another writer of the objects our providers patch, as a person with {@code kubectl label} or
 * another controller would be: it keeps changing labels and annotations under its own prefix on the
 * kinds it is given, in three ways — a merge patch of a label, a merge patch that removes one of
 * its annotations, and a read-modify-write {@code update} with the resourceVersion it read (tried
 * again on a conflict, as controllers do). It remembers what each object should hold of its keys
 * after its last successful write, so a test can show that no write of its was lost.
 */
final class OtherWriter implements AutoCloseable {
  static final String PREFIX = "other-writer.example.com/";

  /** One kind it writes: {@code apiVersion} and {@code kind}. */
  record Kind(String apiVersion, String kind) {}

  private final KubernetesClient client;
  private final String namespace;
  private final List<Kind> kinds;
  private final Random random;
  private final AtomicBoolean stop = new AtomicBoolean();
  private final Thread thread;

  /** By {@code kind/name/uid}: each of its label and annotation keys and the value it last set. */
  private final Map<String, Map<String, String>> expected = new TreeMap<>();

  private final Map<String, AtomicInteger> writes = new TreeMap<>();
  private final AtomicInteger conflicts = new AtomicInteger();
  private volatile Throwable failure;

  OtherWriter(KubernetesClient client, String namespace, List<Kind> kinds, long seed) {
    this.client = client;
    this.namespace = namespace;
    this.kinds = kinds;
    this.random = new Random(seed);
    this.thread = new Thread(this::run, "other-writer");
    thread.setDaemon(true);
  }

  void start() {
    thread.start();
  }

  private void run() {
    int sequence = 0;
    try {
      while (!stop.get()) {
        Kind kind = kinds.get(random.nextInt(kinds.size()));
        List<GenericKubernetesResource> objects =
            client
                .genericKubernetesResources(kind.apiVersion(), kind.kind())
                .inNamespace(namespace)
                .list()
                .getItems();
        if (!objects.isEmpty()) {
          GenericKubernetesResource object = objects.get(random.nextInt(objects.size()));
          write(kind, object, ++sequence);
        }
        Thread.sleep(20 + random.nextInt(60));
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (Throwable e) {
      failure = e;
    }
  }

  private void write(Kind kind, GenericKubernetesResource object, int sequence) {
    String value = "v" + sequence;
    // Three keys per object and kind of field, so values are also overwritten, not only added.
    String key = PREFIX + "k" + random.nextInt(3);
    int style = random.nextInt(3);
    try {
      switch (style) {
        case 0 -> mergePatch(object, Map.of("metadata", Map.of("labels", Map.of(key, value))));
        case 1 -> {
          Map<String, Object> annotations = new HashMap<>();
          annotations.put(key, null);
          mergePatch(object, Map.of("metadata", Map.of("annotations", annotations)));
        }
        default -> readModifyWrite(kind, object, key, value);
      }
    } catch (KubernetesClientException e) {
      if (e.getCode() == 404) {
        return; // deleted meanwhile: nothing was written
      }
      throw e;
    }
    String id = id(object);
    Map<String, String> keys = expected.computeIfAbsent(id, k -> new TreeMap<>());
    switch (style) {
      case 0 -> keys.put("label " + key, value);
      case 1 -> keys.remove("annotation " + key);
      default -> keys.put("annotation " + key, value);
    }
    writes.computeIfAbsent(kind.kind(), k -> new AtomicInteger()).incrementAndGet();
  }

  private void mergePatch(GenericKubernetesResource object, Map<String, Object> patch) {
    client
        .resource(object)
        .patch(PatchContext.of(PatchType.JSON_MERGE), Serialization.asJson(patch));
  }

  /** GET, change one annotation, PUT with the resourceVersion read; again on a conflict. */
  private void readModifyWrite(
      Kind kind, GenericKubernetesResource object, String key, String value) {
    while (true) {
      GenericKubernetesResource latest =
          client
              .genericKubernetesResources(kind.apiVersion(), kind.kind())
              .inNamespace(namespace)
              .withName(object.getMetadata().getName())
              .get();
      if (latest == null || !latest.getMetadata().getUid().equals(object.getMetadata().getUid())) {
        throw new KubernetesClientException("gone", 404, null);
      }
      Map<String, String> annotations =
          new LinkedHashMap<>(
              latest.getMetadata().getAnnotations() == null
                  ? Map.of()
                  : latest.getMetadata().getAnnotations());
      annotations.put(key, value);
      latest.getMetadata().setAnnotations(annotations);
      try {
        client.resource(latest).update();
        return;
      } catch (KubernetesClientException e) {
        if (e.getCode() != 409) {
          throw e;
        }
        conflicts.incrementAndGet();
      }
    }
  }

  private static String id(GenericKubernetesResource object) {
    return object.getKind()
        + "/"
        + object.getMetadata().getName()
        + "/"
        + object.getMetadata().getUid();
  }

  /** Stops writing; fails if a write failed otherwise than with a conflict or a deletion. */
  @Override
  public void close() throws InterruptedException {
    stop.set(true);
    thread.join(30_000);
    if (failure != null) {
      throw new AssertionError("the other writer failed", failure);
    }
  }

  /**
   * Its keys that an object does not hold as it last wrote them (a lost write), by object; empty
   * when none was lost. Objects that are gone are not looked at.
   */
  Map<String, List<String>> lostWrites() {
    Map<String, List<String>> lost = new TreeMap<>();
    for (Kind kind : kinds) {
      for (GenericKubernetesResource object :
          client
              .genericKubernetesResources(kind.apiVersion(), kind.kind())
              .inNamespace(namespace)
              .list()
              .getItems()) {
        Map<String, String> want = expected.getOrDefault(id(object), Map.of());
        Map<String, String> have = new TreeMap<>();
        own(object.getMetadata().getLabels()).forEach((k, v) -> have.put("label " + k, v));
        own(object.getMetadata().getAnnotations())
            .forEach((k, v) -> have.put("annotation " + k, v));
        if (!want.equals(have)) {
          lost.put(id(object), List.of("expected " + want, "found " + have));
        }
      }
    }
    return lost;
  }

  private static Map<String, String> own(Map<String, String> values) {
    Map<String, String> own = new TreeMap<>();
    if (values != null) {
      values.forEach(
          (k, v) -> {
            if (k.startsWith(PREFIX)) {
              own.put(k, v);
            }
          });
    }
    return own;
  }

  /** How many writes succeeded, by kind. */
  Map<String, Integer> writes() {
    Map<String, Integer> counts = new TreeMap<>();
    writes.forEach((kind, count) -> counts.put(kind, count.get()));
    return counts;
  }

  /**
   * How many of its read-modify-writes met a conflict (someone wrote in between) and were redone.
   */
  int conflicts() {
    return conflicts.get();
  }

  /** The objects it wrote at least once. */
  List<String> touched() {
    return new ArrayList<>(expected.keySet());
  }
}
