package io.openshiftagent.controlplane;

import io.javaoperatorsdk.operator.processing.event.ResourceID;
import io.javaoperatorsdk.operator.processing.event.source.inbound.SimpleInboundEventSource;
import io.openshiftagent.api.controlplane.v1alpha3.ControlPlaneMachineTemplate;
import io.openshiftagent.api.controlplane.v1alpha3.OpenshiftAssistedControlPlane;
import io.openshiftagent.controlplane.release.ReleaseImagePhase;
import io.openshiftagent.controlplane.release.ReleaseImageResolution;
import io.openshiftagent.controlplane.scope.ControlPlaneScope;

/**
 * What a control plane makes while its Cluster's infrastructure is awaited, none of which depends
 * on it: the configs and infrastructure clones of its first Machines, its release image (resolved
 * and reported), the ClusterImageSet that names it, and the ClusterDeployment. All of it is made in
 * the background, so that the reconcile the provisioned infrastructure brings never queues behind
 * it: that reconcile makes the AgentClusterInstall and the Machines without waiting for a registry
 * or those parts.
 */
final class Preparation {
  private final Phases phases;

  /** The end of a release lookup made here brings its control plane's next reconcile. */
  private final SimpleInboundEventSource<OpenshiftAssistedControlPlane> lookedUp =
      new SimpleInboundEventSource<>("release-lookups");

  Preparation(Phases phases) {
    this.phases = phases;
  }

  SimpleInboundEventSource<OpenshiftAssistedControlPlane> lookedUp() {
    return lookedUp;
  }

  /**
   * Starts or takes what is made ahead; returns the release as it stands. The release lookup, the
   * longest wait, starts first, and the cluster objects next: the Machines' parts read their
   * infrastructure template before they start.
   */
  ReleaseImageResolution.Outcome prepare(ControlPlaneScope scope, Memory.Remembered remembered) {
    ResourceID id = ResourceID.fromResource(scope.cp());
    ReleaseImagePhase.Resolved release =
        phases
            .releaseImage()
            .resolveAhead(
                scope,
                remembered.unwrittenRelease,
                remembered.takeReleaseLookup(),
                () -> lookedUp.propagateEvent(id));
    remembered.unwrittenRelease = release.unwritten();
    remembered.releaseLookup = release.lookup();
    remembered.clusterObjects =
        phases.clusterObjects().prepare(scope, release.outcome(), remembered.clusterObjects);
    ControlPlaneMachineTemplate template = scope.cp().getSpec().machineTemplate;
    if (template != null) {
      phases.infrastructure().prepare(template.effectiveInfrastructureRef());
    }
    remembered.machines =
        remembered.machines.withPrepared(
            phases.machines().prepare(scope, remembered.machines.prepared()));
    return release.outcome();
  }
}
