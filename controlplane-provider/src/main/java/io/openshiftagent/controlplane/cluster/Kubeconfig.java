package io.openshiftagent.controlplane.cluster;

import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.openshiftagent.api.external.ExternalKinds;
import io.openshiftagent.api.external.OwnedFieldsPatch;
import io.openshiftagent.controlplane.names.Names;
import io.openshiftagent.controlplane.scope.ControlPlaneScope;
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
  static final String ASSISTED_KEY = "kubeconfig";

  private final KubernetesClient client;

  public Kubeconfig(KubernetesClient client) {
    this.client = client;
  }

  /** What this reconcile found of the kubeconfig. */
  public sealed interface Found {}

  /** The copy this process published is trusted: nothing was looked at, nothing changed. */
  public record Trusted(String kubeconfig) implements Found {}

  /** The kubeconfig is published, as compared or copied now. */
  public record Published(String kubeconfig) implements Found {}

  /** assisted-service has not published the admin kubeconfig yet: why. */
  public record Awaited(String message) implements Found {}

  /** What was found, and this process's copy of what is published now. */
  public record Result(Found found, Optional<PublishedKubeconfig> copy) {
    /** The kubeconfig of the installed cluster, when it is published. */
    public Optional<String> kubeconfig() {
      if (found instanceof Trusted trusted) {
        return Optional.of(trusted.kubeconfig());
      }
      return found instanceof Published published
          ? Optional.of(published.kubeconfig())
          : Optional.empty();
    }
  }

  /**
   * Publishes the kubeconfig when assisted-service has one. Once published, it is compared with
   * assisted-service's copy when its AgentClusterInstall changes (it writes a new version with each
   * edit of clusterMetadata) and every {@link PublishedKubeconfig#REFRESH}; in between, {@code
   * copy} is trusted.
   *
   * @param copy what this process published last
   */
  public Result reconcile(ControlPlaneScope scope, Optional<PublishedKubeconfig> copy) {
    long installGeneration =
        scope.clusterInstall().map(aci -> aci.getMetadata().getGeneration()).orElse(0L);
    Optional<String> known =
        scope.initialized()
            ? copy.flatMap(c -> c.current(installGeneration, scope.now()))
            : Optional.empty();
    if (known.isPresent()) {
      return new Result(new Trusted(known.get()), copy);
    }
    Found found = publish(scope, copy.flatMap(c -> c.ours(scope.now())));
    return found instanceof Published published
        ? new Result(
            found,
            Optional.of(
                new PublishedKubeconfig(published.kubeconfig(), installGeneration, scope.now())))
        : new Result(found, copy);
  }

  /**
   * @param ours what this process published last, while it is trusted (then our Secret is compared
   *     with it instead of being read)
   */
  private Found publish(ControlPlaneScope scope, Optional<String> ours) {
    String installName = Names.clusterDeployment(scope.cp());
    Optional<String> adminSecret =
        scope
            .clusterInstall()
            .map(aci -> aci.getSpec())
            .map(spec -> spec.clusterMetadata)
            .map(metadata -> metadata.adminKubeconfigSecretRef)
            .map(ref -> ref.getName());
    if (adminSecret.isEmpty() || adminSecret.get().isEmpty()) {
      return new Awaited(
          "assisted-service has not published the admin kubeconfig yet (AgentClusterInstall "
              + installName
              + " spec.clusterMetadata.adminKubeconfigSecretRef); "
              + InstallProgress.progress(scope.clusterInstall(), installName));
    }
    String encoded = value(scope.secret(adminSecret.get()), ASSISTED_KEY);
    if (encoded == null) {
      return new Awaited(
          "Secret "
              + adminSecret.get()
              + " named by the AgentClusterInstall has no key "
              + ASSISTED_KEY
              + " yet");
    }
    String name = Names.kubeconfigSecret(scope.clusterName());
    Secret desired =
        new SecretBuilder()
            .withMetadata(
                new ObjectMetaBuilder()
                    .withName(name)
                    .withNamespace(scope.namespace())
                    .addToLabels(Names.ownLabels(scope.cp(), scope.clusterName()))
                    .withOwnerReferences(OwnerReferences.controller(scope.cp()))
                    .build())
            .withType(ExternalKinds.CLUSTER_SECRET_TYPE)
            .withData(Map.of(Names.KUBECONFIG_KEY, encoded))
            .build();
    if (scope.initialized() && ours.isPresent()) {
      if (!decode(encoded).equals(ours.get())) {
        updateOrCreate(desired, encoded); // assisted-service's final version
      }
    } else {
      // Before the first publication it is missing: created without a look; afterwards it is
      // compared with assisted-service's copy.
      Optional<Secret> existing = scope.initialized() ? scope.secret(name) : Optional.empty();
      if (existing.isPresent() || Writes.create(client, desired).isEmpty()) {
        existing = existing.or(() -> scope.secret(name));
        if (existing.isPresent() && !encoded.equals(value(existing, Names.KUBECONFIG_KEY))) {
          new OwnedFieldsPatch()
              .set(encoded, "data", Names.KUBECONFIG_KEY)
              .applyTo(client, existing.get());
        }
      }
    }
    return new Published(decode(encoded));
  }

  /**
   * Sets our copy's content (only that field: the rest of the Secret stays); creates it if gone.
   */
  private void updateOrCreate(Secret desired, String encoded) {
    try {
      new OwnedFieldsPatch().set(encoded, "data", Names.KUBECONFIG_KEY).applyTo(client, desired);
    } catch (KubernetesClientException e) {
      if (e.getCode() != 404) {
        throw e;
      }
      Writes.create(client, desired);
    }
  }

  private static String value(Optional<Secret> secret, String key) {
    return secret.map(Secret::getData).map(data -> data.get(key)).orElse(null);
  }

  private static String decode(String encoded) {
    return new String(Base64.getDecoder().decode(encoded), StandardCharsets.UTF_8);
  }
}
