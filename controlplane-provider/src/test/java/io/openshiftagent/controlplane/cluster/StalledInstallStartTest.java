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
import io.openshiftagent.controlplane.cluster.StalledInstallStart.LookAgain;
import io.openshiftagent.controlplane.cluster.StalledInstallStart.NotWaiting;
import io.openshiftagent.controlplane.cluster.StalledInstallStart.Request;
import io.openshiftagent.controlplane.cluster.StalledInstallStart.Stay;
import io.openshiftagent.provider.reconcile.EventRecorder;
import io.openshiftagent.testsupport.KubeApiServerEnvironment;
import io.openshiftagent.testsupport.WithKubeApiServer;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
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
    Stay justSeen = new Stay(NOW, false);
    Stay halfway = new Stay(NOW.minusSeconds(20), false);
    Stay overdue = new Stay(NOW.minus(StalledInstallStart.PATIENCE), false);
    Stay asked = new Stay(NOW.minusSeconds(600), true);
    return Stream.of(
        Arguments.of("not reported yet", "", false, overdue, new NotWaiting()),
        Arguments.of("insufficient hosts", "insufficient", false, overdue, new NotWaiting()),
        Arguments.of("installing", "installing", false, overdue, new NotWaiting()),
        Arguments.of("held by the user", "ready", true, overdue, new NotWaiting()),
        Arguments.of(
            "ready, just seen",
            "ready",
            false,
            justSeen,
            new LookAgain(Optional.of(StalledInstallStart.PATIENCE))),
        Arguments.of(
            "ready for 20 s",
            "ready",
            false,
            halfway,
            new LookAgain(Optional.of(Duration.ofSeconds(40)))),
        Arguments.of("ready for the whole patience", "ready", false, overdue, new Request()),
        Arguments.of(
            "ready, asked already: once per stay",
            "ready",
            false,
            asked,
            new LookAgain(Optional.empty())));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("decisions")
  void decides(
      String row, String state, boolean held, Stay stay, StalledInstallStart.Decision expected) {
    assertThat(StalledInstallStart.decide(state, held, stay, NOW)).isEqualTo(expected);
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
    MovableClock clock = new MovableClock(NOW);
    StalledInstallStart stalled =
        new StalledInstallStart(client, new EventRecorder(client, "test", "test-0"), clock);

    aci = setState(client, aci, "ready");
    assertThat(stalled.reconcile(cp, Optional.of(aci)))
        .as("the first look starts the stay")
        .contains(StalledInstallStart.PATIENCE);
    clock.now = NOW.plusSeconds(45);
    assertThat(stalled.reconcile(cp, Optional.of(aci))).contains(Duration.ofSeconds(15));
    assertThat(annotation(client, aci)).isNull();

    clock.now = NOW.plus(StalledInstallStart.PATIENCE);
    assertThat(stalled.reconcile(cp, Optional.of(aci))).isEmpty();
    assertThat(annotation(client, aci)).isEqualTo(clock.now.toString());
    AgentClusterInstall asked = reread(client, aci);
    clock.now = NOW.plusSeconds(600);
    assertThat(stalled.reconcile(cp, Optional.of(asked))).isEmpty();
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
        .contains("AgentClusterInstall cp has been ready to install for 60 s");

    // Installing, then ready again (a later stay): its own patience.
    AgentClusterInstall installing = setState(client, asked, "installing");
    assertThat(stalled.reconcile(cp, Optional.of(installing))).isEmpty();
    AgentClusterInstall readyAgain = setState(client, installing, "ready");
    assertThat(stalled.reconcile(cp, Optional.of(readyAgain)))
        .contains(StalledInstallStart.PATIENCE);
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
            Serialization.asJson(Map.of("status", Map.of("debugInfo", Map.of("state", state)))));
  }

  private static AgentClusterInstall reread(KubernetesClient client, AgentClusterInstall aci) {
    return client.resource(aci).get();
  }

  private static String annotation(KubernetesClient client, AgentClusterInstall aci) {
    Map<String, String> annotations = reread(client, aci).getMetadata().getAnnotations();
    return annotations == null ? null : annotations.get(StalledInstallStart.ANNOTATION);
  }

  /** A clock the test moves. */
  private static final class MovableClock extends Clock {
    private Instant now;

    MovableClock(Instant now) {
      this.now = now;
    }

    @Override
    public Instant instant() {
      return now;
    }

    @Override
    public ZoneOffset getZone() {
      return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(java.time.ZoneId zone) {
      return this;
    }
  }
}
