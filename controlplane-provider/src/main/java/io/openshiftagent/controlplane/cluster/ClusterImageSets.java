package io.openshiftagent.controlplane.cluster;

import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.openshiftagent.api.external.OwnedFieldsPatch;
import io.openshiftagent.api.external.hive.ClusterImageSet;
import io.openshiftagent.controlplane.names.Names;
import io.openshiftagent.controlplane.scope.ControlPlaneScope;
import io.openshiftagent.provider.reconcile.Metadata;
import io.openshiftagent.provider.reconcile.Writes;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;

/**
 * The ClusterImageSet that names a control plane's release image to assisted-service: made once per
 * control plane and release, possibly in the background while the infrastructure is awaited; an
 * existing one (a restart, an upgrade, the Go provider's) is made ours and follows the release.
 */
public final class ClusterImageSets {
  /** Marks a set as a control plane's (with the cluster-name label): whose it is, for deletion. */
  public static final String NAMESPACE_LABEL = "controlplane.cluster.x-k8s.io/namespace";

  private final KubernetesClient client;

  /**
   * The set this process made or found as wanted, or is making, for a control plane: it is not read
   * again at every reconcile (the provider may not watch sets). One deleted behind our back is made
   * again when the release changes or the provider restarts; one whose making failed is made again.
   *
   * @param name the set's name
   * @param releaseImage the release it names
   * @param done completes with the name once made
   */
  public record Making(String name, String releaseImage, CompletableFuture<String> done) {
    boolean serves(String name, String releaseImage) {
      return this.name.equals(name)
          && this.releaseImage.equals(releaseImage)
          && !done.isCompletedExceptionally();
    }
  }

  ClusterImageSets(KubernetesClient client) {
    this.client = client;
  }

  /**
   * The control plane's set names {@code releaseImage}: made by {@code maker} unless {@code known}
   * is making it already.
   *
   * @return the making (known, or started now)
   */
  Making ensure(
      ControlPlaneScope scope, String releaseImage, Executor maker, Optional<Making> known) {
    String name = Names.clusterImageSet(scope.cp(), scope.clusterInstall());
    if (known.isPresent() && known.get().serves(name, releaseImage)) {
      return known.get();
    }
    CompletableFuture<String> done = new CompletableFuture<>();
    maker.execute(
        () -> {
          try {
            make(scope, name, releaseImage);
            done.complete(name);
          } catch (RuntimeException e) {
            done.completeExceptionally(e);
          }
        });
    return new Making(name, releaseImage, done);
  }

  private void make(ControlPlaneScope scope, String name, String releaseImage) {
    ClusterImageSet set = new ClusterImageSet();
    set.setMetadata(new ObjectMetaBuilder().withName(name).withLabels(labels(scope)).build());
    set.setSpec(new ClusterImageSet.Spec(releaseImage));
    // A new cluster's is missing: created without a look first. One its AgentClusterInstall may
    // name already (a restart, an upgrade, the Go provider's) is read first: a restarted provider
    // then writes nothing for a set that is as it should be.
    Optional<ClusterImageSet> existing =
        scope.clusterInstall().isPresent() ? scope.clusterImageSet(name) : Optional.empty();
    if (existing.isPresent()) {
      update(scope, existing.get(), releaseImage);
    } else if (Writes.create(client, set).isEmpty()) {
      scope.clusterImageSet(name).ifPresent(made -> update(scope, made, releaseImage));
    }
  }

  /** Makes an existing set name {@code releaseImage}, if it is ours to change. */
  private void update(ControlPlaneScope scope, ClusterImageSet existing, String releaseImage) {
    String owner = Metadata.label(existing, NAMESPACE_LABEL);
    if (owner != null && !owner.equals(scope.namespace())) {
      // The Go provider's set of a control plane of the same name in another namespace, taken
      // over there: used as it is, never changed from here.
      return;
    }
    OwnedFieldsPatch patch = new OwnedFieldsPatch();
    if (owner == null) {
      // Made by the Go provider: ours from now on, so our deletion removes it.
      labels(scope).forEach((k, v) -> patch.set(v, "metadata", "labels", k));
    }
    if (existing.getSpec() == null || !releaseImage.equals(existing.getSpec().releaseImage)) {
      patch.set(releaseImage, "spec", "releaseImage");
    }
    if (!patch.isEmpty()) {
      patch.applyTo(client, existing);
    }
  }

  /** The labels that make a set this control plane's. */
  private static Map<String, String> labels(ControlPlaneScope scope) {
    Map<String, String> labels =
        new LinkedHashMap<>(Names.ownLabels(scope.cp(), scope.clusterName()));
    labels.put(NAMESPACE_LABEL, scope.namespace());
    return labels;
  }
}
