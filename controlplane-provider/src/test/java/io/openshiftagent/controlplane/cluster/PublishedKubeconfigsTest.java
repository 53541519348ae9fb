package io.openshiftagent.controlplane.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.openshiftagent.api.controlplane.v1alpha3.OpenshiftAssistedControlPlane;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** A published kubeconfig is used as copied until it is due for comparison again. */
class PublishedKubeconfigsTest {
  @Test
  void aCopyServesLooksUntilItIsDueForComparison() {
    Instant t0 = Instant.parse("2026-11-26T10:00:00Z");
    AtomicReference<Instant> now = new AtomicReference<>(t0);
    PublishedKubeconfigs kubeconfigs = new PublishedKubeconfigs(now::get);
    OpenshiftAssistedControlPlane cp = cp("ocp1");

    assertThat(kubeconfigs.current(cp)).isEmpty(); // never copied by this process
    kubeconfigs.published(cp, "kubeconfig-1");
    now.set(t0.plus(PublishedKubeconfigs.REFRESH).minusSeconds(1));
    assertThat(kubeconfigs.current(cp)).contains("kubeconfig-1");
    assertThat(kubeconfigs.current(cp("ocp2"))).isEmpty();
    now.set(t0.plus(PublishedKubeconfigs.REFRESH));
    assertThat(kubeconfigs.current(cp)).isEmpty(); // compared again
    kubeconfigs.published(cp, "kubeconfig-2");
    assertThat(kubeconfigs.current(cp)).contains("kubeconfig-2");
    kubeconfigs.forget(cp);
    assertThat(kubeconfigs.current(cp)).isEmpty();
  }

  private static OpenshiftAssistedControlPlane cp(String name) {
    OpenshiftAssistedControlPlane cp = new OpenshiftAssistedControlPlane();
    cp.setMetadata(new ObjectMetaBuilder().withName(name).withNamespace("ns").build());
    return cp;
  }
}
