package io.openshiftagent.controlplane.report;

import static io.openshiftagent.controlplane.names.ControlPlaneConditions.AVAILABLE;
import static io.openshiftagent.controlplane.names.ControlPlaneConditions.DELETING;
import static io.openshiftagent.controlplane.names.ControlPlaneConditions.INITIALIZED;
import static io.openshiftagent.controlplane.names.ControlPlaneConditions.KUBECONFIG_AVAILABLE;
import static io.openshiftagent.controlplane.names.ControlPlaneConditions.NOT_DELETING;
import static io.openshiftagent.controlplane.names.ControlPlaneConditions.RELEASE_IMAGE_RESOLVED;
import static io.openshiftagent.controlplane.names.ControlPlaneConditions.WAITING_FOR_HOST_INVENTORY;
import static io.openshiftagent.controlplane.names.ControlPlaneConditions.WAITING_FOR_KUBECONFIG;

import io.fabric8.kubernetes.client.utils.Serialization;
import io.openshiftagent.api.common.Conditions;
import io.openshiftagent.api.controlplane.v1alpha3.OpenshiftAssistedControlPlane;
import io.openshiftagent.api.controlplane.v1alpha3.OpenshiftAssistedControlPlaneStatus;
import io.openshiftagent.controlplane.cluster.Kubeconfig;
import io.openshiftagent.controlplane.machines.MachineStatus;
import io.openshiftagent.controlplane.machines.MachinesReport;
import io.openshiftagent.controlplane.names.ConditionUpdate;
import io.openshiftagent.controlplane.names.Names;
import io.openshiftagent.controlplane.release.ReleaseImageResolution;
import io.openshiftagent.controlplane.scope.ControlPlaneScope;
import io.openshiftagent.controlplane.upgrade.Upgrades;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * The report step: the status a reconcile (or a cleanup) writes, built from what the phases decided
 * and found. It starts from the stored status, so that what a reconcile did not look at (the
 * versions while the installed cluster is not looked at, EtcdClusterHealthy while etcd is not read)
 * is kept. Pure; {@link StatusWriter} writes its result.
 */
public final class ControlPlaneReport {
  private static final ConditionUpdate NOT_BEING_DELETED =
      ConditionUpdate.isFalse(DELETING, NOT_DELETING, "the control plane is not being deleted");

  private ControlPlaneReport() {}

  /**
   * What the phases of a reconcile that went through them decided and found.
   *
   * @param preflight the conditions of the checks that let it go on
   * @param release the release image, or why there is none yet
   * @param clusterInstallConfigured what the objects that describe the cluster say
   * @param kubeconfig what was found of the kubeconfig
   * @param upgrade what a look at the installed cluster found, if one was due
   */
  public record Facts(
      List<ConditionUpdate> preflight,
      ReleaseImageResolution.Outcome release,
      ConditionUpdate clusterInstallConfigured,
      Kubeconfig.Found kubeconfig,
      MachinesReport machines,
      Optional<Upgrades.Looked> upgrade) {}

  /**
   * The status of a control plane that waits in its preflight (its conditions say why), with the
   * release image resolved meanwhile, if it was.
   */
  public static OpenshiftAssistedControlPlaneStatus waiting(
      OpenshiftAssistedControlPlane cp,
      List<ConditionUpdate> preflight,
      Optional<ReleaseImageResolution.Outcome> release,
      Instant now) {
    Status status = new Status(cp, now);
    status.set(NOT_BEING_DELETED);
    preflight.forEach(status::set);
    release.ifPresent(status::release);
    return status.status;
  }

  /**
   * The status of a control plane that went through every phase.
   *
   * @param scope the scope as the phases left it
   */
  public static OpenshiftAssistedControlPlaneStatus reconciled(
      ControlPlaneScope scope, Facts facts) {
    OpenshiftAssistedControlPlane cp = scope.cp();
    Status status = new Status(cp, scope.now());
    status.set(NOT_BEING_DELETED);
    facts.preflight().forEach(status::set);
    status.release(facts.release());
    status.set(facts.clusterInstallConfigured());
    status.kubeconfig(facts.kubeconfig(), scope.initialized(), scope.clusterName());
    status.machines(facts.machines(), Names.selector(cp, scope.clusterName()));
    facts.upgrade().ifPresent(status::upgrade);
    ConditionUpdate configured = facts.clusterInstallConfigured();
    status.set(
        Availability.of(
            facts.release() instanceof ReleaseImageResolution.Wait wait
                && wait.reason().equals(configured.reason()),
            // Once installing, what the spec cannot change any more does not make it unavailable;
            // hosts yet to report their inventory are progress, not a configuration to fix.
            Conditions.FALSE.equals(configured.status())
                && !scope.installationStarted()
                && !WAITING_FOR_HOST_INVENTORY.equals(configured.reason()),
            scope.clusterInstall(),
            status.initialized(),
            Names.clusterDeployment(cp),
            MachineStatus.hostsHeldBack(scope.machines())));
    status.status.observedGeneration = cp.getMetadata().getGeneration();
    return status.status;
  }

  /** The status of a control plane being deleted: the stage of the deletion it waits in. */
  public static OpenshiftAssistedControlPlaneStatus deleting(
      OpenshiftAssistedControlPlane cp, String reason, String message, Instant now) {
    Status status = new Status(cp, now);
    status.set(ConditionUpdate.isTrue(DELETING, reason, message));
    status.set(ConditionUpdate.isFalse(AVAILABLE, DELETING, "the control plane is being deleted"));
    return status.status;
  }

  /** A copy of the stored status, as the report changes it. */
  private static final class Status {
    private final OpenshiftAssistedControlPlane cp;
    private final Instant now;
    private final OpenshiftAssistedControlPlaneStatus status;

    Status(OpenshiftAssistedControlPlane cp, Instant now) {
      this.cp = cp;
      this.now = now;
      this.status =
          cp.getStatus() == null
              ? new OpenshiftAssistedControlPlaneStatus()
              : Serialization.unmarshal(
                  Serialization.asJson(cp.getStatus()), OpenshiftAssistedControlPlaneStatus.class);
    }

    void set(ConditionUpdate update) {
      status.conditions =
          Conditions.set(
              status.conditions,
              update.type(),
              update.status(),
              update.reason(),
              update.message(),
              cp.getMetadata().getGeneration(),
              now);
    }

    boolean initialized() {
      return status.initialization != null
          && Boolean.TRUE.equals(status.initialization.controlPlaneInitialized);
    }

    void release(ReleaseImageResolution.Outcome release) {
      if (release instanceof ReleaseImageResolution.Use use) {
        set(ConditionUpdate.isTrue(RELEASE_IMAGE_RESOLVED, use.reason(), use.message()));
        status.releaseImage = use.status();
      } else {
        ReleaseImageResolution.Wait wait = (ReleaseImageResolution.Wait) release;
        set(ConditionUpdate.isFalse(RELEASE_IMAGE_RESOLVED, wait.reason(), wait.message()));
      }
    }

    /**
     * KubeconfigAvailable and Initialized: True once published; False while awaited, unless the
     * control plane was initialized before (that is reported once and stays).
     */
    void kubeconfig(Kubeconfig.Found found, boolean storedInitialized, String clusterName) {
      if (found instanceof Kubeconfig.Published) {
        String message =
            "Secret "
                + Names.kubeconfigSecret(clusterName)
                + " holds the admin kubeconfig of the cluster";
        set(ConditionUpdate.isTrue(KUBECONFIG_AVAILABLE, KUBECONFIG_AVAILABLE, message));
        set(
            ConditionUpdate.isTrue(
                INITIALIZED, INITIALIZED, "the cluster's API server is up; " + message));
        status.initialization = new OpenshiftAssistedControlPlaneStatus.Initialization();
        status.initialization.controlPlaneInitialized = true;
      } else if (found instanceof Kubeconfig.Awaited awaited && !storedInitialized) {
        set(
            ConditionUpdate.isFalse(
                KUBECONFIG_AVAILABLE, WAITING_FOR_KUBECONFIG, awaited.message()));
        set(ConditionUpdate.isFalse(INITIALIZED, WAITING_FOR_KUBECONFIG, awaited.message()));
      }
    }

    void machines(MachinesReport machines, String selector) {
      machines.conditions().forEach(this::set);
      status.selector = selector;
      status.replicas = machines.counts().replicas();
      status.readyReplicas = machines.counts().ready();
      status.availableReplicas = machines.counts().available();
      status.upToDateReplicas = machines.counts().upToDate();
      if (!machines.versions().isEmpty()) {
        status.versions = machines.versions();
      }
      machines.lastRemediation().ifPresent(last -> status.lastRemediation = last.toStatus());
    }

    void upgrade(Upgrades.Looked looked) {
      looked.version().ifPresent(v -> status.version = v);
      looked.distributionVersion().ifPresent(v -> status.distributionVersion = v);
      set(looked.upgradeCompleted());
    }
  }
}
