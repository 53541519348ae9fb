package io.openshiftagent.controlplane.cluster;

import io.javaoperatorsdk.operator.processing.event.ResourceID;
import io.openshiftagent.api.controlplane.v1alpha3.OpenshiftAssistedControlPlane;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * The kubeconfig each control plane published, as this process last copied it, and when: a look at
 * the installed cluster connects with it instead of reading two Secrets from the hub every time.
 * assisted-service writes the admin kubeconfig once, when the cluster's API is up, so the copy is
 * compared with it again every {@link #REFRESH} (and after a restart), not at every look. Held in
 * memory only, never logged.
 */
public final class PublishedKubeconfigs {
  /** How often the published copy is compared with assisted-service's. */
  public static final Duration REFRESH = Duration.ofMinutes(10);

  private record Copy(String kubeconfig, Instant copied) {}

  private final Supplier<Instant> now;
  private final Map<ResourceID, Copy> copies = new ConcurrentHashMap<>();

  /**
   * @param now the time now (a clock's instant)
   */
  public PublishedKubeconfigs(Supplier<Instant> now) {
    this.now = now;
  }

  /** The kubeconfig to connect with, while it needs no comparison. */
  public Optional<String> current(OpenshiftAssistedControlPlane cp) {
    Copy copy = copies.get(ResourceID.fromResource(cp));
    return copy == null || !now.get().isBefore(copy.copied().plus(REFRESH))
        ? Optional.empty()
        : Optional.of(copy.kubeconfig());
  }

  /** {@code cp}'s kubeconfig was published (or compared) now. */
  public void published(OpenshiftAssistedControlPlane cp, String kubeconfig) {
    copies.put(ResourceID.fromResource(cp), new Copy(kubeconfig, now.get()));
  }

  public void forget(OpenshiftAssistedControlPlane cp) {
    copies.remove(ResourceID.fromResource(cp));
  }
}
