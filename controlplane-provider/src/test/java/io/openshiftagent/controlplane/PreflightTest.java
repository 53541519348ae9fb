package io.openshiftagent.controlplane;

import static org.assertj.core.api.Assertions.assertThat;

import io.openshiftagent.api.controlplane.v1alpha3.OpenshiftAssistedControlPlane;
import io.openshiftagent.api.external.ExternalKinds;
import io.openshiftagent.api.external.capi.Cluster;
import io.openshiftagent.api.external.capi.ClusterSpec;
import io.openshiftagent.api.external.capi.ClusterStatus;
import io.openshiftagent.controlplane.names.ConditionUpdate;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** What keeps a control plane from its phases, in order, and what is reported meanwhile. */
class PreflightTest {
  static Stream<Arguments> checks() {
    return Stream.of(
        // name, change to a ready Cluster (null: no Cluster), proceed, reported reasons
        Arguments.of("no owning Cluster", null, false, "Available=WaitingForCluster"),
        Arguments.of(
            "the Cluster is paused",
            (Consumer<Cluster>) c -> c.getSpec().paused = true,
            false,
            "Paused=Paused"),
        Arguments.of(
            "paused while being deleted",
            (Consumer<Cluster>)
                c -> {
                  c.getSpec().paused = true;
                  c.getMetadata().setDeletionTimestamp("2026-01-01T00:00:00Z");
                },
            false,
            "Paused=Paused"),
        Arguments.of(
            "the Cluster is being deleted",
            (Consumer<Cluster>) c -> c.getMetadata().setDeletionTimestamp("2026-01-01T00:00:00Z"),
            false,
            "Paused=NotPaused Available=ClusterDeleting"),
        Arguments.of(
            "no control-plane endpoint",
            (Consumer<Cluster>) c -> c.getSpec().controlPlaneEndpoint.port = 0,
            false,
            "Paused=NotPaused Available=WaitingForControlPlaneEndpoint"),
        Arguments.of(
            "no endpoint and no infrastructure: the endpoint first",
            (Consumer<Cluster>)
                c -> {
                  c.getSpec().controlPlaneEndpoint = null;
                  c.setStatus(null);
                },
            false,
            "Paused=NotPaused Available=WaitingForControlPlaneEndpoint"),
        Arguments.of(
            "infrastructure not provisioned",
            (Consumer<Cluster>) c -> c.getStatus().initialization.infrastructureProvisioned = false,
            false,
            "Paused=NotPaused Available=WaitingForInfrastructure"),
        Arguments.of("ready", (Consumer<Cluster>) c -> {}, true, "Paused=NotPaused"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("checks")
  void theClusterGatesThePhases(
      String name, Consumer<Cluster> change, boolean proceed, String reported) {
    OpenshiftAssistedControlPlane cp = Fixtures.controlPlane("ns", "ocp1-cp", 3);
    Optional<Cluster> cluster = Optional.empty();
    if (change != null) {
      Cluster c = readyCluster();
      change.accept(c);
      cluster = Optional.of(c);
    }
    Preflight.Result result = Preflight.check(cluster, cp);
    assertThat(result.proceed()).isEqualTo(proceed);
    assertThat(
            String.join(
                " ", result.conditions().stream().map(c -> c.type() + "=" + c.reason()).toList()))
        .isEqualTo(reported);
  }

  @org.junit.jupiter.api.Test
  void thePausedAnnotationPausesAsTheClusterDoes() {
    OpenshiftAssistedControlPlane cp = Fixtures.controlPlane("ns", "ocp1-cp", 3);
    cp.getMetadata().setAnnotations(Map.of(ExternalKinds.PAUSED_ANNOTATION, ""));
    assertThat(Preflight.check(Optional.of(readyCluster()), cp).conditions())
        .containsExactly(
            ConditionUpdate.isTrue(
                "Paused",
                "Paused",
                "reconciliation is paused: the cluster.x-k8s.io/paused annotation is set"));
  }

  private static Cluster readyCluster() {
    Cluster cluster = Fixtures.cluster("ns", "ocp1");
    cluster.getSpec().controlPlaneEndpoint = new ClusterSpec.ApiEndpoint();
    cluster.getSpec().controlPlaneEndpoint.host = "api.ocp1.example.com";
    cluster.getSpec().controlPlaneEndpoint.port = 6443;
    cluster.setStatus(new ClusterStatus());
    cluster.getStatus().initialization = new ClusterStatus.Initialization();
    cluster.getStatus().initialization.infrastructureProvisioned = true;
    return cluster;
  }
}
