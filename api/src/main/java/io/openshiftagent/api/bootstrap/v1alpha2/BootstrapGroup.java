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

  /**
   * The bootstrap provider's finalizer on a config (java-operator-sdk's default name for the kind,
   * kept so that configs made by earlier versions keep theirs). The control-plane provider sets it
   * on the configs it creates: one write fewer per control-plane Machine, and the bootstrap
   * provider starts on a config as soon as Cluster API links it to its Machine.
   */
  public static final String CONFIG_FINALIZER = "openshiftassistedconfigs." + GROUP + "/finalizer";

  private BootstrapGroup() {}
}
