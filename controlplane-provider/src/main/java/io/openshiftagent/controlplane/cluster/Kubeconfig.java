package io.openshiftagent.controlplane.cluster;

import static io.openshiftagent.controlplane.status.ControlPlaneConditions.INITIALIZED;
import static io.openshiftagent.controlplane.status.ControlPlaneConditions.KUBECONFIG_AVAILABLE;
import static io.openshiftagent.controlplane.status.ControlPlaneConditions.WAITING_FOR_KUBECONFIG;

import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.openshiftagent.api.external.ExternalKinds;
import io.openshiftagent.api.external.OwnedFieldsPatch;
import io.openshiftagent.controlplane.ControlPlaneScope;
import io.openshiftagent.controlplane.Names;
import io.openshiftagent.controlplane.status.Availability;
import io.openshiftagent.controlplane.status.ControlPlaneStatus;
import io.openshiftagent.provider.reconcile.OwnerReferences;
import io.openshiftagent.provider.reconcile.Writes;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Map;
import java.util.Optional;

/**
 * Cluster API's {@code <cluster>-kubeconfig} Secret, copied from the admin kubeconfig
 * assisted-service publishes once the cluster's API is up. Its content is never logged.
 */
public final class Kubeconfig {
  static final String VALUE_KEY = "value";
  static final String ASSISTED_KEY = "kubeconfig";

  private final KubernetesClient client;

  public Kubeconfig(KubernetesClient client) {
    this.client = client;
  }

  /**
   * Publishes the kubeconfig when assisted-service has one; returns its content when it is
   * published.
   *
   * @param ours what this process published last, while {@link PublishedKubeconfigs} trusts it
   *     (then our Secret is compared with it instead of being read)
   */
  public Optional<String> publish(
      ControlPlaneScope scope, ControlPlaneStatus status, Optional<String> ours) {
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
              + " spec.clusterMetadata.adminKubeconfigSecretRef); "
              + Availability.progress(scope.clusterInstall(), Names.clusterDeployment(scope.cp())));
      return Optional.empty();
    }
    String encoded = value(scope.secret(adminSecret.get()), ASSISTED_KEY);
    if (encoded == null) {
      waiting(
          status,
          "Secret "
              + adminSecret.get()
              + " named by the AgentClusterInstall has no key "
              + ASSISTED_KEY
              + " yet");
      return Optional.empty();
    }
    Secret desired =
        new SecretBuilder()
            .withMetadata(
                new ObjectMetaBuilder()
                    .withName(name)
                    .withNamespace(scope.namespace())
                    .addToLabels(scope.ownLabels())
                    .withOwnerReferences(OwnerReferences.controller(scope.cp()))
                    .build())
            .withType(ExternalKinds.CLUSTER_SECRET_TYPE)
            .withData(Map.of(VALUE_KEY, encoded))
            .build();
    if (status.initialized() && ours.isPresent()) {
      if (!decode(encoded).equals(ours.get())) {
        updateOrCreate(desired, encoded); // assisted-service's final version
      }
    } else {
      // Before the first publication it is missing: created without a look; afterwards it is
      // compared with assisted-service's copy.
      Optional<Secret> existing = status.initialized() ? scope.secret(name) : Optional.empty();
      if (existing.isPresent() || Writes.create(client, desired).isEmpty()) {
        existing = existing.or(() -> scope.secret(name));
        if (existing.isPresent() && !encoded.equals(value(existing, VALUE_KEY))) {
          new OwnedFieldsPatch().set(encoded, "data", VALUE_KEY).applyTo(client, existing.get());
        }
      }
    }
    String message = "Secret " + name + " holds the admin kubeconfig of the cluster";
    status.setTrue(KUBECONFIG_AVAILABLE, KUBECONFIG_AVAILABLE, message);
    status.setTrue(INITIALIZED, INITIALIZED, "the cluster's API server is up; " + message);
    status.markInitialized();
    return Optional.of(decode(encoded));
  }

  /**
   * Sets our copy's content (only that field: the rest of the Secret stays); creates it if gone.
   */
  private void updateOrCreate(Secret desired, String encoded) {
    try {
      new OwnedFieldsPatch().set(encoded, "data", VALUE_KEY).applyTo(client, desired);
    } catch (KubernetesClientException e) {
      if (e.getCode() != 404) {
        throw e;
      }
      Writes.create(client, desired);
    }
  }

  /** The published kubeconfig's content, for connecting to the workload cluster. */
  public static Optional<String> read(ControlPlaneScope scope) {
    return Optional.ofNullable(
            value(scope.secret(Names.kubeconfigSecret(scope.clusterName())), VALUE_KEY))
        .map(Kubeconfig::decode);
  }

  private static String value(Optional<Secret> secret, String key) {
    return secret.map(Secret::getData).map(data -> data.get(key)).orElse(null);
  }

  private static String decode(String encoded) {
    return new String(Base64.getDecoder().decode(encoded), StandardCharsets.UTF_8);
  }

  private static void waiting(ControlPlaneStatus status, String message) {
    if (status.initialized()) {
      return; // initialization is reported once and stays
    }
    status.setFalse(KUBECONFIG_AVAILABLE, WAITING_FOR_KUBECONFIG, message);
    status.setFalse(INITIALIZED, WAITING_FOR_KUBECONFIG, message);
  }
}
