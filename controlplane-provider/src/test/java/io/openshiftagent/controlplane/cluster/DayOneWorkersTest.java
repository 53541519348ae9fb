package io.openshiftagent.controlplane.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.openshiftagent.api.controlplane.v1alpha3.OpenshiftAssistedControlPlane;
import io.openshiftagent.api.external.capi.MachineDeployment;
import io.openshiftagent.api.external.capi.MachineReplicas;
import io.openshiftagent.controlplane.Fixtures;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class DayOneWorkersTest {
  private static final java.util.function.Function<MachineDeployment, Map<String, String>>
      NO_TEMPLATE_ANNOTATIONS = md -> Map.of();

  private final OpenshiftAssistedControlPlane cp = Fixtures.controlPlane("ns", "cp", 3);

  @Test
  void withoutAVersionEveryDeploymentIsCreatedDuringTheInstallation() {
    cp.getSpec().version = null;
    assertThat(
            DayOneWorkers.count(
                cp, List.of(deployment(2, null), deployment(1, null)), NO_TEMPLATE_ANNOTATIONS))
        .isEqualTo(3);
  }

  @Test
  void withAVersionClusterApiHoldsTheWorkersUntilTheControlPlaneReportsItsVersion() {
    cp.getSpec().version = "v1.33.0";
    assertThat(DayOneWorkers.count(cp, List.of(deployment(2, null)), NO_TEMPLATE_ANNOTATIONS))
        .isZero();
  }

  @Test
  void aDeploymentThatSkipsTheControlPlaneCheckIsCounted() {
    cp.getSpec().version = "v1.33.0";
    assertThat(
            DayOneWorkers.count(
                cp,
                List.of(
                    deployment(2, "KubernetesVersionSkew, ControlPlaneIsStable"),
                    deployment(1, "All"),
                    deployment(4, "KubernetesVersionSkew")),
                NO_TEMPLATE_ANNOTATIONS))
        .isEqualTo(3);
  }

  @Test
  void theSkipOnTheBootstrapConfigTemplateCountsAsClusterApiReadsItThere() {
    cp.getSpec().version = "v1.33.0";
    java.util.List<MachineDeployment> asked = new java.util.ArrayList<>();
    int counted =
        DayOneWorkers.count(
            cp,
            List.of(deployment(2, null), deployment(3, "KubernetesVersionSkew")),
            md -> {
              asked.add(md);
              return Map.of(DayOneWorkers.SKIP_PREFLIGHT_CHECKS_ANNOTATION, "ControlPlaneIsStable");
            });
    // The deployment's own annotation wins; the template is read only without one.
    assertThat(counted).isEqualTo(2);
    assertThat(asked).hasSize(1);
  }

  @Test
  void deploymentsBeingDeletedAreNotCounted() {
    cp.getSpec().version = null;
    MachineDeployment deleting = deployment(2, null);
    deleting.getMetadata().setDeletionTimestamp("2026-01-01T00:00:00Z");
    assertThat(
            DayOneWorkers.count(
                cp, List.of(deleting, deployment(1, null)), NO_TEMPLATE_ANNOTATIONS))
        .isEqualTo(1);
  }

  private static MachineDeployment deployment(int replicas, String skippedChecks) {
    MachineDeployment md = new MachineDeployment();
    md.setMetadata(
        new ObjectMetaBuilder()
            .withName("md")
            .withAnnotations(
                skippedChecks == null
                    ? Map.of()
                    : Map.of(DayOneWorkers.SKIP_PREFLIGHT_CHECKS_ANNOTATION, skippedChecks))
            .build());
    md.setSpec(new MachineReplicas.Spec());
    md.getSpec().replicas = replicas;
    return md;
  }
}
