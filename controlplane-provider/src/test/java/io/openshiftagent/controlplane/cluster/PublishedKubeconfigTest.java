package io.openshiftagent.controlplane.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import org.junit.jupiter.api.Test;

/**
 * A published kubeconfig is used as copied until the AgentClusterInstall changes or the copy is due
 * for comparison again.
 */
class PublishedKubeconfigTest {
  private static final Instant T0 = Instant.parse("2026-11-26T10:00:00Z");

  @Test
  void aCopyServesLooksUntilItIsDueForComparison() {
    PublishedKubeconfig copy = new PublishedKubeconfig("kubeconfig-1", 1, T0);
    Instant beforeRefresh = T0.plus(PublishedKubeconfig.REFRESH).minusSeconds(1);
    assertThat(copy.current(1, beforeRefresh)).contains("kubeconfig-1");
    assertThat(copy.ours(beforeRefresh)).contains("kubeconfig-1");
    Instant due = T0.plus(PublishedKubeconfig.REFRESH);
    assertThat(copy.current(1, due)).isEmpty(); // compared again
    assertThat(copy.ours(due)).isEmpty();
    PublishedKubeconfig again = new PublishedKubeconfig("kubeconfig-2", 1, due);
    assertThat(again.current(1, due)).contains("kubeconfig-2");
  }

  @Test
  void aNewGenerationOfTheAgentClusterInstallComparesAgain() {
    // The service's first version, then its final one with the installation's end: the
    // AgentClusterInstall's spec.clusterMetadata changes with each.
    PublishedKubeconfig first = new PublishedKubeconfig("no-ingress", 2, T0);
    assertThat(first.current(2, T0)).contains("no-ingress");
    assertThat(first.current(3, T0)).isEmpty();
    assertThat(first.ours(T0)).contains("no-ingress"); // still what our Secret holds
    PublishedKubeconfig last = new PublishedKubeconfig("final", 3, T0);
    assertThat(last.current(3, T0)).contains("final");
  }
}
