package io.openshiftagent.bootstrap.agent;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.openshiftagent.api.bootstrap.v1alpha2.OpenshiftAssistedConfig;
import io.openshiftagent.api.bootstrap.v1alpha2.OpenshiftAssistedConfigSpec;
import io.openshiftagent.api.external.assisted.Agent;
import io.openshiftagent.api.external.assisted.AgentSpec;
import io.openshiftagent.api.external.capi.Machine;
import io.openshiftagent.bootstrap.Fixtures;
import io.openshiftagent.bootstrap.Names;
import io.openshiftagent.bootstrap.identity.HostMetadata;
import io.openshiftagent.bootstrap.identity.NodeIdentity;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class AgentDecisionTest {
  /** The Agent of a Metal3 host named host-0 whose BareMetalHost has UID {@code hostUid}. */
  private static AgentDecision.DesiredAgent desired(
      OpenshiftAssistedConfig config, Machine machine, String hostUid) {
    NodeIdentity identity =
        NodeIdentity.of(
            config.getSpec().nodeRegistration,
            Names.hostname(machine.getMetadata().getName()),
            Optional.of(HostMetadata.metal3(hostUid, "ns", "host-0", null)));
    return AgentDecision.desired(config, machine, identity, hostUid);
  }

  private static Machine machine(String name, boolean controlPlane) {
    Machine machine = new Machine();
    Map<String, String> labels = new HashMap<>();
    if (controlPlane) {
      labels.put("cluster.x-k8s.io/control-plane", "");
    }
    machine.setMetadata(new ObjectMetaBuilder().withName(name).withLabels(labels).build());
    return machine;
  }

  @Test
  void controlPlaneMachinesAreMastersAndOthersWorkers() {
    OpenshiftAssistedConfig config = Fixtures.config("c", new OpenshiftAssistedConfigSpec());
    assertThat(desired(config, machine("cp-0", true), "u").role()).isEqualTo("master");
    assertThat(desired(config, machine("w-0", false), "u").role()).isEqualTo("worker");
  }

  @Test
  void installerArgsComeFromKernelArgumentsAsFlagValuePairs() {
    var desired = desired(Fixtures.config("c", Fixtures.fullSpec()), machine("w", false), "u");
    assertThat(desired.installerArgs())
        .isEqualTo("[\"--append-karg\",\"console=ttyS0\",\"--delete-karg\",\"quiet\"]");
    assertThat(
            desired(
                    Fixtures.config("c", new OpenshiftAssistedConfigSpec()),
                    machine("w", false),
                    "u")
                .installerArgs())
        .isNull();
  }

  @Test
  void nodeLabelsCarryTheHostUidAndTheStaticKubeletLabels() {
    var desired =
        desired(Fixtures.config("c", Fixtures.fullSpec()), machine("w", false), "bmh-uid");
    // metal3.io/uuid=$METADATA_UUID from the user is replaced by the UID the hub knows.
    assertThat(desired.nodeLabels())
        .containsExactlyInAnyOrderEntriesOf(
            Map.of("topology.kubernetes.io/zone", "rack-a", "metal3.io/uuid", "bmh-uid"));
  }

  @Test
  void nameAndLabelsReferencingHostMetadataAreResolvedFromTheHost() {
    var desired = desired(Fixtures.config("c", Fixtures.fullSpec()), machine("w", false), "uid-1");
    // $METADATA_NAME: the baremetal-operator's default, the BareMetalHost's name.
    assertThat(desired.hostname()).isEqualTo("host-0");
    assertThat(desired.nodeLabels()).containsEntry("metal3.io/uuid", "uid-1");
  }

  @Test
  void hostnameIsAValidNameDerivedFromTheMachine() {
    var desired =
        desired(
            Fixtures.config("c", new OpenshiftAssistedConfigSpec()),
            machine("OCP1.Workers-7xk2p", false),
            "u");
    assertThat(desired.hostname()).isEqualTo("ocp1-workers-7xk2p");
    assertThat(Names.hostname("a".repeat(80))).hasSizeLessThanOrEqualTo(63);
    assertThat(Names.hostname("a".repeat(80))).isNotEqualTo(Names.hostname("a".repeat(81)));
  }

  @Test
  void ignitionOverrideAnnotationIsUsedOnlyWhenItIsAJsonObject() {
    OpenshiftAssistedConfig config = Fixtures.config("c", new OpenshiftAssistedConfigSpec());
    config.getMetadata().setAnnotations(Map.of(Names.IGNITION_OVERRIDE_ANNOTATION, "{\"a\":1}"));
    assertThat(desired(config, machine("w", false), "u").ignitionConfigOverrides())
        .isEqualTo("{\"a\":1}");
    config.getMetadata().setAnnotations(Map.of(Names.IGNITION_OVERRIDE_ANNOTATION, "{not json"));
    assertThat(desired(config, machine("w", false), "u").ignitionConfigOverrides()).isNull();
  }

  @Test
  void patchNamesOnlyTheOwnedFieldsThatDiffer() {
    Agent agent = new Agent();
    agent.setSpec(new AgentSpec());
    agent.getSpec().role = "worker";
    agent.getSpec().hostname = "old";
    agent.getSpec().nodeLabels = Map.of("metal3.io/uuid", "bmh-uid", "other", "kept");
    var desired =
        new AgentDecision.DesiredAgent(
            "worker", "w-0", null, null, Map.of("metal3.io/uuid", "bmh-uid", "zone", "a"));

    assertThat(AgentDecision.patch(agent, desired).toJson())
        .isEqualTo("{\"spec\":{\"hostname\":\"w-0\",\"nodeLabels\":{\"zone\":\"a\"}}}");

    agent.getSpec().hostname = "w-0";
    agent.getSpec().nodeLabels = Map.of("metal3.io/uuid", "bmh-uid", "zone", "a");
    assertThat(AgentDecision.patch(agent, desired).isEmpty()).isTrue();
  }
}
