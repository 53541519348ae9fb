package io.openshiftagent.controlplane;

import static io.openshiftagent.controlplane.ControlPlaneConditions.UPGRADE_COMPLETED;
import static io.openshiftagent.controlplane.ControlPlaneConditions.UPGRADE_REQUESTED;
import static io.openshiftagent.controlplane.ControlPlaneConditions.WAITING_FOR_WORKLOAD_CLUSTER;
import static io.openshiftagent.controlplane.ControlPlaneConditions.WORKLOAD_CLUSTER_UNREACHABLE;

import io.openshiftagent.api.common.Conditions;
import io.openshiftagent.api.controlplane.v1alpha3.OpenshiftAssistedControlPlane;
import io.openshiftagent.provider.EventRecorder;
import java.util.Optional;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads the installed cluster (Kubernetes version of its control-plane nodes, the OpenShift release
 * it runs) and moves its ClusterVersion to {@code spec.distributionVersion}.
 */
final class Upgrades {
  private static final Logger LOG = LoggerFactory.getLogger(Upgrades.class);

  private final Kubeconfig kubeconfig;
  private final Function<String, WorkloadCluster> connect;
  private final EventRecorder events;

  Upgrades(Kubeconfig kubeconfig, Function<String, WorkloadCluster> connect, EventRecorder events) {
    this.kubeconfig = kubeconfig;
    this.connect = connect;
    this.events = events;
  }

  void reconcile(ControlPlaneScope scope, StatusBuilder status) {
    Optional<String> config = kubeconfig.read(scope);
    if (config.isEmpty()) {
      return;
    }
    OpenshiftAssistedControlPlane cp = scope.cp();
    try (WorkloadCluster cluster = connect.apply(config.get())) {
      cluster.controlPlaneKubernetesVersion().ifPresent(v -> status.status().version = v);
      Optional<UpgradeDecision.ClusterVersionView> cv = cluster.clusterVersion();
      if (cv.isEmpty()) {
        status.set(
            UPGRADE_COMPLETED,
            Conditions.UNKNOWN,
            WAITING_FOR_WORKLOAD_CLUSTER,
            "the workload cluster has no ClusterVersion yet");
        return;
      }
      if (cv.get().running() != null) {
        status.status().distributionVersion = cv.get().running();
      }
      OpenShiftVersion desired = OpenShiftVersion.parse(cp.getSpec().distributionVersion);
      boolean byVersion =
          desired.isGenerallyAvailable()
              && ReleaseImage.isDefaultRepository(
                  ClusterObjects.annotation(cp, ReleaseImage.REPOSITORY_OVERRIDE_ANNOTATION));
      UpgradeDecision.Outcome outcome =
          UpgradeDecision.decide(
              desired, cv.get(), ClusterObjects.releaseImage(cp, desired), byVersion);
      if (outcome.desiredUpdate() != null) {
        LOG.info(
            "requesting upgrade of {}/{} to {}",
            scope.namespace(),
            cp.getMetadata().getName(),
            desired);
        cluster.requestUpdate(outcome.desiredUpdate());
        events.normal(cp, UPGRADE_REQUESTED, "Upgrade", outcome.message());
      }
      status.set(UPGRADE_COMPLETED, outcome.status(), outcome.reason(), outcome.message());
    } catch (RuntimeException e) {
      status.set(
          UPGRADE_COMPLETED,
          Conditions.UNKNOWN,
          WORKLOAD_CLUSTER_UNREACHABLE,
          "cannot read the workload cluster through Secret "
              + Names.kubeconfigSecret(scope.clusterName())
              + ": "
              + e.getMessage());
    }
  }
}
