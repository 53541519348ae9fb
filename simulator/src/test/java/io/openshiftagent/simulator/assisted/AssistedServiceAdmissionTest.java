package io.openshiftagent.simulator.assisted;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.openshiftagent.simulator.ApiVersions;
import io.openshiftagent.simulator.Fields;
import io.openshiftagent.testsupport.KubeApiServerEnvironment;
import io.openshiftagent.testsupport.TestPaths;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * assisted-service's own admission server registered with a hub of its own (the world's hub flags:
 * the aggregation layer's front proxy), without the service: each of its webhooks answers through
 * the hub's aggregator, in the service's words, and the mutating one defaults what the service
 * defaults.
 */
class AssistedServiceAdmissionTest {
  private static final Path DIR = Path.of("target", "assisted-service-admission-test");
  private static final String NAMESPACE = "admission";

  private static KubeApiServerEnvironment hub;
  private static AssistedServiceAdmission admission;

  @BeforeAll
  static void start() throws Exception {
    TestPaths.deleteRecursively(DIR);
    hub = KubeApiServerEnvironment.startHub(DIR.resolve("kube-apiserver"));
    admission =
        AssistedServiceAdmission.start(
            DIR.resolve("admission"),
            hub.kubeConfigYaml(),
            hub.client(),
            hub.createNamespace("assisted-service"));
    hub.client()
        .namespaces()
        .resource(
            new NamespaceBuilder().withNewMetadata().withName(NAMESPACE).endMetadata().build())
        .create();
  }

  @AfterAll
  static void stop() {
    if (admission != null) {
      admission.close();
    }
    if (hub != null) {
      hub.close();
    }
  }

  @Test
  void refusesAnotherImageSetAndDefaultsUserManagedNetworkingForPlatformNone() {
    KubernetesClient client = hub.client();
    GenericKubernetesResource created =
        client
            .resource(
                Serialization.unmarshal(
                    """
                        apiVersion: extensions.hive.openshift.io/v1beta1
                        kind: AgentClusterInstall
                        metadata: {name: none, namespace: %s}
                        spec:
                          clusterDeploymentRef: {name: none}
                          imageSetRef: {name: release-a}
                          platformType: None
                          provisionRequirements: {controlPlaneAgents: 3}
                          networking:
                            clusterNetwork: [{cidr: 10.128.0.0/14, hostPrefix: 23}]
                            serviceNetwork: [172.30.0.0/16]
                        """
                        .formatted(NAMESPACE),
                    GenericKubernetesResource.class))
            .create();
    assertThat((Object) created.get("spec", "networking", "userManagedNetworking"))
        .as("the service's mutating webhook: platform None manages no networking")
        .isEqualTo(true);

    assertThatThrownBy(
            () ->
                client
                    .genericKubernetesResources(ApiVersions.HIVE_EXTENSION, "AgentClusterInstall")
                    .inNamespace(NAMESPACE)
                    .withName("none")
                    .patch(
                        PatchContext.of(PatchType.JSON_MERGE),
                        "{\"spec\":{\"imageSetRef\":{\"name\":\"release-b\"}}}"))
        .isInstanceOf(KubernetesClientException.class)
        .hasMessageContaining("agentclusterinstallvalidators.admission.agentinstall.openshift.io")
        .hasMessageContaining(
            "Attempted to change AgentClusterInstall.ImageSetRef which is immutable");
    assertThat(
            Fields.string(
                client
                    .genericKubernetesResources(ApiVersions.HIVE_EXTENSION, "AgentClusterInstall")
                    .inNamespace(NAMESPACE)
                    .withName("none")
                    .get(),
                "spec",
                "imageSetRef",
                "name"))
        .isEqualTo("release-a");
  }

  @Test
  void refusesAnInfraEnvNamingBothAClusterAndAnImageVersion() {
    assertThatThrownBy(
            () ->
                hub.client()
                    .resource(
                        Serialization.unmarshal(
                            """
                                apiVersion: agent-install.openshift.io/v1beta1
                                kind: InfraEnv
                                metadata: {name: both, namespace: %s}
                                spec:
                                  clusterRef: {name: c, namespace: %s}
                                  osImageVersion: "4.20"
                                  pullSecretRef: {name: pull-secret}
                                """
                                .formatted(NAMESPACE, NAMESPACE),
                            GenericKubernetesResource.class))
                    .create())
        .isInstanceOf(KubernetesClientException.class)
        .hasMessageContaining(
            "Either Spec.ClusterRef or Spec.OSImageVersion should be specified (not both).");
  }
}
