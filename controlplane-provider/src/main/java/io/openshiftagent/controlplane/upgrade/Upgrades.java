package io.openshiftagent.controlplane.upgrade;

import static io.openshiftagent.controlplane.status.ControlPlaneConditions.UPGRADE_COMPLETED;
import static io.openshiftagent.controlplane.status.ControlPlaneConditions.UPGRADE_REQUESTED;
import static io.openshiftagent.controlplane.status.ControlPlaneConditions.WAITING_FOR_WORKLOAD_CLUSTER;
import static io.openshiftagent.controlplane.status.ControlPlaneConditions.WORKLOAD_CLUSTER_UNREACHABLE;

import io.openshiftagent.api.common.Conditions;
import io.openshiftagent.api.controlplane.v1alpha3.OpenshiftAssistedControlPlane;
import io.openshiftagent.controlplane.ControlPlaneScope;
import io.openshiftagent.controlplane.Names;
import io.openshiftagent.controlplane.release.OpenShiftVersion;
import io.openshiftagent.controlplane.release.ReleaseImage;
import io.openshiftagent.controlplane.release.ReleaseImageResolution;
import io.openshiftagent.controlplane.status.ControlPlaneStatus;
import io.openshiftagent.provider.reconcile.EventRecorder;
import java.util.Optional;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads the installed cluster (Kubernetes version of its control-plane nodes, the OpenShift release
 * it runs) and moves its ClusterVersion to {@code spec.distributionVersion} ({@link
 * UpgradeDecision}).
 */
public final class Upgrades {
  private static final Logger LOG = LoggerFactory.getLogger(Upgrades.class);

  private final Function<String, WorkloadCluster> connect;
  private final EventRecorder events;

  /**
   * @param connect opens the workload cluster from its kubeconfig
   */
  public Upgrades(Function<String, WorkloadCluster> connect, EventRecorder events) {
    this.connect = connect;
    this.events = events;
  }

  /** Connects through the control plane's published kubeconfig. */
  public static Upgrades connecting(EventRecorder events) {
    return new Upgrades(WorkloadCluster::connect, events);
  }

  /**
   * @param kubeconfig the workload cluster's kubeconfig, if published
   * @param release the release image of {@code spec.distributionVersion}, or why there is none
   */
  public void reconcile(
      ControlPlaneScope scope,
      ControlPlaneStatus status,
      Optional<String> kubeconfig,
      ReleaseImageResolution.Outcome release) {
    if (kubeconfig.isEmpty()) {
      return;
    }
    OpenshiftAssistedControlPlane cp = scope.cp();
    try (WorkloadCluster cluster = connect.apply(kubeconfig.get())) {
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
      UpgradeDecision.Outcome outcome =
          UpgradeDecision.decide(desired, cv.get(), release, ReleaseImage.isPublished(cp, desired));
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
