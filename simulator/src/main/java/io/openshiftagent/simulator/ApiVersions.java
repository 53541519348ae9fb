package io.openshiftagent.simulator;

import io.openshiftagent.api.bootstrap.v1alpha2.BootstrapGroup;
import io.openshiftagent.api.controlplane.v1alpha3.ControlPlaneGroup;
import io.openshiftagent.api.external.ExternalKinds;

/** The apiVersion of every kind the world reads and writes, for the actors and the tests. */
public final class ApiVersions {
  private ApiVersions() {}

  public static final String CAPI = ExternalKinds.CAPI_GROUP + "/" + ExternalKinds.CAPI_VERSION;

  /** Metal3Cluster, Metal3Machine and their templates (CAPM3). */
  public static final String METAL3_INFRASTRUCTURE =
      ExternalKinds.INFRASTRUCTURE_GROUP + "/" + ExternalKinds.METAL3_INFRASTRUCTURE_VERSION;

  /** BareMetalHost (the baremetal-operator). */
  public static final String METAL3 =
      ExternalKinds.METAL3_GROUP + "/" + ExternalKinds.METAL3_VERSION;

  /** InfraEnv, Agent. */
  public static final String AGENT_INSTALL =
      ExternalKinds.AGENT_INSTALL_GROUP + "/" + ExternalKinds.AGENT_INSTALL_VERSION;

  /** AgentClusterInstall. */
  public static final String HIVE_EXTENSION =
      ExternalKinds.HIVE_EXTENSION_GROUP + "/" + ExternalKinds.HIVE_EXTENSION_VERSION;

  /** ClusterDeployment, ClusterImageSet. */
  public static final String HIVE = ExternalKinds.HIVE_GROUP + "/" + ExternalKinds.HIVE_VERSION;

  public static final String BOOTSTRAP = BootstrapGroup.API_VERSION;
  public static final String CONTROL_PLANE = ControlPlaneGroup.API_VERSION;

  /** OpenShift's ClusterVersion, in the installed cluster. */
  public static final String CLUSTER_VERSION = "config.openshift.io/v1";

  /** OpenShift's MachineConfigPool, in the installed cluster. */
  public static final String MACHINE_CONFIGURATION = "machineconfiguration.openshift.io/v1";
}
