package io.openshiftagent.simulator.demo;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ProgressTableTest {

  @Test
  void joinsEachMachineWithItsHostAgentAndNodeAndListsTheFreeHosts() {
    GenericKubernetesResource machine =
        object(
            "Machine",
            "demo-cp-1",
            Map.of("cluster.x-k8s.io/control-plane", ""),
            Map.of(),
            Map.of(
                "spec",
                Map.of(
                    "infrastructureRef", Map.of("name", "demo-cp-1-m3m"),
                    "bootstrap", Map.of("configRef", Map.of("name", "demo-cp-1-config"))),
                "status",
                Map.of("phase", "Running", "nodeRef", Map.of("name", "node-a"))));
    GenericKubernetesResource metal3Machine =
        object(
            "Metal3Machine",
            "demo-cp-1-m3m",
            Map.of(),
            Map.of("metal3.io/BareMetalHost", "demo/host-0"),
            Map.of());
    GenericKubernetesResource agent =
        object(
            "Agent",
            "0f5c",
            Map.of("bootstrap.cluster.x-k8s.io/openshiftAssistedConfig", "demo-cp-1-config"),
            Map.of(),
            Map.of(
                "spec",
                Map.of("approved", true),
                "status",
                Map.of("progress", Map.of("currentStage", "Rebooting"))));
    GenericKubernetesResource usedHost =
        object(
            "BareMetalHost",
            "host-0",
            Map.of(),
            Map.of("baremetalhost.metal3.io/detached", "{}"),
            Map.of("status", Map.of("provisioning", Map.of("state", "provisioned"))));
    GenericKubernetesResource freeHost =
        object(
            "BareMetalHost",
            "host-9",
            Map.of(),
            Map.of(),
            Map.of("status", Map.of("provisioning", Map.of("state", "available"))));
    GenericKubernetesResource cluster =
        object(
            "Cluster",
            "demo",
            Map.of(),
            Map.of(),
            Map.of(
                "status",
                Map.of(
                    "phase",
                    "Provisioned",
                    "conditions",
                    List.of(Map.of("type", "Available", "status", "False")))));

    String table =
        ProgressTable.render(
            new ProgressTable.Snapshot(
                cluster,
                null,
                null,
                List.of(machine),
                List.of(metal3Machine),
                List.of(freeHost, usedHost),
                List.of(agent)));

    assertThat(table)
        .contains("Cluster demo  phase Provisioned")
        .contains("Available=False")
        .contains("ControlPlaneAvailable=?")
        .contains("Control plane: not created yet");
    assertThat(table.lines())
        .anySatisfy(
            line ->
                assertThat(line.split("\\s{2,}"))
                    .containsExactly(
                        "demo-cp-1",
                        "control-plane",
                        "Running",
                        "host-0",
                        "provisioned (detached)",
                        "Rebooting",
                        "node-a"))
        .anySatisfy(
            line ->
                assertThat(line.split("\\s{2,}"))
                    .containsExactly("(free)", "-", "-", "host-9", "available", "-", "-"));
  }

  @Test
  void anAgentWithoutInstallProgressShowsWhetherItIsApproved() {
    GenericKubernetesResource machine =
        object(
            "Machine",
            "demo-worker-1",
            Map.of(),
            Map.of(),
            Map.of("spec", Map.of("bootstrap", Map.of("configRef", Map.of("name", "c1")))));
    GenericKubernetesResource agent =
        object(
            "Agent",
            "a1",
            Map.of("bootstrap.cluster.x-k8s.io/openshiftAssistedConfig", "c1"),
            Map.of(),
            Map.of("spec", Map.of("approved", false)));

    String table =
        ProgressTable.render(
            new ProgressTable.Snapshot(
                null, null, null, List.of(machine), List.of(), List.of(), List.of(agent)));

    assertThat(table.lines())
        .anySatisfy(
            line ->
                assertThat(line.split("\\s{2,}"))
                    .containsExactly("demo-worker-1", "worker", "-", "-", "-", "registered", "-"));
  }

  private static GenericKubernetesResource object(
      String kind,
      String name,
      Map<String, String> labels,
      Map<String, String> annotations,
      Map<String, Object> content) {
    GenericKubernetesResource object = new GenericKubernetesResource();
    object.setKind(kind);
    object.setMetadata(
        new ObjectMetaBuilder()
            .withName(name)
            .withLabels(labels)
            .withAnnotations(annotations)
            .build());
    content.forEach(object::setAdditionalProperty);
    return object;
  }
}
