package io.openshiftagent.api.controlplane.v1alpha3;

/** Constants of the control-plane API group. */
public final class ControlPlaneGroup {
  public static final String GROUP = "controlplane.cluster.x-k8s.io";
  public static final String VERSION = "v1alpha3";
  public static final String API_VERSION = GROUP + "/" + VERSION;

  /**
   * The CAPI contract label on our CRDs: CAPI core reads v1beta2 status fields from this version.
   */
  public static final String CONTRACT_LABEL = "cluster.x-k8s.io/v1beta2=" + VERSION;

  private ControlPlaneGroup() {}
}
