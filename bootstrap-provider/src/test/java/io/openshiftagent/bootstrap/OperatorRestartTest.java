package io.openshiftagent.bootstrap;

import static io.openshiftagent.provider.testing.TestWorld.await;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Secret;
import io.javaoperatorsdk.operator.Operator;
import io.openshiftagent.api.bootstrap.v1alpha2.OpenshiftAssistedConfigSpec;
import io.openshiftagent.api.common.LocalObjectReference;
import io.openshiftagent.api.external.assisted.InfraEnv;
import io.openshiftagent.api.external.metal3.Metal3Machine;
import io.openshiftagent.bootstrap.names.Names;
import io.openshiftagent.provider.testing.TestWorld;
import io.openshiftagent.testsupport.KubeApiServerEnvironment;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The operator stopped and started again at several points of the flow converges, and creates
 * nothing twice: every name is derived from the config, and every step checks what exists.
 */
class OperatorRestartTest {
  @Test
  void anOperatorRestartedMidFlowConvergesWithoutDuplicates() {
    KubeApiServerEnvironment env = KubeApiServerEnvironment.shared();
    TestWorld world = Fixtures.readyWorld(env, "restart", "");
    OpenshiftAssistedConfigSpec cpSpec = Fixtures.fullSpec();
    cpSpec.cpuArchitecture = "x86_64";
    cpSpec.pullSecretRef = new LocalObjectReference("my-pull-secret");
    OpenshiftAssistedConfigSpec workerSpec = Fixtures.fullSpec();
    workerSpec.cpuArchitecture = "x86_64";
    workerSpec.pullSecretRef = null;
    world.providers.host("ocp1-cp-0", true, cpSpec);
    world.providers.host("ocp1-w-0", false, workerSpec);
    List<Operator> operators = new ArrayList<>();
    try {
      // First run: up to the InfraEnvs, then stopped.
      Operator first = BootstrapFlowTest.startOperator(env, new ArrayList<>());
      operators.add(first);
      List<String> infraEnvUids =
          List.of(
              await("cp InfraEnv", () -> world.infraEnv("ocp1-cp-0")).getMetadata().getUid(),
              await("worker InfraEnv", () -> world.infraEnv("ocp1-w-0")).getMetadata().getUid());
      first.stop();

      // While it is down, assisted-service publishes the ISOs and a host registers.
      world.assisted.publishIso("ocp1-cp-0", "https://images.example.com/cp-0.iso");
      world.assisted.publishIso("ocp1-w-0", "https://images.example.com/w-0.iso");

      // Second run: catches up from the current state.
      Operator second = BootstrapFlowTest.startOperator(env, new ArrayList<>());
      operators.add(second);
      await("cp Secret", () -> world.get(Secret.class, "ocp1-cp-0"));
      await("worker Secret", () -> world.get(Secret.class, "ocp1-w-0"));
      world.assisted.registerAgent("ocp1-cp-0", "agent-cp-0");
      await("cp Agent approved", () -> BootstrapFlowTest.approved(world.agent("agent-cp-0")));
      second.stop();

      String metal3MachineVersion =
          world.get(Metal3Machine.class, "ocp1-cp-0").getMetadata().getResourceVersion();
      String secretVersion =
          world.get(Secret.class, "ocp1-cp-0").getMetadata().getResourceVersion();

      // Third run, with nothing left to do: a second host on the same image proves it is running.
      Operator third = BootstrapFlowTest.startOperator(env, new ArrayList<>());
      operators.add(third);
      world.assisted.registerAgent("ocp1-cp-0", "agent-cp-0-twin");
      await(
          "twin refused",
          () ->
              world.agent("agent-cp-0-twin").getMetadata().getAnnotations() != null
                  && world
                      .agent("agent-cp-0-twin")
                      .getMetadata()
                      .getAnnotations()
                      .containsKey(Names.NOT_APPROVED_ANNOTATION));

      assertThat(world.client.resources(InfraEnv.class).inNamespace(world.ns).list().getItems())
          .extracting(i -> i.getMetadata().getName())
          .containsExactlyInAnyOrder("ocp1-cp-0", "ocp1-w-0");
      assertThat(
              world
                  .client
                  .secrets()
                  .inNamespace(world.ns)
                  .withLabel(Names.CONFIG_LABEL)
                  .list()
                  .getItems())
          .extracting(s -> s.getMetadata().getName())
          .containsExactlyInAnyOrder("ocp1-cp-0", "ocp1-w-0", "ocp1-w-0-placeholder-pull-secret");
      assertThat(world.get(Metal3Machine.class, "ocp1-cp-0").getMetadata().getResourceVersion())
          .isEqualTo(metal3MachineVersion);
      assertThat(world.get(Secret.class, "ocp1-cp-0").getMetadata().getResourceVersion())
          .isEqualTo(secretVersion);
      assertThat(BootstrapFlowTest.approved(world.agent("agent-cp-0"))).isNotNull();
      assertThat(world.agent("agent-cp-0-twin").getSpec().approved).isFalse();
      // Each InfraEnv was made once, by the first run: the restarted ones found it.
      assertThat(world.client.resources(InfraEnv.class).inNamespace(world.ns).list().getItems())
          .extracting(i -> i.getMetadata().getUid())
          .containsExactlyInAnyOrderElementsOf(infraEnvUids);
    } finally {
      operators.forEach(
          o -> {
            try {
              o.stop();
            } catch (RuntimeException e) {
              // already stopped
            }
          });
    }
  }
}
