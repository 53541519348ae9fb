package io.openshiftagent.api;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.openshiftagent.api.bootstrap.v1alpha2.OpenshiftAssistedConfigTemplate;
import io.openshiftagent.api.controlplane.v1alpha3.OpenshiftAssistedControlPlane;
import io.openshiftagent.testsupport.KubeApiServerEnvironment;
import io.openshiftagent.testsupport.WithKubeApiServer;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Manifests written for the Go provider are accepted unchanged and read back into our model. */
@WithKubeApiServer
class GoProviderManifestsTest {

  @Test
  void multinodeExampleIsAcceptedAndReadsBack(KubeApiServerEnvironment env) {
    KubernetesClient client = env.client();
    String ns = env.createNamespace("go-multinode");
    List<GenericKubernetesResource> objects = Manifests.load(client, "manifests/multinode.yaml");
    objects.forEach(o -> client.resource(o).inNamespace(ns).create());

    OpenshiftAssistedControlPlane oacp =
        client
            .resources(OpenshiftAssistedControlPlane.class)
            .inNamespace(ns)
            .withName("test-multinode")
            .get();
    assertThat(oacp.getSpec().replicas).isEqualTo(3);
    assertThat(oacp.getSpec().config.apiVIPs).containsExactly("192.168.222.40");
    assertThat(oacp.getSpec().machineTemplate.effectiveInfrastructureRef().name)
        .isEqualTo("test-multinode-controlplane");
    assertThat(oacp.getSpec().openshiftAssistedConfigSpec.nodeRegistration.kubeletExtraLabels)
        .containsExactly("metal3.io/uuid=$METADATA_UUID");
    // Defaults the API server applied to fields the Go manifest leaves out.
    assertThat(oacp.getSpec().openshiftAssistedConfigSpec.cpuArchitecture).isEqualTo("x86_64");
    // The Go provider's CRD default of the deletion timeouts, which its manifests leave out.
    assertThat(oacp.getSpec().machineTemplate.deletion.nodeDeletionTimeoutSeconds).isEqualTo(10);

    OpenshiftAssistedConfigTemplate template =
        client
            .resources(OpenshiftAssistedConfigTemplate.class)
            .inNamespace(ns)
            .withName("test-multinode-worker")
            .get();
    assertThat(template.getSpec().template.spec.pullSecretRef.name).isEqualTo("pull-secret");
    // No boot mode in the schema's defaults: an unset one is the bootstrap provider's
    // DEFAULT_BOOT_MODE, so one setting makes Go manifests boot as the Go provider does.
    assertThat(template.getSpec().template.spec.bootMode).isNull();
  }

  @Test
  void singleNodeOkdExampleIsAccepted(KubeApiServerEnvironment env) {
    KubernetesClient client = env.client();
    String ns = env.createNamespace("go-sno");
    Manifests.load(client, "manifests/sno.yaml")
        .forEach(o -> client.resource(o).inNamespace(ns).create());

    OpenshiftAssistedControlPlane oacp =
        client
            .resources(OpenshiftAssistedControlPlane.class)
            .inNamespace(ns)
            .withName("test-sno")
            .get();
    assertThat(oacp.getSpec().desiredReplicas()).isEqualTo(1);
    assertThat(oacp.getSpec().distributionVersion).isEqualTo("4.19.0-okd-scos.ec.6");
    assertThat(oacp.getSpec().config.apiVIPs).isNull();
    assertThat(oacp.getSpec().machineTemplate.effectiveDeletion().nodeDeletionTimeoutSeconds)
        .isEqualTo(10);
  }
}
