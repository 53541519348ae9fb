package io.openshiftagent.provider.runtime;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.javaoperatorsdk.operator.api.config.ControllerConfigurationOverrider;
import io.openshiftagent.api.external.ExternalKinds;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;

/**
 * Which objects this process manages: the watched namespaces (empty: all) and the Cluster API watch
 * filter. Controllers apply it to their primary resources through {@link #apply()}.
 */
public record ControllerScope(Set<String> namespaces, Optional<String> watchFilter) {
  public static final ControllerScope EVERYTHING = new ControllerScope(Set.of(), Optional.empty());

  /** The label selector of the watch filter, if one is set. */
  public Optional<String> labelSelector() {
    return watchFilter.map(v -> ExternalKinds.WATCH_FILTER_LABEL + "=" + v);
  }

  /**
   * {@code base} (a label selector, or null) restricted to the watch filter: how a watch of the
   * objects this process manages, or of what they are made of, selects; null when there is neither.
   * With a watch filter, what a controller reads of other kinds must carry the label too (the
   * secondary caches then hold one shard's objects, not the whole hub's).
   */
  public String selector(String base) {
    if (labelSelector().isEmpty()) {
      return base;
    }
    return base == null || base.isEmpty()
        ? labelSelector().get()
        : base + "," + labelSelector().get();
  }

  /** Restricts a controller's primary resources to this scope. */
  public <P extends HasMetadata> Consumer<ControllerConfigurationOverrider<P>> apply() {
    return o -> {
      if (!namespaces.isEmpty()) {
        o.settingNamespaces(namespaces);
      }
      labelSelector().ifPresent(o::withLabelSelector);
    };
  }
}
