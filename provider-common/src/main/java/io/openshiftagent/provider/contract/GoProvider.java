package io.openshiftagent.provider.contract;

import java.util.Set;

/**
 * What the Go provider (cluster-api-provider-openshift-assisted) leaves on the objects of a cluster
 * it installed, which ours take over without reinstalling (docs/from-the-go-provider.md).
 */
public final class GoProvider {
  /** On each OpenshiftAssistedConfig: ours replaces it, or a deletion would wait forever. */
  public static final String CONFIG_FINALIZER =
      "openshiftassistedconfig.bootstrap.cluster.x-k8s.io/deprovision";

  /** On each OpenshiftAssistedControlPlane. */
  public static final String CONTROL_PLANE_FINALIZER =
      "openshiftassistedcontrolplane.controlplane.cluster.x-k8s.io/deprovision";

  /**
   * Condition types only the Go provider writes on a control plane: nothing updates them once ours
   * took over, so they are removed rather than left to tell an old story.
   */
  public static final Set<String> CONTROL_PLANE_CONDITIONS =
      Set.of("KubernetesVersionAvailable", "MachinesCreated", "UpgradeAvailable", "Ready");

  /**
   * The placeholder pull secret of a cluster without one (OKD), one per namespace: its
   * ClusterDeployment keeps referencing it once installed.
   */
  public static final String PLACEHOLDER_PULL_SECRET = "placeholder-pull-secret";

  private GoProvider() {}

  /**
   * The Go provider's cluster-scoped ClusterImageSet of a control plane: named after it alone (two
   * control planes of one name in two namespaces shared it).
   */
  public static String clusterImageSet(String controlPlaneName) {
    return controlPlaneName;
  }
}
