package io.openshiftagent.controlplane.names;

import io.openshiftagent.api.controlplane.v1alpha3.OpenshiftAssistedControlPlane;
import io.openshiftagent.api.external.ExternalKinds;
import io.openshiftagent.api.external.assisted.AgentClusterInstall;
import io.openshiftagent.provider.contract.GoProvider;
import io.openshiftagent.provider.contract.ObjectNames;
import io.openshiftagent.provider.contract.SharedNames;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The names of what the control-plane provider creates, all derived so that a restart finds them,
 * and the keys it reads from what users give it.
 */
public final class Names {
  /** The key of a mirror-registry ConfigMap (spec.config.imageRegistryRef) with the mirrors. */
  public static final String REGISTRIES_CONF_KEY = "registries.conf";

  /** The key of a mirror-registry ConfigMap with the CA bundle the mirrors are trusted with. */
  public static final String CA_BUNDLE_KEY = "ca-bundle.crt";

  /** The key of Cluster API's kubeconfig Secret that holds the kubeconfig. */
  public static final String KUBECONFIG_KEY = "value";

  /** The installed cluster's etcd operator configuration: {@code Etcd/cluster} of this API. */
  public static final String ETCD_API = "operator.openshift.io/v1";

  public static final String ETCD_KIND = "Etcd";
  public static final String ETCD_NAME = "cluster";

  private Names() {}

  /**
   * The ClusterDeployment and AgentClusterInstall: named after the control plane, which the
   * bootstrap provider relies on ({@link SharedNames}).
   */
  public static String clusterDeployment(OpenshiftAssistedControlPlane cp) {
    return SharedNames.clusterDeployment(cp.getMetadata().getName());
  }

  /**
   * The cluster-scoped ClusterImageSet: {@code <namespace>.<name>}. Namespaces hold no dots, so two
   * control planes never share one.
   */
  public static String clusterImageSet(OpenshiftAssistedControlPlane cp) {
    return ObjectNames.fit(
        cp.getMetadata().getNamespace() + "." + cp.getMetadata().getName(), ObjectNames.MAX_NAME);
  }

  /**
   * The ClusterImageSet a control plane uses: ours, unless its AgentClusterInstall names the Go
   * provider's (a cluster the Go provider installed), which is then taken over rather than made
   * again under another name.
   */
  public static String clusterImageSet(
      OpenshiftAssistedControlPlane cp, Optional<AgentClusterInstall> install) {
    String goProviders = GoProvider.clusterImageSet(cp.getMetadata().getName());
    boolean namesGoProviders =
        install
            .map(a -> a.getSpec() == null ? null : a.getSpec().imageSetRef)
            .map(ref -> goProviders.equals(ref.getName()))
            .orElse(false);
    return namesGoProviders ? goProviders : clusterImageSet(cp);
  }

  /** The ConfigMap with the mirror-registry manifests. */
  public static String registryConfigMap(OpenshiftAssistedControlPlane cp) {
    return ObjectNames.fit(cp.getMetadata().getName() + "-registry-config", ObjectNames.MAX_NAME);
  }

  /** The placeholder pull secret used when spec.config.pullSecretRef is unset (OKD). */
  public static String placeholderPullSecret(OpenshiftAssistedControlPlane cp) {
    return SharedNames.placeholderPullSecret(cp.getMetadata().getName());
  }

  /** Cluster API's kubeconfig Secret of a cluster. */
  public static String kubeconfigSecret(String clusterName) {
    return SharedNames.kubeconfigSecret(clusterName);
  }

  /** The Cluster API control-plane labels, on every Machine, config and clone we create. */
  public static Map<String, String> controlPlaneLabels(
      OpenshiftAssistedControlPlane cp, String clusterName) {
    Map<String, String> labels = ownLabels(cp, clusterName);
    labels.put(ExternalKinds.CONTROL_PLANE_LABEL, "");
    labels.put(ExternalKinds.CONTROL_PLANE_NAME_LABEL, controlPlaneLabelValue(cp));
    return labels;
  }

  /**
   * The labels of everything this provider makes for the control plane: the cluster's name, and the
   * control plane's Cluster API watch-filter label, so that a replica sharded by it ({@code
   * --watch-filter}) sees what it made.
   */
  public static Map<String, String> ownLabels(
      OpenshiftAssistedControlPlane cp, String clusterName) {
    Map<String, String> labels = new LinkedHashMap<>();
    labels.put(ExternalKinds.CLUSTER_NAME_LABEL, clusterName);
    String shard =
        cp.getMetadata().getLabels() == null
            ? null
            : cp.getMetadata().getLabels().get(ExternalKinds.WATCH_FILTER_LABEL);
    if (shard != null) {
      labels.put(ExternalKinds.WATCH_FILTER_LABEL, shard);
    }
    return labels;
  }

  /** The label selector of the control-plane Machines, for status.selector. */
  public static String selector(OpenshiftAssistedControlPlane cp, String clusterName) {
    return ExternalKinds.CLUSTER_NAME_LABEL
        + "="
        + clusterName
        + ","
        + ExternalKinds.CONTROL_PLANE_LABEL
        + ","
        + ExternalKinds.CONTROL_PLANE_NAME_LABEL
        + "="
        + controlPlaneLabelValue(cp);
  }

  /** The control-plane-name label value: the name, hashed when it is too long for a label. */
  public static String controlPlaneLabelValue(OpenshiftAssistedControlPlane cp) {
    return ObjectNames.fit(cp.getMetadata().getName(), ObjectNames.MAX_LABEL_VALUE);
  }
}
