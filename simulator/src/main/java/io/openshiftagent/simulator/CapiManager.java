package io.openshiftagent.simulator;

import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.openshiftagent.testsupport.CrdInstaller;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * The real Cluster API core manager ({@code hack/build-capi-manager.sh}) against the hub, with its
 * admission webhooks (the release's configurations, names prefixed {@code capi-}) served on
 * 127.0.0.1 and registered with the hub, as in a real management cluster.
 */
final class CapiManager {
  static final String VERSION = "1.14.0";
  static final String NAME = "capi-manager";

  private CapiManager() {}

  /** Starts the manager against the hub and waits until it is ready. */
  static UpstreamManager start(KubernetesClient hub, String kubeconfigYaml, Path workDir) {
    Path binary =
        UpstreamManager.binary(
            "capi-manager-v" + VERSION, "build-capi-manager.sh", "webhooks.yaml", "crds");
    installMissingCrds(hub, Path.of(binary + "-crds"));
    return UpstreamManager.start(
        hub,
        kubeconfigYaml,
        workDir,
        new UpstreamManager.Spec(
            NAME,
            binary,
            Webhooks.read(hub, Path.of(binary + "-webhooks.yaml")),
            "capi-",
            null,
            "webhook-certs",
            // RuntimeSDK and InPlaceUpdates: our control plane's in-place update hooks
            // (InPlaceExtension), which keep the workers OpenShift upgrades in place.
            setup ->
                setup.clusterApiManagerFlags(
                    "--feature-gates=ClusterTopology=true,InPlaceUpdates=true,RuntimeSDK=true"),
            Map.of()));
  }

  /**
   * The manager watches kinds the tests' hub lacks (ClusterResourceSet, ExtensionConfig,
   * IPAddress...): install those; the CRDs the hub has stay as they are.
   */
  private static void installMissingCrds(KubernetesClient hub, Path dir) {
    List<CustomResourceDefinition> missing =
        CrdInstaller.read(hub, dir).stream()
            .filter(
                crd ->
                    hub.apiextensions()
                            .v1()
                            .customResourceDefinitions()
                            .withName(crd.getMetadata().getName())
                            .get()
                        == null)
            .toList();
    if (!missing.isEmpty()) {
      CrdInstaller.install(hub, missing, Duration.ofSeconds(60));
    }
  }
}
