package io.openshiftagent.controlplane.cluster;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * The kubeconfig a control plane published, as this process last copied it: a look at the installed
 * cluster connects with it instead of reading two Secrets from the hub every time. Held in memory
 * only, never logged.
 *
 * <p>assisted-service writes the admin kubeconfig twice: a first version (no ingress CA) when it
 * fills the AgentClusterInstall's {@code spec.clusterMetadata}, the final one when the installation
 * is done and it adds the admin password Secret there. Both are edits of the AgentClusterInstall's
 * spec, so a copy is taken for one generation of it (which we watch): a new generation compares
 * them again. So does {@link #REFRESH}, for an edit of the Secret by someone else, and a restart.
 *
 * @param installGeneration the AgentClusterInstall's generation when it was copied
 */
public record PublishedKubeconfig(String kubeconfig, long installGeneration, Instant copied) {
  /** How often the published copy is compared with assisted-service's regardless. */
  public static final Duration REFRESH = Duration.ofMinutes(10);

  /**
   * The kubeconfig to connect with, while it needs no comparison.
   *
   * @param installGeneration the AgentClusterInstall's generation now
   */
  public Optional<String> current(long installGeneration, Instant now) {
    return this.installGeneration != installGeneration || stale(now)
        ? Optional.empty()
        : Optional.of(kubeconfig);
  }

  /**
   * What this process published last, whatever the AgentClusterInstall's generation, while it is
   * trusted to be what our Secret holds (at most {@link #REFRESH} old).
   */
  public Optional<String> ours(Instant now) {
    return stale(now) ? Optional.empty() : Optional.of(kubeconfig);
  }

  private boolean stale(Instant now) {
    return !now.isBefore(copied.plus(REFRESH));
  }
}
