package io.openshiftagent.controlplane.machines;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.openshiftagent.api.bootstrap.v1alpha2.OpenshiftAssistedConfig;
import io.openshiftagent.api.controlplane.v1alpha3.OpenshiftAssistedControlPlane;
import io.openshiftagent.api.external.ExternalKinds;
import io.openshiftagent.api.external.capi.Machine;
import io.openshiftagent.controlplane.Fixtures;
import io.openshiftagent.controlplane.scope.ControlPlaneScope;
import io.openshiftagent.controlplane.scope.InfrastructureTemplates;
import io.openshiftagent.provider.reconcile.EventRecorder;
import io.openshiftagent.provider.testing.TestWorld;
import io.openshiftagent.testsupport.KubeApiServerEnvironment;
import io.openshiftagent.testsupport.WithKubeApiServer;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Creating a Machine whose name exists already, on a real API server: the conflict a retried POST
 * meets when its first attempt was stored is simulated by storing that Machine first.
 */
@WithKubeApiServer
class MachineCreationTest {
  private static final String METAL3_MACHINE = ExternalKinds.INFRASTRUCTURE_GROUP + "/v1beta2";

  @Test
  void aRetriedCreateThatFindsItsOwnMachineKeepsItAndItsParts(KubeApiServerEnvironment env) {
    Setup s = new Setup(env, "retried");
    Machine planned = s.plan();
    Machine first = s.client.resource(planned).create(); // the first attempt, stored

    MachineCreation.Created created =
        s.creation().create(s.scope, s.template, List.of(planned), Set.of());

    String name = planned.getMetadata().getName();
    assertThat(created.failures()).isEmpty();
    assertThat(created.machines())
        .extracting(m -> m.getMetadata().getUid())
        .containsExactly(first.getMetadata().getUid());
    assertThat(s.created).extracting(m -> m.getMetadata().getName()).containsExactly(name);
    assertThat(s.world.get(Machine.class, name)).isNotNull();
    assertThat(s.world.get(OpenshiftAssistedConfig.class, name)).isNotNull();
    assertThat(s.metal3Machine(name)).isNotNull();
  }

  @Test
  void aMachineOfTheNameThatIsNotOursFailsTheCreationAndRemovesOnlyTheNewParts(
      KubeApiServerEnvironment env) {
    Setup s = new Setup(env, "foreign-machine");
    Machine planned = s.plan();
    Machine foreign = s.client.resource(copyWithoutOwners(planned)).create();

    MachineCreation.Created created =
        s.creation().create(s.scope, s.template, List.of(planned), Set.of());

    String name = planned.getMetadata().getName();
    assertThat(created.machines()).isEmpty();
    assertThat(created.failures()).singleElement().asString().contains("exists already");
    assertThat(s.created).isEmpty();
    assertThat(s.world.get(Machine.class, name).getMetadata().getUid())
        .isEqualTo(foreign.getMetadata().getUid());
    // Deleted (the bootstrap provider's finalizer may hold the config a while).
    assertThat(deleted(s.world.get(OpenshiftAssistedConfig.class, name))).isTrue();
    assertThat(deleted(s.metal3Machine(name))).isTrue();
  }

  private static boolean deleted(io.fabric8.kubernetes.api.model.HasMetadata object) {
    return object == null || object.getMetadata().getDeletionTimestamp() != null;
  }

  private static Machine copyWithoutOwners(Machine planned) {
    Machine copy = new Machine();
    copy.setMetadata(
        new io.fabric8.kubernetes.api.model.ObjectMetaBuilder()
            .withName(planned.getMetadata().getName())
            .withNamespace(planned.getMetadata().getNamespace())
            .build());
    copy.setSpec(planned.getSpec());
    return copy;
  }

  /** A control plane of one Machine on a provisioned Cluster, and what creates its Machines. */
  private static final class Setup {
    final KubernetesClient client;
    final TestWorld world;
    final ControlPlaneScope scope;
    final GenericKubernetesResource template;
    final InfrastructureTemplates infrastructure;
    final List<Machine> created = new ArrayList<>();

    Setup(KubeApiServerEnvironment env, String prefix) {
      client = env.client();
      world = Fixtures.provisioned(env, prefix);
      OpenshiftAssistedControlPlane cp =
          world.providers.createControlPlane(Fixtures.controlPlane(world.ns, "cp", 1));
      infrastructure = new InfrastructureTemplates(client);
      scope =
          ControlPlaneScope.observe(
              new ControlPlaneScope.Cached(
                  cp,
                  world.capi.cluster,
                  List.of(),
                  Map.of(),
                  List.of(),
                  List.of(),
                  Optional.empty(),
                  Optional.empty(),
                  Set.of()),
              client,
              infrastructure,
              Instant.now());
      template =
          client
              .genericKubernetesResources(METAL3_MACHINE, "Metal3MachineTemplate")
              .inNamespace(world.ns)
              .withName(Fixtures.TEMPLATE)
              .get();
    }

    Machine plan() {
      return MachineFactory.plan(scope, template, 1, List.of()).get(0);
    }

    MachineCreation creation() {
      return new MachineCreation(
          client,
          infrastructure,
          new EventRecorder(client, "test", "machine-creation-test"),
          created::add,
          Runnable::run);
    }

    GenericKubernetesResource metal3Machine(String name) {
      return client
          .genericKubernetesResources(METAL3_MACHINE, "Metal3Machine")
          .inNamespace(world.ns)
          .withName(name)
          .get();
    }
  }
}
