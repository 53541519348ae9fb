package io.openshiftagent.controlplane.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.LocalObjectReference;
import io.fabric8.kubernetes.api.model.events.v1.Event;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.openshiftagent.api.controlplane.v1alpha3.OpenshiftAssistedControlPlane;
import io.openshiftagent.api.external.assisted.AgentClusterInstall;
import io.openshiftagent.api.external.assisted.AgentClusterInstallSpec;
import io.openshiftagent.api.external.assisted.AgentClusterInstallStatus;
import io.openshiftagent.api.external.assisted.DebugInfo;
import io.openshiftagent.controlplane.Fixtures;
import io.openshiftagent.controlplane.cluster.StalledInstallStart.LookAgain;
import io.openshiftagent.controlplane.cluster.StalledInstallStart.NotWaiting;
import io.openshiftagent.controlplane.cluster.StalledInstallStart.Request;
import io.openshiftagent.controlplane.cluster.StalledInstallStart.Stay;
import io.openshiftagent.provider.reconcile.EventRecorder;
import io.openshiftagent.testsupport.KubeApiServerEnvironment;
import io.openshiftagent.testsupport.WithKubeApiServer;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** An installation assisted-service should have started: when we ask it to look again. */
@WithKubeApiServer
class StalledInstallStartTest {
  private static final Instant NOW = Instant.parse("2026-11-26T12:00:00Z");

  static Stream<Arguments> decisions() {
    Stay justSeen = new Stay("UnsyncedAgents", NOW, false);
    Stay halfway = new Stay("UnsyncedAgents", NOW.minusSeconds(20), false);
    Stay overdue = new Stay("UnsyncedAgents", NOW.minus(StalledInstallStart.PATIENCE), false);
    Stay asked = new Stay("UnsyncedAgents", NOW.minusSeconds(600), true);
    return Stream.of(
        Arguments.of("no stay", Optional.empty(), new NotWaiting()),
        Arguments.of(
            "just seen",
            Optional.of(justSeen),
            new LookAgain(Optional.of(StalledInstallStart.PATIENCE))),
        Arguments.of(
            "for 20 s", Optional.of(halfway), new LookAgain(Optional.of(Duration.ofSeconds(40)))),
        Arguments.of("for the whole patience", Optional.of(overdue), new Request()),
        Arguments.of(
            "asked already: once per stay", Optional.of(asked), new LookAgain(Optional.empty())));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("decisions")
  void decides(String row, Optional<Stay> stay, StalledInstallStart.Decision expected) {
    assertThat(StalledInstallStart.decide(stay, NOW)).isEqualTo(expected);
  }

  static Stream<Arguments> stays() {
    return Stream.of(
        Arguments.of(
            "ready, Agents the service saw unsynced",
            "ready",
            "UnsyncedAgents",
            false,
            "UnsyncedAgents"),
        Arguments.of("ready, requirements met", "ready", "ClusterIsReady", false, "ClusterIsReady"),
        Arguments.of(
            "ready, Agents to approve: their approval wakes the service",
            "ready",
            "UnapprovedAgents",
            false,
            null),
        Arguments.of(
            "ready, hosts to bind: their binding wakes the service",
            "ready",
            "InsufficientAgents",
            false,
            null),
        Arguments.of("held by the user", "ready", "ClusterIsReady", true, null),
        Arguments.of("insufficient", "insufficient", "ClusterNotReady", false, null),
        Arguments.of("installing", "installing", "ClusterAlreadyInstalling", false, null),
        Arguments.of("not reported yet", null, null, false, null));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("stays")
  void staysTheServiceMayHaveMissed(
      String row, String state, String requirementsReason, boolean held, String expected) {
    AgentClusterInstall aci = clusterInstall("ns");
    if (held) {
      aci.getSpec().setUnknownField("holdInstallation", true);
    }
    aci.setStatus(new AgentClusterInstallStatus());
    if (state != null) {
      aci.getStatus().debugInfo = new DebugInfo();
      aci.getStatus().debugInfo.state = state;
    }
    if (requirementsReason != null) {
      aci.getStatus().conditions = List.of(Fixtures.requirementsMet(requirementsReason));
    }
    assertThat(StalledInstallStart.missedStartReason(aci)).isEqualTo(Optional.ofNullable(expected));
  }

  @Test
  void asksTheServiceOncePerStayInReadyWithAnAnnotationAndAWarningEvent() {
    KubeApiServerEnvironment env = KubeApiServerEnvironment.shared();
    KubernetesClient client = env.client();
    String ns = env.createNamespace("stalled");
    AgentClusterInstall aci = client.resource(clusterInstall(ns)).create();
    OpenshiftAssistedControlPlane cp = new OpenshiftAssistedControlPlane();
    cp.getMetadata().setName("cp");
    cp.getMetadata().setNamespace(ns);
    cp.getMetadata().setUid("cp-uid");
    Looks looks =
        new Looks(new StalledInstallStart(client, new EventRecorder(client, "test", "test-0")), cp);

    aci = setState(client, aci, "ready");
    assertThat(looks.at(NOW, aci))
        .as("the first look starts the stay")
        .contains(StalledInstallStart.PATIENCE);
    assertThat(looks.at(NOW.plusSeconds(45), aci)).contains(Duration.ofSeconds(15));
    assertThat(annotation(client, aci)).isNull();

    Instant overdue = NOW.plus(StalledInstallStart.PATIENCE);
    assertThat(looks.at(overdue, aci)).isEmpty();
    assertThat(annotation(client, aci)).isEqualTo(overdue.toString());
    AgentClusterInstall asked = reread(client, aci);
    assertThat(looks.at(NOW.plusSeconds(600), asked)).isEmpty();
    assertThat(reread(client, aci).getMetadata().getResourceVersion())
        .as("asked once per stay")
        .isEqualTo(asked.getMetadata().getResourceVersion());
    EventRecorder.flush(Duration.ofSeconds(10));
    List<Event> events =
        client.resources(Event.class).inNamespace(ns).list().getItems().stream()
            .filter(e -> "InstallationNotStarted".equals(e.getReason()))
            .toList();
    assertThat(events).hasSize(1);
    assertThat(events.get(0).getType()).isEqualTo(EventRecorder.WARNING);
    assertThat(events.get(0).getNote())
        .contains("AgentClusterInstall cp has been ready to install for 60 s")
        .contains("RequirementsMet: False, UnsyncedAgents: The cluster currently has 1 agents");

    // Installing, then ready again (a later stay): its own patience.
    AgentClusterInstall installing = setState(client, asked, "installing");
    Instant later = NOW.plusSeconds(600);
    assertThat(looks.at(later, installing)).isEmpty();
    AgentClusterInstall readyAgain = setState(client, installing, "ready");
    assertThat(looks.at(later, readyAgain)).contains(StalledInstallStart.PATIENCE);
  }

  /** The looks of one control plane, each remembering the stay the last one saw. */
  private static final class Looks {
    private final StalledInstallStart stalled;
    private final OpenshiftAssistedControlPlane cp;
    private Optional<Stay> stay = Optional.empty();

    Looks(StalledInstallStart stalled, OpenshiftAssistedControlPlane cp) {
      this.stalled = stalled;
      this.cp = cp;
    }

    Optional<Duration> at(Instant now, AgentClusterInstall aci) {
      StalledInstallStart.Looked looked = stalled.reconcile(cp, Optional.of(aci), stay, now);
      stay = looked.stay();
      return looked.lookAgain();
    }
  }

  private static AgentClusterInstall clusterInstall(String ns) {
    AgentClusterInstall aci = new AgentClusterInstall();
    aci.getMetadata().setName("cp");
    aci.getMetadata().setNamespace(ns);
    AgentClusterInstallSpec spec = new AgentClusterInstallSpec();
    spec.clusterDeploymentRef = new LocalObjectReference("cp");
    spec.networking = new AgentClusterInstallSpec.Networking();
    spec.provisionRequirements = new AgentClusterInstallSpec.ProvisionRequirements();
    spec.provisionRequirements.controlPlaneAgents = 3;
    aci.setSpec(spec);
    return aci;
  }

  /** Plays assisted-service: its state of the installation. */
  private static AgentClusterInstall setState(
      KubernetesClient client, AgentClusterInstall aci, String state) {
    return client
        .resources(AgentClusterInstall.class)
        .inNamespace(aci.getMetadata().getNamespace())
        .withName(aci.getMetadata().getName())
        .subresource("status")
        .patch(
            PatchContext.of(PatchType.JSON_MERGE),
            Serialization.asJson(
                Map.of(
                    "status",
                    Map.of(
                        "debugInfo",
                        Map.of("state", state),
                        "conditions",
                        List.of(
                            Map.of(
                                "type",
                                "RequirementsMet",
                                "status",
                                "False",
                                "reason",
                                "ready".equals(state)
                                    ? "UnsyncedAgents"
                                    : "ClusterAlreadyInstalling",
                                "message",
                                "The cluster currently has 1 agents with spec error",
                                "lastTransitionTime",
                                "2026-11-26T11:00:00Z"))))));
  }

  private static AgentClusterInstall reread(KubernetesClient client, AgentClusterInstall aci) {
    return client.resource(aci).get();
  }

  private static String annotation(KubernetesClient client, AgentClusterInstall aci) {
    Map<String, String> annotations = reread(client, aci).getMetadata().getAnnotations();
    return annotations == null ? null : annotations.get(StalledInstallStart.ANNOTATION);
  }
}
