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
 * The kubeconfig each control plane published, as this process last copied it: a look at the
 * installed cluster connects with it instead of reading two Secrets from the hub every time.
 *
 * <p>assisted-service writes the admin kubeconfig twice: a first version (no ingress CA) when it
 * fills the AgentClusterInstall's {@code spec.clusterMetadata}, the final one when the installation
 * is done and it adds the admin password Secret there. Both are edits of the AgentClusterInstall's
 * spec, so a copy is taken for one generation of it (which we watch): a new generation compares
 * them again. So does {@link #REFRESH}, for an edit of the Secret by someone else, and a restart.
 * Held in memory only, never logged.
 */
public final class PublishedKubeconfigs {
  /** How often the published copy is compared with assisted-service's regardless. */
  public static final Duration REFRESH = Duration.ofMinutes(10);

  private record Copy(String kubeconfig, long installGeneration, Instant copied) {}

  private final Supplier<Instant> now;
  private final Map<ResourceID, Copy> copies = new ConcurrentHashMap<>();

  /**
   * @param now the time now (a clock's instant)
   */
  public PublishedKubeconfigs(Supplier<Instant> now) {
    this.now = now;
  }

  /**
   * The kubeconfig to connect with, while it needs no comparison.
   *
   * @param installGeneration the AgentClusterInstall's generation now
   */
  public Optional<String> current(OpenshiftAssistedControlPlane cp, long installGeneration) {
    Copy copy = copies.get(ResourceID.fromResource(cp));
    return copy == null
            || copy.installGeneration() != installGeneration
            || !now.get().isBefore(copy.copied().plus(REFRESH))
        ? Optional.empty()
        : Optional.of(copy.kubeconfig());
  }

  /**
   * What this process published last, whatever the AgentClusterInstall's generation, while it is
   * trusted to be what our Secret holds (at most {@link #REFRESH} old).
   */
  public Optional<String> ours(OpenshiftAssistedControlPlane cp) {
    Copy copy = copies.get(ResourceID.fromResource(cp));
    return copy == null || !now.get().isBefore(copy.copied().plus(REFRESH))
        ? Optional.empty()
        : Optional.of(copy.kubeconfig());
  }

  /** {@code cp}'s kubeconfig was published (or compared) now, at that AgentClusterInstall. */
  public void published(
      OpenshiftAssistedControlPlane cp, long installGeneration, String kubeconfig) {
    copies.put(ResourceID.fromResource(cp), new Copy(kubeconfig, installGeneration, now.get()));
  }

  public void forget(OpenshiftAssistedControlPlane cp) {
    copies.remove(ResourceID.fromResource(cp));
  }
}
