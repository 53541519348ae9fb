package io.openshiftagent.simulator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceList;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
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
  private static final String NAMESPACE = "provider-identity";

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
    admin
        .namespaces()
        .resource(
            new NamespaceBuilder().withNewMetadata().withName(NAMESPACE).endMetadata().build())
        .serverSideApply();
    ProviderServiceAccount account = ProviderServiceAccount.install(admin, ProviderJar.BOOTSTRAP);
    GenericKubernetesResource finalizerOnly = finalizerOnly("deleted-config");
    // Created and deleted, as Cluster API does when the Machine's infrastructure object fails.
    GenericKubernetesResource created = finalizerOnly("deleted-config");
    created.getMetadata().setFinalizers(List.of());
    created.setAdditionalProperty("spec", Map.of());
    configs(admin).resource(created).create();
    configs(admin).withName("deleted-config").delete();
    assertThat(configs(admin).withName("deleted-config").get()).as("gone: no finalizer").isNull();

    try (KubernetesClient provider =
        new KubernetesClientBuilder()
            .withConfig(Config.fromKubeconfig(account.kubeconfig(hub.kubeConfigYaml())))
            .build()) {
      assertThatThrownBy(() -> applyAsTheSdkDoes(provider, finalizerOnly))
          .isInstanceOfSatisfying(
              KubernetesClientException.class, e -> assertThat(e.getCode()).isEqualTo(403))
          .hasMessageContaining("cannot create resource \"openshiftassistedconfigs\"");
    }
    assertThat(configs(admin).withName("deleted-config").get()).isNull();

    // With create allowed (cluster-admin, as a hand-made identity might be), the same apply
    // creates the object: what the missing verb prevents.
    applyAsTheSdkDoes(admin, finalizerOnly("deleted-config"));
    assertThat(configs(admin).withName("deleted-config").get()).isNotNull();
    configs(admin)
        .withName("deleted-config")
        .edit(
            c -> {
              c.getMetadata().setFinalizers(List.of());
              return c;
            });
    configs(admin).withName("deleted-config").delete();
  }

  private static GenericKubernetesResource finalizerOnly(String name) {
    return new GenericKubernetesResourceBuilder()
        .withApiVersion(ApiVersions.BOOTSTRAP)
        .withKind("OpenshiftAssistedConfig")
        .withNewMetadata()
        .withName(name)
        .withNamespace(NAMESPACE)
        .withFinalizers(GoProvider.CONFIG_FINALIZER)
        .endMetadata()
        .build();
  }

  /** What java-operator-sdk 5.2 sends to add its finalizer (ReconciliationDispatcher). */
  private static void applyAsTheSdkDoes(KubernetesClient client, GenericKubernetesResource object) {
    configs(client)
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
      configs(KubernetesClient client) {
    return client
        .genericKubernetesResources(ApiVersions.BOOTSTRAP, "OpenshiftAssistedConfig")
        .inNamespace(NAMESPACE);
  }
}
