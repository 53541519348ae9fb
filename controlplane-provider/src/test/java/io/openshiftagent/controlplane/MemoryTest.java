package io.openshiftagent.controlplane;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.openshiftagent.api.controlplane.v1alpha3.OpenshiftAssistedControlPlane;
import io.openshiftagent.controlplane.cluster.PublishedKubeconfig;
import java.time.Instant;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** What the process remembers is kept per control plane, and forgotten with it. */
class MemoryTest {
  private static final Instant T0 = Instant.parse("2026-11-26T10:00:00Z");

  @Test
  void eachControlPlaneHasItsOwnAndForgettingDropsIt() {
    Memory memory = new Memory();
    OpenshiftAssistedControlPlane ocp1 = cp("ocp1");
    OpenshiftAssistedControlPlane ocp2 = cp("ocp2");
    assertThat(memory.of(ocp1).kubeconfig).isEmpty(); // never copied by this process

    memory.of(ocp1).kubeconfig = Optional.of(new PublishedKubeconfig("kubeconfig-1", 1, T0));
    memory.of(ocp1).deleted(Set.of("machine-uid"));
    assertThat(memory.of(ocp1).kubeconfig.flatMap(c -> c.current(1, T0))).contains("kubeconfig-1");
    assertThat(memory.of(ocp1).deletedMachines).containsExactly("machine-uid");
    assertThat(memory.of(ocp2).kubeconfig).isEmpty();
    assertThat(memory.of(ocp2).deletedMachines).isEmpty();

    memory.forget(ocp1);
    assertThat(memory.of(ocp1).kubeconfig).isEmpty();
    assertThat(memory.of(ocp1).deletedMachines).isEmpty();
  }

  private static OpenshiftAssistedControlPlane cp(String name) {
    OpenshiftAssistedControlPlane cp = new OpenshiftAssistedControlPlane();
    cp.setMetadata(
        new ObjectMetaBuilder().withName(name).withNamespace("ns").withUid("uid-" + name).build());
    return cp;
  }
}
