package io.openshiftagent.controlplane.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.openshiftagent.api.controlplane.v1alpha3.OpenshiftAssistedControlPlane;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * A published kubeconfig is used as copied until the AgentClusterInstall changes or the copy is due
 * for comparison again.
 */
class PublishedKubeconfigsTest {
  private static final Instant T0 = Instant.parse("2026-11-26T10:00:00Z");

  private final AtomicReference<Instant> now = new AtomicReference<>(T0);
  private final PublishedKubeconfigs kubeconfigs = new PublishedKubeconfigs(now::get);
  private final OpenshiftAssistedControlPlane cp = cp("ocp1");

  @Test
  void aCopyServesLooksUntilItIsDueForComparison() {
    assertThat(kubeconfigs.current(cp, 1)).isEmpty(); // never copied by this process
    kubeconfigs.published(cp, 1, "kubeconfig-1");
    now.set(T0.plus(PublishedKubeconfigs.REFRESH).minusSeconds(1));
    assertThat(kubeconfigs.current(cp, 1)).contains("kubeconfig-1");
    assertThat(kubeconfigs.current(cp("ocp2"), 1)).isEmpty();
    now.set(T0.plus(PublishedKubeconfigs.REFRESH));
    assertThat(kubeconfigs.current(cp, 1)).isEmpty(); // compared again
    kubeconfigs.published(cp, 1, "kubeconfig-2");
    assertThat(kubeconfigs.current(cp, 1)).contains("kubeconfig-2");
    kubeconfigs.forget(cp);
    assertThat(kubeconfigs.current(cp, 1)).isEmpty();
  }

  @Test
  void aNewGenerationOfTheAgentClusterInstallComparesAgain() {
    // The service's first version, then its final one with the installation's end: the
    // AgentClusterInstall's spec.clusterMetadata changes with each.
    kubeconfigs.published(cp, 2, "no-ingress");
    assertThat(kubeconfigs.current(cp, 2)).contains("no-ingress");
    assertThat(kubeconfigs.current(cp, 3)).isEmpty();
    kubeconfigs.published(cp, 3, "final");
    assertThat(kubeconfigs.current(cp, 3)).contains("final");
  }

  private static OpenshiftAssistedControlPlane cp(String name) {
    OpenshiftAssistedControlPlane cp = new OpenshiftAssistedControlPlane();
    cp.setMetadata(new ObjectMetaBuilder().withName(name).withNamespace("ns").build());
    return cp;
  }
}
