package io.openshiftagent.provider.reconcile;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.javaoperatorsdk.operator.api.config.informer.InformerEventSourceConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.EventSourceContext;
import io.javaoperatorsdk.operator.processing.event.ResourceID;
import io.javaoperatorsdk.operator.processing.event.source.IndexerResourceCache;
import io.javaoperatorsdk.operator.processing.event.source.SecondaryToPrimaryMapper;
import io.javaoperatorsdk.operator.processing.event.source.informer.InformerEventSource;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.UnaryOperator;
import java.util.stream.Collectors;

/**
 * The watches a controller's caches are made of: one call per watched kind, read back by namespace
 * and name, and the controller's own objects indexed by a label that names what they belong to.
 */
public final class Informers {
  private Informers() {}

  /**
   * An informer of {@code kind} for the context's controller, named {@code name}, whose events go
   * to the objects {@code toPrimaries} names.
   */
  public static <R extends HasMetadata, P extends HasMetadata> InformerEventSource<R, P> informer(
      EventSourceContext<P> context,
      Class<R> kind,
      String name,
      SecondaryToPrimaryMapper<R> toPrimaries) {
    return informer(context, kind, name, toPrimaries, options -> options);
  }

  /**
   * The same, with {@code options} (a label selector, an event filter) added. The cache keeps what
   * {@link CachedObjects#trim} leaves, unless the options name another store.
   */
  public static <R extends HasMetadata, P extends HasMetadata> InformerEventSource<R, P> informer(
      EventSourceContext<P> context,
      Class<R> kind,
      String name,
      SecondaryToPrimaryMapper<R> toPrimaries,
      UnaryOperator<InformerEventSourceConfiguration.Builder<R>> options) {
    return new InformerEventSource<>(
        options
            .apply(
                InformerEventSourceConfiguration.from(kind, context.getPrimaryResourceClass())
                    .withName(name)
                    .withSecondaryToPrimaryMapper(toPrimaries)
                    .withItemStore(CachedObjects.store()))
            .build(),
        context);
  }

  /** The informer's cached object {@code namespace/name}. */
  public static <R extends HasMetadata> Optional<R> cached(
      InformerEventSource<R, ?> informer, String namespace, String name) {
    return informer.get(new ResourceID(name, namespace));
  }

  /**
   * Indexes the controller's objects under {@code index} by the value of {@code label}, as {@code
   * namespace/value}; an object without the label is not indexed.
   */
  public static <P extends HasMetadata> void indexByLabel(
      IndexerResourceCache<P> primaries, String index, String label) {
    primaries.addIndexer(
        index,
        object ->
            Optional.ofNullable(Metadata.label(object, label))
                .map(value -> List.of(Metadata.key(object.getMetadata().getNamespace(), value)))
                .orElse(List.of()));
  }

  /** The controller's objects under {@code key} of {@code index}: those an event concerns. */
  public static <P extends HasMetadata> Set<ResourceID> indexed(
      IndexerResourceCache<P> primaries, String index, String key) {
    return primaries.byIndex(index, key).stream()
        .map(ResourceID::fromResource)
        .collect(Collectors.toSet());
  }
}
