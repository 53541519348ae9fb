package io.openshiftagent.controlplane;

import io.fabric8.kubernetes.api.model.Condition;
import io.javaoperatorsdk.operator.processing.event.source.filter.OnUpdateFilter;
import io.openshiftagent.api.bootstrap.v1alpha2.OpenshiftAssistedConfig;
import io.openshiftagent.api.common.Conditions;
import io.openshiftagent.api.controlplane.v1alpha3.OpenshiftAssistedControlPlane;
import io.openshiftagent.api.external.assisted.AgentClusterInstall;
import io.openshiftagent.api.external.capi.Cluster;
import io.openshiftagent.api.external.capi.Machine;
import io.openshiftagent.controlplane.cluster.ClusterObjects;
import io.openshiftagent.controlplane.cluster.InstallProgress;
import io.openshiftagent.controlplane.cluster.StalledInstallStart;
import io.openshiftagent.provider.reconcile.RelevantChange;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Which updates of the watched objects can change what the control-plane reconciler decides; the
 * others (Cluster API's and assisted-service's frequent status rewrites, our own status writes)
 * wake no reconcile.
 */
final class WatchedChanges {
  private WatchedChanges() {}

  /** Our primary: its status is ours alone, so only the rest counts. */
  public static final class ControlPlane implements OnUpdateFilter<OpenshiftAssistedControlPlane> {
    @Override
    public boolean accept(
        OpenshiftAssistedControlPlane updated, OpenshiftAssistedControlPlane old) {
      return RelevantChange.ofMetadata(updated, old);
    }
  }

  /** Infrastructure provisioned and failure domains; not the conditions. */
  static boolean cluster(Cluster updated, Cluster old) {
    return RelevantChange.ofMetadataOr(
        updated,
        old,
        c ->
            c.getStatus() == null
                ? null
                : new Object[] {c.getStatus().initialization, c.getStatus().failureDomains});
  }

  /**
   * Readiness and availability, which status and scaling report; health checks, which remediation
   * answers; the deletion progress, which our pre-terminate hook waits for; the Node and its
   * kubelet version, which etcd checks and status.versions read; whether its host is held back
   * (BootstrapConfigReady's reason), which Available names.
   */
  static boolean machine(Machine updated, Machine old) {
    return RelevantChange.ofMetadataOr(updated, old, WatchedChanges::lifecycle);
  }

  /**
   * The installer's state and its description, whether the service refused the spec, the failing
   * validations the user must fix (as the messages name them), and what a {@code ready} cluster
   * waits for: a stay the service may have missed starts without a change of state.
   */
  static boolean clusterInstall(AgentClusterInstall updated, AgentClusterInstall old) {
    return RelevantChange.ofMetadataOr(
        updated,
        old,
        a ->
            Arrays.asList(
                a.getStatus() == null ? null : a.getStatus().debugInfo,
                ClusterObjects.inputError(a).orElse(null),
                InstallProgress.failingValidations(a),
                StalledInstallStart.missedStartReason(a).orElse(null)));
  }

  /**
   * A config's metadata, and what its deletion waits for (its Deleting reason), which the control
   * plane's own Deleting message repeats while the config's Machine is deleted.
   */
  static boolean config(OpenshiftAssistedConfig updated, OpenshiftAssistedConfig old) {
    return RelevantChange.ofMetadataOr(
        updated,
        old,
        c ->
            c.getStatus() == null
                ? null
                : Conditions.find(c.getStatus().conditions, "Deleting")
                    .map(d -> d.getStatus() + "/" + d.getReason())
                    .orElse(null));
  }

  private static final List<String> WATCHED_CONDITIONS =
      List.of("Ready", "Available", "HealthCheckSucceeded", "OwnerRemediated");

  private static Map<String, String> lifecycle(Machine machine) {
    Map<String, String> watched = new TreeMap<>();
    if (machine.getStatus() == null) {
      return watched;
    }
    List<Condition> conditions = machine.getStatus().conditions;
    if (conditions != null) {
      for (Condition c : conditions) {
        if (WATCHED_CONDITIONS.contains(c.getType())) {
          watched.put(c.getType(), c.getStatus());
        } else if ("Deleting".equals(c.getType()) || "BootstrapConfigReady".equals(c.getType())) {
          watched.put(c.getType(), c.getStatus() + "/" + c.getReason());
        }
      }
    }
    if (machine.getStatus().nodeRef != null) {
      watched.put("nodeRef", machine.getStatus().nodeRef.name);
    }
    if (machine.getStatus().nodeInfo != null) {
      watched.put("kubeletVersion", machine.getStatus().nodeInfo.kubeletVersion);
    }
    return watched;
  }
}
