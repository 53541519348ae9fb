package io.openshiftagent.controlplane.cluster;

import static io.openshiftagent.controlplane.names.ControlPlaneConditions.CLUSTER_DEPLOYMENT_FROZEN;
import static io.openshiftagent.controlplane.names.ControlPlaneConditions.CLUSTER_INSTALL_CONFIGURED;
import static io.openshiftagent.controlplane.names.ControlPlaneConditions.CLUSTER_INSTALL_REFUSED;
import static io.openshiftagent.controlplane.names.ControlPlaneConditions.CONFIGURED;
import static io.openshiftagent.controlplane.names.ControlPlaneConditions.INSTALLATION_STARTED;
import static io.openshiftagent.controlplane.names.ControlPlaneConditions.WAITING_FOR_HOST_INVENTORY;

import io.fabric8.kubernetes.client.KubernetesClientException;
import io.openshiftagent.controlplane.names.ConditionUpdate;
import io.openshiftagent.controlplane.names.Names;
import io.openshiftagent.controlplane.release.ReleaseImageResolution;
import io.openshiftagent.controlplane.scope.ControlPlaneScope;
import io.openshiftagent.provider.reconcile.Refusal;
import java.util.List;
import java.util.Optional;

/**
 * The {@code ClusterInstallConfigured} condition {@link ClusterObjects} returns: whether the
 * ClusterDeployment and AgentClusterInstall match the spec, or why not (the release still awaited,
 * a spec the API server, Hive or assisted-service would not take, an object in the way).
 */
final class ClusterInstallConfigured {
  private ClusterInstallConfigured() {}

  /** The condition once the objects are written. */
  static ConditionUpdate of(
      ControlPlaneScope scope, ReleaseImageResolution.Outcome release, List<String> frozen) {
    String name = Names.clusterDeployment(scope.cp());
    Optional<String> refused =
        scope.installationStarted()
            ? Optional.empty()
            : scope.clusterInstall().flatMap(ClusterObjects::inputError);
    if (release instanceof ReleaseImageResolution.Wait wait && !scope.installationStarted()) {
      return isFalse(wait.reason(), wait.message());
    } else if (!frozen.isEmpty()) {
      return isFalse(
          CLUSTER_DEPLOYMENT_FROZEN,
          "the cluster is installed and Hive does not let its ClusterDeployment "
              + name
              + " change: "
              + String.join("; ", frozen)
              + ". Set the spec back to what the cluster has");
    } else if (refused.filter(ClusterInstallConfigured::awaitsHostInventory).isPresent()) {
      return isFalse(
          WAITING_FOR_HOST_INVENTORY,
          "assisted-service applies the install-config overrides of AgentClusterInstall "
              + name
              + " once every host bound to it has reported its inventory; until then it says: "
              + refused.get());
    } else if (refused.isPresent()) {
      return isFalse(
          CLUSTER_INSTALL_REFUSED,
          "assisted-service refused AgentClusterInstall "
              + name
              + ": "
              + RefusedFields.explained(refused.get()));
    } else if (scope.installationStarted()) {
      return ConditionUpdate.isTrue(
          CLUSTER_INSTALL_CONFIGURED,
          INSTALLATION_STARTED,
          "the installation has started: assisted-service no longer accepts changes to the"
              + " AgentClusterInstall, so later changes of spec.config do not reach it");
    }
    return ConditionUpdate.isTrue(
        CLUSTER_INSTALL_CONFIGURED,
        CONFIGURED,
        "ClusterDeployment and AgentClusterInstall " + name + " match the spec");
  }

  /** The condition when the API server refused a write; what is no refusal is thrown again. */
  static ConditionUpdate refused(KubernetesClientException e) {
    Optional<String> refusal = Refusal.of(e);
    if (refusal.isEmpty()) {
      throw e;
    }
    // E.g. a value our CRD admits that the installed assisted-service's CRD does not know.
    return isFalse(
        CLUSTER_INSTALL_REFUSED,
        "the API server refused the objects that describe the cluster: " + refusal.get());
  }

  /** The condition when an object of a name the control plane needs is someone else's. */
  static ConditionUpdate inTheWay(ClusterObjectWrites.NotOurs e) {
    return isFalse(e.reason(), e.getMessage());
  }

  /**
   * Whether a refusal comes from the step where assisted-service adds the platform to the
   * install-config it checks the overrides against. That step reads the bound hosts' inventories,
   * never the spec: it fails while a host has registered but not yet reported its inventory, and
   * passes once it has.
   */
  static boolean awaitsHostInventory(String refusal) {
    // "Platfom" is assisted-service's spelling.
    return refusal.contains("error while adding Platfom");
  }

  static ConditionUpdate isFalse(String reason, String message) {
    return ConditionUpdate.isFalse(CLUSTER_INSTALL_CONFIGURED, reason, message);
  }
}
