package io.openshiftagent.api.common;

/** What clusterctl reads on our CRDs. */
public final class Clusterctl {
  /**
   * On each of our CRDs: {@code clusterctl move} moves every object of the kind, and everything it
   * owns (the Secrets the providers make), to the target hub, whether or not an owner chain links
   * it to a Cluster (a template a ClusterClass or a MachineDeployment names, for one). The objects
   * of assisted-service and Hive are not clusterctl's to move (their CRDs are not installed by it).
   * clusterctl reads the label's presence; the CRD generator needs a value.
   */
  public static final String MOVE_HIERARCHY_LABEL =
      "clusterctl.cluster.x-k8s.io/move-hierarchy=true";

  private Clusterctl() {}
}
