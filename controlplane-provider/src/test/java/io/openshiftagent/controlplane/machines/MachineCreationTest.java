package io.openshiftagent.controlplane.machines;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import io.openshiftagent.api.bootstrap.v1alpha2.OpenshiftAssistedConfig;
import io.openshiftagent.api.common.Conditions;
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
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;

/**
 * Creating a Machine whose name exists already, on a real API server: the conflict a retried POST
 * meets when its first attempt was stored is simulated by storing that Machine first; and a config
 * that cannot be made, after which no infrastructure clone is left without it.
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
  void aMachineMadeFromTheSpecIsMarkedUpToDateAsItIsCreated(KubeApiServerEnvironment env) {
    Setup s = new Setup(env, "up-to-date");
    MachineWrites writes =
        new MachineWrites(
            s.client,
            s.infrastructure,
            new EventRecorder(s.client, "test", "machine-creation-test"),
            Clock.systemUTC(),
            new MachineWrites.MachineCache() {
              @Override
              public void created(Machine machine) {}

              @Override
              public Machine write(Machine object, UnaryOperator<Machine> write) {
                return write.apply(object);
              }
            },
            "machine-creation-test");
    Machine planned = s.plan();

    MachineCreation.Created created =
        new MachineCreation(
                s.client,
                s.infrastructure,
                new EventRecorder(s.client, "test", "machine-creation-test"),
                writes::createdUpToDate,
                Runnable::run)
            .create(s.scope, s.template, List.of(planned), Set.of());

    assertThat(created.failures()).isEmpty();
    Machine stored = s.world.get(Machine.class, planned.getMetadata().getName());
    assertThat(Conditions.find(stored.getStatus().conditions, "UpToDate"))
        .hasValueSatisfying(
            c -> {
              assertThat(c.getStatus()).isEqualTo("True");
              assertThat(c.getReason()).isEqualTo("UpToDate");
            });
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

  @Test
  void aConfigThatCannotBeMadeLeavesNoCloneAndTheConfigOfTheNameAsItIs(KubeApiServerEnvironment env)
      throws InterruptedException {
    Setup s = new Setup(env, "no-config");
    Machine planned = s.plan();
    String name = planned.getMetadata().getName();
    OpenshiftAssistedConfig foreign = new OpenshiftAssistedConfig();
    foreign.setMetadata(
        new io.fabric8.kubernetes.api.model.ObjectMetaBuilder()
            .withName(name)
            .withNamespace(s.world.ns)
            .build());
    foreign = s.client.resource(foreign).create();
    BlockingQueue<String> added = new LinkedBlockingQueue<>();
    try (Watch watch =
        s.client
            .genericKubernetesResources(METAL3_MACHINE, "Metal3Machine")
            .inNamespace(s.world.ns)
            .watch(
                new Watcher<>() {
                  @Override
                  public void eventReceived(Action action, GenericKubernetesResource resource) {
                    if (action == Action.ADDED) {
                      added.add(resource.getMetadata().getName());
                    }
                  }

                  @Override
                  public void onClose(WatcherException cause) {}
                })) {
      MachineCreation.Created created =
          s.creation().create(s.scope, s.template, List.of(planned), Set.of());

      assertThat(created.machines()).isEmpty();
      assertThat(created.failures()).singleElement().asString().contains("already exists");
      // A marker made after the creation: the watch delivers in order, so a clone made by the
      // creation would have come first.
      GenericKubernetesResource marker = new GenericKubernetesResource();
      marker.setApiVersion(METAL3_MACHINE);
      marker.setKind("Metal3Machine");
      marker.setMetadata(
          new io.fabric8.kubernetes.api.model.ObjectMetaBuilder()
              .withName("marker")
              .withNamespace(s.world.ns)
              .build());
      s.client.resource(marker).create();
      assertThat(added.poll(30, TimeUnit.SECONDS)).isEqualTo("marker");
    }
    assertThat(s.world.get(Machine.class, name)).isNull();
    assertThat(s.world.get(OpenshiftAssistedConfig.class, name).getMetadata().getUid())
        .isEqualTo(foreign.getMetadata().getUid());
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
