package io.openshiftagent.simulator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceList;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.NonNamespaceOperation;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.openshiftagent.provider.contract.GoProvider;
import io.openshiftagent.testsupport.KubeApiServerEnvironment;
import io.openshiftagent.testsupport.ProviderJar;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The bootstrap provider's identity from {@code config/bootstrap} keeps java-operator-sdk from
 * bringing a deleted OpenshiftAssistedConfig back. The SDK adds its finalizer by server-side apply
 * of only the name, namespace and finalizer, which creates the object if it was deleted since the
 * event the reconcile started from: Cluster API deletes a config it has just created when the
 * Machine's infrastructure object cannot be created (seen with CAPM3's webhook down in
 * CrashAnywhereTest: the config came back, without owner, and stayed). Creating through an apply
 * needs {@code create}, which the provider is not granted: the API server refuses it (403).
 */
class ProviderServiceAccountTest {
  private static final String CONFIG = "deleted-config";

  @Test
  void theBootstrapProviderCannotRecreateADeletedConfigByAddingItsFinalizer() {
    // A hub of its own: the refused request must not show in the shared hub's audit log, where
    // LeastPrivilegeTest finds none of the providers' requests refused.
    try (KubeApiServerEnvironment hub = KubeApiServerEnvironment.startHub(List.of())) {
      refusedAsDeployedAndDoneAsClusterAdmin(hub);
    }
  }

  private static void refusedAsDeployedAndDoneAsClusterAdmin(KubeApiServerEnvironment hub) {
    KubernetesClient admin = hub.client();
    String namespace = hub.createNamespace("provider-identity");
    NonNamespaceOperation<
            GenericKubernetesResource,
            GenericKubernetesResourceList,
            Resource<GenericKubernetesResource>>
        configs = configs(admin, namespace);
    ProviderServiceAccount account = ProviderServiceAccount.install(admin, ProviderJar.BOOTSTRAP);
    // Created and deleted, as Cluster API does when the Machine's infrastructure object fails.
    configs
        .resource(
            new GenericKubernetesResourceBuilder()
                .withApiVersion(ApiVersions.BOOTSTRAP)
                .withKind("OpenshiftAssistedConfig")
                .withNewMetadata()
                .withName(CONFIG)
                .endMetadata()
                .withAdditionalProperties(Map.of("spec", Map.of()))
                .build())
        .create();
    configs.withName(CONFIG).delete();
    assertThat(configs.withName(CONFIG).get()).as("gone: no finalizer").isNull();
    GenericKubernetesResource finalizerOnly =
        new GenericKubernetesResourceBuilder()
            .withApiVersion(ApiVersions.BOOTSTRAP)
            .withKind("OpenshiftAssistedConfig")
            .withNewMetadata()
            .withName(CONFIG)
            .withNamespace(namespace)
            .withFinalizers(GoProvider.CONFIG_FINALIZER)
            .endMetadata()
            .build();

    try (KubernetesClient provider =
        new KubernetesClientBuilder()
            .withConfig(Config.fromKubeconfig(account.kubeconfig(hub.kubeConfigYaml())))
            .build()) {
      assertThatThrownBy(() -> applyAsTheSdkDoes(provider, finalizerOnly))
          .isInstanceOfSatisfying(
              KubernetesClientException.class, e -> assertThat(e.getCode()).isEqualTo(403))
          .hasMessageContaining("cannot create resource \"openshiftassistedconfigs\"");
    }
    assertThat(configs.withName(CONFIG).get()).isNull();

    // With create allowed (cluster-admin, as a hand-made identity might be), the same apply
    // creates the object: what the missing verb prevents.
    applyAsTheSdkDoes(admin, finalizerOnly);
    assertThat(configs.withName(CONFIG).get()).isNotNull();
    configs
        .withName(CONFIG)
        .edit(
            c -> {
              c.getMetadata().setFinalizers(List.of());
              return c;
            });
    configs.withName(CONFIG).delete();
  }

  /** What java-operator-sdk 5.2 sends to add its finalizer (ReconciliationDispatcher). */
  private static void applyAsTheSdkDoes(KubernetesClient client, GenericKubernetesResource object) {
    configs(client, object.getMetadata().getNamespace())
        .resource(object)
        .patch(
            new PatchContext.Builder()
                .withFieldManager("openshiftassistedconfig")
                .withForce(true)
                .withPatchType(PatchType.SERVER_SIDE_APPLY)
                .build());
  }

  private static NonNamespaceOperation<
          GenericKubernetesResource,
          GenericKubernetesResourceList,
          Resource<GenericKubernetesResource>>
      configs(KubernetesClient client, String namespace) {
    return client
        .genericKubernetesResources(ApiVersions.BOOTSTRAP, "OpenshiftAssistedConfig")
        .inNamespace(namespace);
  }
}
