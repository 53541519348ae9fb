package io.openshiftagent.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.autoscaling.v1.Scale;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.openshiftagent.api.controlplane.v1alpha3.OpenshiftAssistedControlPlane;
import io.openshiftagent.api.controlplane.v1alpha3.OpenshiftAssistedControlPlaneStatus;
import io.openshiftagent.testsupport.KubeApiServerEnvironment;
import io.openshiftagent.testsupport.WithKubeApiServer;
import org.junit.jupiter.api.Test;

/** The control plane's scale subresource behaves as `kubectl scale` expects. */
@WithKubeApiServer
class ScaleSubresourceTest {

  @Test
  void scaleReadsReplicasAndSelectorFromStatusAndWritesSpecReplicas(KubeApiServerEnvironment env) {
    KubernetesClient client = env.client();
    String ns = env.createNamespace("scale");
    GenericKubernetesResource manifest =
        Manifests.find(
            Manifests.load(client, "manifests/multinode.yaml"), "OpenshiftAssistedControlPlane");
    client.resource(manifest).inNamespace(ns).create();
    var controlPlane =
        client
            .resources(OpenshiftAssistedControlPlane.class)
            .inNamespace(ns)
            .withName("test-multinode");

    OpenshiftAssistedControlPlane current = controlPlane.get();
    current.setStatus(new OpenshiftAssistedControlPlaneStatus());
    current.getStatus().replicas = 3;
    current.getStatus().selector =
        "cluster.x-k8s.io/cluster-name=test-multinode,cluster.x-k8s.io/control-plane";
    client.resource(current).updateStatus();

    Scale scale = controlPlane.scale();
    assertThat(scale.getSpec().getReplicas()).isEqualTo(3);
    assertThat(scale.getStatus().getReplicas()).isEqualTo(3);
    assertThat(scale.getStatus().getSelector())
        .isEqualTo("cluster.x-k8s.io/cluster-name=test-multinode,cluster.x-k8s.io/control-plane");

    controlPlane.scale(5);
    assertThat(controlPlane.get().getSpec().replicas).isEqualTo(5);
  }

  @Test
  void scalingToAnUnsupportedTopologyIsRejected(KubeApiServerEnvironment env) {
    KubernetesClient client = env.client();
    String ns = env.createNamespace("scale-invalid");
    client
        .resource(
            Manifests.find(
                Manifests.load(client, "manifests/multinode.yaml"),
                "OpenshiftAssistedControlPlane"))
        .inNamespace(ns)
        .create();
    var controlPlane =
        client
            .resources(OpenshiftAssistedControlPlane.class)
            .inNamespace(ns)
            .withName("test-multinode");

    assertThatThrownBy(() -> controlPlane.scale(2))
        .isInstanceOf(KubernetesClientException.class)
        .hasMessageContaining("spec.replicas must be 1 (single-node OpenShift) or 3, 4 or 5");
    assertThat(controlPlane.get().getSpec().replicas).isEqualTo(3);
  }
}
