package io.openshiftagent.controlplane;

import static io.openshiftagent.controlplane.ControlPlaneConditions.INITIALIZED;
import static io.openshiftagent.controlplane.ControlPlaneConditions.KUBECONFIG_AVAILABLE;
import static io.openshiftagent.controlplane.ControlPlaneConditions.WAITING_FOR_KUBECONFIG;

import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.openshiftagent.api.external.ExternalKinds;
import io.openshiftagent.api.external.OwnedFieldsPatch;
import io.openshiftagent.provider.OwnerReferences;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Map;
import java.util.Optional;

/**
 * Cluster API's {@code <cluster>-kubeconfig} Secret, copied from the admin kubeconfig
 * assisted-service publishes once the cluster's API is up. Its content is never logged.
 */
final class Kubeconfig {
  static final String VALUE_KEY = "value";
  static final String ASSISTED_KEY = "kubeconfig";

  private final KubernetesClient client;

  Kubeconfig(KubernetesClient client) {
    this.client = client;
  }

  /** Publishes the kubeconfig when assisted-service has one; returns whether it is published. */
  boolean reconcile(ControlPlaneScope scope, StatusBuilder status) {
    Optional<String> adminSecret =
        scope
            .clusterInstall()
            .map(aci -> aci.getSpec())
            .map(spec -> spec.clusterMetadata)
            .map(metadata -> metadata.adminKubeconfigSecretRef)
            .map(ref -> ref.getName());
    String name = Names.kubeconfigSecret(scope.clusterName());
    if (adminSecret.isEmpty() || adminSecret.get().isEmpty()) {
      waiting(
          status,
          "assisted-service has not published the admin kubeconfig yet (AgentClusterInstall "
              + Names.clusterDeployment(scope.cp())
              + " spec.clusterMetadata.adminKubeconfigSecretRef); installer state: "
              + describeState(scope));
      return false;
    }
    Secret source =
        client.secrets().inNamespace(scope.namespace()).withName(adminSecret.get()).get();
    String encoded =
        source == null || source.getData() == null ? null : source.getData().get(ASSISTED_KEY);
    if (encoded == null) {
      waiting(
          status,
          "Secret "
              + adminSecret.get()
              + " named by the AgentClusterInstall has no key "
              + ASSISTED_KEY
              + " yet");
      return false;
    }
    Secret existing = client.secrets().inNamespace(scope.namespace()).withName(name).get();
    if (existing == null) {
      client
          .resource(
              new SecretBuilder()
                  .withMetadata(
                      new ObjectMetaBuilder()
                          .withName(name)
                          .withNamespace(scope.namespace())
                          .addToLabels(ExternalKinds.CLUSTER_NAME_LABEL, scope.clusterName())
                          .withOwnerReferences(OwnerReferences.controller(scope.cp()))
                          .build())
                  .withType(ExternalKinds.CLUSTER_SECRET_TYPE)
                  .withData(Map.of(VALUE_KEY, encoded))
                  .build())
          .create();
    } else if (!encoded.equals(
        existing.getData() == null ? null : existing.getData().get(VALUE_KEY))) {
      new OwnedFieldsPatch().set(encoded, "data", VALUE_KEY).applyTo(client, existing);
    }
    String message = "Secret " + name + " holds the admin kubeconfig of the cluster";
    status.setTrue(KUBECONFIG_AVAILABLE, KUBECONFIG_AVAILABLE, message);
    status.setTrue(INITIALIZED, INITIALIZED, "the cluster's API server is up; " + message);
    status.markInitialized();
    return true;
  }

  /** The kubeconfig content, for connecting to the workload cluster. */
  Optional<String> read(ControlPlaneScope scope) {
    Secret secret =
        client
            .secrets()
            .inNamespace(scope.namespace())
            .withName(Names.kubeconfigSecret(scope.clusterName()))
            .get();
    if (secret == null || secret.getData() == null || secret.getData().get(VALUE_KEY) == null) {
      return Optional.empty();
    }
    return Optional.of(
        new String(
            Base64.getDecoder().decode(secret.getData().get(VALUE_KEY)), StandardCharsets.UTF_8));
  }

  private static void waiting(StatusBuilder status, String message) {
    if (status.initialized()) {
      return; // initialization is reported once and stays
    }
    status.setFalse(KUBECONFIG_AVAILABLE, WAITING_FOR_KUBECONFIG, message);
    status.setFalse(INITIALIZED, WAITING_FOR_KUBECONFIG, message);
  }

  static String describeState(ControlPlaneScope scope) {
    String state = scope.installerState();
    String info = scope.installerStateInfo();
    if (state == null || state.isEmpty()) {
      return "not reported yet";
    }
    return info == null || info.isEmpty() ? state : state + " (" + info + ")";
  }
}
