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
   * Restricts a controller's primary resources to the watched namespaces only, for kinds Cluster
   * API's watch filter label never reaches (such as assisted-service's Agents).
   */
  public <P extends HasMetadata> Consumer<ControllerConfigurationOverrider<P>> applyNamespaces() {
    return o -> {
      if (!namespaces.isEmpty()) {
        o.settingNamespaces(namespaces);
      }
    };
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
