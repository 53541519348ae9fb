package io.openshiftagent.simulator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionVersion;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.openshiftagent.testsupport.KubeApiServerEnvironment;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The Go provider pair as {@link GoProviders} installs it on a hub of its own, checked through the
 * hub (skipped without a checkout, {@link GoProviderCheckout}): its CRDs serve every version its
 * release serves, its conversion webhook converts between them, its validating webhook answers, and
 * each manager runs as its ServiceAccount.
 */
@GoProviderCheckout.Required
class GoProvidersTest {
  private static KubeApiServerEnvironment hub;
  private static GoProviders providers;

  @BeforeAll
  static void start() {
    Path checkout = GoProviderCheckout.assumeGiven();
    hub = KubeApiServerEnvironment.startHub(List.of());
    providers =
        GoProviders.start(
            hub.client(),
            hub.kubeConfigYaml(),
            Path.of("target", "go-providers-test"),
            checkout,
            List.of(),
            Map.of());
  }

  @AfterAll
  static void stop() {
    if (providers != null) {
      providers.close();
    }
    if (hub != null) {
      hub.close();
    }
  }

  @Test
  void itsCrdsServeEveryVersionOfItsRelease() {
    assertThat(served("openshiftassistedconfigs.bootstrap.cluster.x-k8s.io"))
        .containsExactly("v1alpha1", "v1alpha2*");
    assertThat(served("openshiftassistedconfigtemplates.bootstrap.cluster.x-k8s.io"))
        .containsExactly("v1alpha1", "v1alpha2*");
    assertThat(served("openshiftassistedcontrolplanes.controlplane.cluster.x-k8s.io"))
        .containsExactly("v1alpha2", "v1alpha3*");
  }

  @Test
  void aConfigWrittenInItsOlderVersionIsReadInTheStorageVersionAndItsSpecIsImmutable() {
    KubernetesClient admin = hub.client();
    String namespace = hub.createNamespace("go-conversion");
    admin
        .genericKubernetesResources(
            "bootstrap.cluster.x-k8s.io/v1alpha1", "OpenshiftAssistedConfig")
        .inNamespace(namespace)
        .resource(
            new GenericKubernetesResourceBuilder()
                .withApiVersion("bootstrap.cluster.x-k8s.io/v1alpha1")
                .withKind("OpenshiftAssistedConfig")
                .withNewMetadata()
                .withName("old")
                .endMetadata()
                .withAdditionalProperties(
                    Map.of("spec", Map.of("cpuArchitecture", "x86_64", "sshAuthorizedKey", "k")))
                .build())
        .create();

    GenericKubernetesResource stored =
        admin
            .genericKubernetesResources(
                "bootstrap.cluster.x-k8s.io/v1alpha2", "OpenshiftAssistedConfig")
            .inNamespace(namespace)
            .withName("old")
            .get();
    assertThat(Fields.string(stored, "spec", "sshAuthorizedKey")).isEqualTo("k");

    // A merge patch, without a resourceVersion: the Go pair's controller writes the config (its
    // finalizer) meanwhile, and only the webhook is to refuse the change.
    assertThatThrownBy(
            () ->
                admin
                    .genericKubernetesResources(
                        "bootstrap.cluster.x-k8s.io/v1alpha2", "OpenshiftAssistedConfig")
                    .inNamespace(namespace)
                    .withName("old")
                    .patch(
                        PatchContext.of(PatchType.JSON_MERGE),
                        "{\"spec\":{\"sshAuthorizedKey\":\"changed\"}}"))
        .isInstanceOf(KubernetesClientException.class)
        .hasMessageContaining("spec is immutable");
  }

  @Test
  void eachManagerRunsAsItsServiceAccount() {
    assertThat(providers.serviceAccount(GoProviders.Manager.BOOTSTRAP).username())
        .isEqualTo(
            "system:serviceaccount:capoa-bootstrap-system:capoa-bootstrap-controller-manager");
    assertThat(providers.serviceAccount(GoProviders.Manager.CONTROLPLANE).username())
        .isEqualTo(
            "system:serviceaccount:capoa-controlplane-system:capoa-controlplane-controller-manager");
    for (GoProviders.Manager manager : GoProviders.Manager.values()) {
      assertThat(providers.process(manager).isAlive()).as(manager + " runs").isTrue();
    }
  }

  /** The versions a CRD serves, the storage version marked with {@code *}. */
  private static List<String> served(String name) {
    CustomResourceDefinition crd =
        hub.client().apiextensions().v1().customResourceDefinitions().withName(name).get();
    return crd.getSpec().getVersions().stream()
        .filter(CustomResourceDefinitionVersion::getServed)
        .map(v -> v.getName() + (v.getStorage() ? "*" : ""))
        .toList();
  }
}
