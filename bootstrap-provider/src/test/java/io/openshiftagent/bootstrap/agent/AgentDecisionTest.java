package io.openshiftagent.bootstrap.agent;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.openshiftagent.api.bootstrap.v1alpha2.OpenshiftAssistedConfig;
import io.openshiftagent.api.bootstrap.v1alpha2.OpenshiftAssistedConfigSpec;
import io.openshiftagent.api.external.assisted.Agent;
import io.openshiftagent.api.external.assisted.AgentSpec;
import io.openshiftagent.api.external.capi.Machine;
import io.openshiftagent.bootstrap.Fixtures;
import io.openshiftagent.bootstrap.identity.HostMetadata;
import io.openshiftagent.bootstrap.names.Names;
import io.openshiftagent.bootstrap.names.Reasons;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * What the Agent of a Machine must say, for each kind of Machine, config and host: a table of
 * scenes and the fields (or the refusal) {@link AgentDecision#decide} gives them.
 */
class AgentDecisionTest {
  static final String ARGS = "[\"--append-karg\",\"console=ttyS0\",\"--delete-karg\",\"quiet\"]";

  /** One Agent's world: a worker Machine {@code w-0} on the Metal3 host {@code host-0}. */
  static final class Scene {
    OpenshiftAssistedConfigSpec spec = new OpenshiftAssistedConfigSpec();
    final Map<String, String> annotations = new HashMap<>();
    String machineName = "w-0";
    boolean controlPlane;
    String hostUid = "bmh-uid";
    boolean metal3 = true;

    AgentDecision.Decision decide() {
      OpenshiftAssistedConfig config = Fixtures.config("c", spec);
      config.getMetadata().setAnnotations(annotations);
      Machine machine = new Machine();
      Map<String, String> labels = new HashMap<>();
      if (controlPlane) {
        labels.put("cluster.x-k8s.io/control-plane", "");
      }
      machine.setMetadata(new ObjectMetaBuilder().withName(machineName).withLabels(labels).build());
      Optional<HostMetadata> metadata =
          metal3
              ? Optional.of(HostMetadata.metal3(hostUid, "ns", "host-0", null))
              : Optional.empty();
      return AgentDecision.decide(config, machine, metadata, metal3 ? hostUid : null);
    }
  }

  /** The columns a row checks; a column a row does not name is not checked. */
  static final class Expect {
    final Map<String, Consumer<AgentDecision.DesiredAgent>> columns = new LinkedHashMap<>();
    String refusedFor;

    Expect role(String role) {
      columns.put("role", d -> assertThat(d.role()).isEqualTo(role));
      return this;
    }

    Expect hostname(String hostname) {
      columns.put("hostname", d -> assertThat(d.hostname()).isEqualTo(hostname));
      return this;
    }

    Expect installerArgs(String args) {
      columns.put("installerArgs", d -> assertThat(d.installerArgs()).isEqualTo(args));
      return this;
    }

    Expect ignition(String ignition) {
      columns.put("ignition", d -> assertThat(d.ignitionConfigOverrides()).isEqualTo(ignition));
      return this;
    }

    Expect ignitionWith(String part) {
      columns.put("ignition", d -> assertThat(d.ignitionConfigOverrides()).contains(part));
      return this;
    }

    Expect nodeLabels(Map<String, String> labels) {
      columns.put(
          "nodeLabels", d -> assertThat(d.nodeLabels()).containsExactlyInAnyOrderEntriesOf(labels));
      return this;
    }

    Expect refused(String reason) {
      refusedFor = reason;
      return this;
    }
  }

  static Expect expect() {
    return new Expect();
  }

  static Arguments row(String description, Consumer<Scene> setup, Expect expect) {
    return Arguments.of(description, setup, expect);
  }

  static Stream<Arguments> rows() {
    String tooLarge = "{\"x\":\"" + "a".repeat(1024 * 1024) + "\"}";
    return Stream.of(
        row(
            "a worker Machine's Agent is a worker named after it, labelled with its host's UID",
            s -> {},
            expect()
                .role(AgentDecision.WORKER)
                .hostname("w-0")
                .installerArgs(null)
                .ignition(null)
                .nodeLabels(Map.of("metal3.io/uuid", "bmh-uid"))),
        row(
            "a control-plane Machine's Agent is a master",
            s -> s.controlPlane = true,
            expect().role(AgentDecision.MASTER)),
        row(
            "kernel arguments become installer flag-value pairs; the host's metadata resolves the"
                + " name, and the host UID the hub knows replaces the user's metal3.io/uuid",
            s -> s.spec = Fixtures.fullSpec(),
            expect()
                .installerArgs(ARGS)
                .hostname("host-0")
                .nodeLabels(
                    Map.of("topology.kubernetes.io/zone", "rack-a", "metal3.io/uuid", "bmh-uid"))),
        row(
            "another host's UID is that host's label",
            s -> {
              s.spec = Fixtures.fullSpec();
              s.hostUid = "uid-1";
            },
            expect()
                .hostname("host-0")
                .nodeLabels(
                    Map.of("topology.kubernetes.io/zone", "rack-a", "metal3.io/uuid", "uid-1"))),
        row(
            "without the host's metadata, what references it is left for the host to resolve",
            s -> {
              s.spec = Fixtures.fullSpec();
              s.metal3 = false;
            },
            expect()
                .hostname(null)
                .nodeLabels(Map.of("topology.kubernetes.io/zone", "rack-a"))
                .ignitionWith("\"ignition\"")),
        row(
            "the hostname is a valid name derived from the Machine's",
            s -> s.machineName = "OCP1.Workers-7xk2p",
            expect().hostname("ocp1-workers-7xk2p")),
        row(
            "an install-time override annotation that is a JSON object is the ignition override",
            s -> s.annotations.put(Names.IGNITION_OVERRIDE_ANNOTATION, "{\"a\":1}"),
            expect().ignition("{\"a\":1}")),
        row(
            "one that is not a JSON object is left out (the config controller reports it)",
            s -> s.annotations.put(Names.IGNITION_OVERRIDE_ANNOTATION, "{not json"),
            expect().ignition(null)),
        row(
            "an install ignition too large for an Agent is refused, not written",
            s -> s.annotations.put(Names.IGNITION_OVERRIDE_ANNOTATION, tooLarge),
            expect().refused(Reasons.INSTALL_IGNITION_TOO_LARGE)));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("rows")
  void decides(String description, Consumer<Scene> setup, Expect expect) {
    Scene scene = new Scene();
    setup.accept(scene);
    AgentDecision.Decision decision = scene.decide();
    if (expect.refusedFor != null) {
      assertThat(decision).isInstanceOf(AgentDecision.Refused.class);
      AgentDecision.Refused refused = (AgentDecision.Refused) decision;
      assertThat(refused.reason()).isEqualTo(expect.refusedFor);
      assertThat(refused.why())
          .startsWith("not approved: the install ignition")
          .contains("an Agent holds at most");
      return;
    }
    assertThat(decision).isInstanceOf(AgentDecision.Desired.class);
    AgentDecision.DesiredAgent desired = ((AgentDecision.Desired) decision).agent();
    assertThat(expect.columns).isNotEmpty();
    expect.columns.values().forEach(column -> column.accept(desired));
  }

  @Test
  void hostnamesFitALabelAndStayDistinct() {
    assertThat(Names.hostname("a".repeat(80))).hasSizeLessThanOrEqualTo(63);
    assertThat(Names.hostname("a".repeat(80))).isNotEqualTo(Names.hostname("a".repeat(81)));
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
