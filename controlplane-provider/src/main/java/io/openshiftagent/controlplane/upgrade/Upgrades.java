package io.openshiftagent.controlplane.upgrade;

import static io.openshiftagent.controlplane.names.ControlPlaneConditions.UPGRADE_COMPLETED;
import static io.openshiftagent.controlplane.names.ControlPlaneConditions.UPGRADE_REQUESTED;
import static io.openshiftagent.controlplane.names.ControlPlaneConditions.WAITING_FOR_WORKLOAD_CLUSTER;
import static io.openshiftagent.controlplane.names.ControlPlaneConditions.WORKLOAD_CLUSTER_UNREACHABLE;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.openshiftagent.api.common.Conditions;
import io.openshiftagent.api.controlplane.v1alpha3.OpenshiftAssistedControlPlane;
import io.openshiftagent.controlplane.names.ConditionUpdate;
import io.openshiftagent.controlplane.names.Names;
import io.openshiftagent.controlplane.release.OpenShiftVersion;
import io.openshiftagent.controlplane.release.ReleaseImage;
import io.openshiftagent.controlplane.release.ReleaseImageResolution;
import io.openshiftagent.controlplane.scope.ControlPlaneScope;
import io.openshiftagent.provider.reconcile.EventRecorder;
import io.openshiftagent.provider.reconcile.Failures;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Looks at the installed cluster (the Kubernetes version of its control-plane nodes, the OpenShift
 * release it runs) and moves its ClusterVersion to {@code spec.distributionVersion} ({@link
 * UpgradeDecision}).
 */
public final class Upgrades {
  private static final Logger LOG = LoggerFactory.getLogger(Upgrades.class);

  private final EventRecorder events;

  public Upgrades(EventRecorder events) {
    this.events = events;
  }

  /**
   * What a look found: the versions the cluster runs (empty: not told) and the UpgradeCompleted
   * condition.
   */
  public record Looked(
      Optional<String> version,
      Optional<String> distributionVersion,
      ConditionUpdate upgradeCompleted) {}

  /**
   * Looks at the installed cluster, through its published kubeconfig.
   *
   * @param release the release image of {@code spec.distributionVersion}, or why there is none
   * @return what it found; empty when no kubeconfig is published
   */
  public Optional<Looked> reconcile(
      ControlPlaneScope scope, ReleaseImageResolution.Outcome release) {
    if (scope.kubeconfig().isEmpty()) {
      return Optional.empty();
    }
    OpenshiftAssistedControlPlane cp = scope.cp();
    Optional<String> version = Optional.empty();
    Optional<String> running = Optional.empty();
    try {
      version =
          WorkloadCluster.controlPlaneKubernetesVersion(scope.installed().controlPlaneNodes());
      Optional<GenericKubernetesResource> clusterVersion = scope.installed().clusterVersion();
      if (clusterVersion.isEmpty()) {
        return Optional.of(
            new Looked(
                version,
                Optional.empty(),
                new ConditionUpdate(
                    UPGRADE_COMPLETED,
                    Conditions.UNKNOWN,
                    WAITING_FOR_WORKLOAD_CLUSTER,
                    "the workload cluster has no ClusterVersion yet")));
      }
      UpgradeDecision.ClusterVersionView cv = WorkloadCluster.view(clusterVersion.get());
      running = Optional.ofNullable(cv.running());
      OpenShiftVersion desired = OpenShiftVersion.parse(cp.getSpec().distributionVersion);
      UpgradeDecision.Outcome outcome =
          UpgradeDecision.decide(desired, cv, release, ReleaseImage.isPublished(cp, desired));
      if (outcome.desiredUpdate() != null) {
        LOG.info(
            "requesting upgrade of {}/{} to {}",
            scope.namespace(),
            cp.getMetadata().getName(),
            desired);
        WorkloadCluster.requestUpdate(
            scope.installed().client(), clusterVersion.get(), outcome.desiredUpdate());
        events.normal(cp, UPGRADE_REQUESTED, "Upgrade", outcome.message());
      }
      return Optional.of(
          new Looked(
              version,
              running,
              new ConditionUpdate(
                  UPGRADE_COMPLETED, outcome.status(), outcome.reason(), outcome.message())));
    } catch (RuntimeException e) {
      return Optional.of(
          new Looked(
              version,
              running,
              new ConditionUpdate(
                  UPGRADE_COMPLETED,
                  Conditions.UNKNOWN,
                  WORKLOAD_CLUSTER_UNREACHABLE,
                  "cannot read the workload cluster through Secret "
                      + Names.kubeconfigSecret(scope.clusterName())
                      + ": "
                      + Failures.describe(e))));
    }
  }
}
