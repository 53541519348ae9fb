package io.openshiftagent.simulator.benchmark;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.openshiftagent.testsupport.ApiServer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * When things happened on the hub, as one watcher saw them: for each object, the first time each of
 * its marks (a named condition on its content, e.g. "approved") was true. Every mark is timed by
 * the same clock on the same kind of watch, so the difference between two marks is what happened in
 * between, give or take the watch's delivery.
 */
public final class Timeline implements AutoCloseable {
  private final KubernetesClient hub;
  private final Map<String, Long> firstTimes = new ConcurrentHashMap<>();
  private final Map<String, Map<String, GenericKubernetesResource>> latest =
      new ConcurrentHashMap<>();
  private final List<SharedIndexInformer<GenericKubernetesResource>> informers = new ArrayList<>();

  /**
   * Watches through a client of its own: on the world's shared client, marks were seen up to 0.6 s
   * after the write the audit log shows (InfraEnvs created: p95 0.38 s), on its own within 0.15 s;
   * that delay counted in the providers' stages.
   */
  public Timeline(ApiServer hub) {
    this.hub = hub.newClient();
  }

  /**
   * Watches a kind in all namespaces; {@code marks} names, for an object, the marks true now (e.g.
   * "exists", "state:installing").
   */
  public void watch(
      String apiVersion, String kind, Function<GenericKubernetesResource, List<String>> marks) {
    informers.add(
        hub.genericKubernetesResources(apiVersion, kind)
            .inAnyNamespace()
            .inform(
                new ResourceEventHandler<>() {
                  @Override
                  public void onAdd(GenericKubernetesResource object) {
                    record(kind, object, marks);
                  }

                  @Override
                  public void onUpdate(
                      GenericKubernetesResource old, GenericKubernetesResource object) {
                    record(kind, object, marks);
                  }

                  @Override
                  public void onDelete(GenericKubernetesResource object, boolean unknown) {}
                }));
  }

  private void record(
      String kind,
      GenericKubernetesResource object,
      Function<GenericKubernetesResource, List<String>> marks) {
    long now = System.currentTimeMillis();
    latest.computeIfAbsent(kind, k -> new ConcurrentHashMap<>()).put(key(object), object);
    for (String mark : marks.apply(object)) {
      firstTimes.putIfAbsent(kind + "|" + key(object) + "|" + mark, now);
    }
  }

  /** When the object first had the mark (epoch milliseconds), if it ever had. */
  public OptionalLong first(String kind, String namespace, String name, String mark) {
    Long time = firstTimes.get(kind + "|" + namespace + "/" + name + "|" + mark);
    return time == null ? OptionalLong.empty() : OptionalLong.of(time);
  }

  /** The objects of a kind as last seen. */
  public List<GenericKubernetesResource> objects(String kind) {
    return List.copyOf(latest.getOrDefault(kind, Map.of()).values());
  }

  public GenericKubernetesResource object(String kind, String namespace, String name) {
    return latest.getOrDefault(kind, Map.of()).get(namespace + "/" + name);
  }

  /** Every mark, one per line: epoch ms, kind, namespace/name, mark; in time order. */
  public void write(Path file) throws IOException {
    List<String> lines = new ArrayList<>();
    firstTimes.forEach((key, time) -> lines.add(time + "\t" + key.replace('|', '\t')));
    lines.sort(null);
    Files.write(file, lines);
  }

  private static String key(HasMetadata object) {
    return object.getMetadata().getNamespace() + "/" + object.getMetadata().getName();
  }

  @Override
  public void close() {
    informers.forEach(SharedIndexInformer::close);
    hub.close();
  }
}
