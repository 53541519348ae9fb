package io.openshiftagent.api.bootstrap.v1alpha2;

/** Constants of the bootstrap API group. */
public final class BootstrapGroup {
  public static final String GROUP = "bootstrap.cluster.x-k8s.io";
  public static final String VERSION = "v1alpha2";
  public static final String API_VERSION = GROUP + "/" + VERSION;

  /**
   * The CAPI contract label on our CRDs: CAPI core reads v1beta2 status fields from this version.
   */
  public static final String CONTRACT_LABEL = "cluster.x-k8s.io/v1beta2=" + VERSION;

  private BootstrapGroup() {}
}
