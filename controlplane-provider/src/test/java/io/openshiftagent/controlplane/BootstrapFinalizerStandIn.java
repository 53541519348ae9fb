package io.openshiftagent.controlplane;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.openshiftagent.api.bootstrap.v1alpha2.BootstrapGroup;
import io.openshiftagent.api.bootstrap.v1alpha2.OpenshiftAssistedConfig;
import io.openshiftagent.provider.reconcile.Finalizers;
import io.openshiftagent.provider.reconcile.Metadata;
import io.openshiftagent.testsupport.KubeApiServerEnvironment;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Plays the bootstrap provider's part in a config's deletion, which these tests do not run: the
 * control-plane provider creates its configs with the bootstrap provider's finalizer, and the
 * bootstrap provider removes it once it has given back what the config held (nothing, here).
 */
final class BootstrapFinalizerStandIn {
  private static final Map<KubeApiServerEnvironment, SharedIndexInformer<OpenshiftAssistedConfig>>
      RUNNING = new ConcurrentHashMap<>();

  private BootstrapFinalizerStandIn() {}

  /** Runs on {@code env} as long as it does (the shared API server lives as long as the JVM). */
  static void ensureRunning(KubeApiServerEnvironment env) {
    RUNNING.computeIfAbsent(env, e -> start(e.newClient()));
  }

  /** Runs until the informer is closed. */
  static SharedIndexInformer<OpenshiftAssistedConfig> start(KubernetesClient client) {
    return client
        .resources(OpenshiftAssistedConfig.class)
        .inAnyNamespace()
        .inform(
            new ResourceEventHandler<>() {
              @Override
              public void onAdd(OpenshiftAssistedConfig config) {
                release(client, config);
              }

              @Override
              public void onUpdate(OpenshiftAssistedConfig old, OpenshiftAssistedConfig config) {
                release(client, config);
              }

              @Override
              public void onDelete(OpenshiftAssistedConfig config, boolean unknown) {}
            });
  }

  private static void release(KubernetesClient client, OpenshiftAssistedConfig config) {
    if (!Metadata.isDeleting(config) || !Finalizers.has(config, BootstrapGroup.CONFIG_FINALIZER)) {
      return;
    }
    try {
      Finalizers.remove(client, config, BootstrapGroup.CONFIG_FINALIZER);
    } catch (KubernetesClientException e) {
      // Gone, or changed meanwhile: the next event brings it again.
    }
  }
}
