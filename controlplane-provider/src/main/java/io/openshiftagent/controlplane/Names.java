package io.openshiftagent.controlplane;

import io.openshiftagent.api.controlplane.v1alpha3.OpenshiftAssistedControlPlane;
import io.openshiftagent.api.external.assisted.AgentClusterInstall;
import io.openshiftagent.provider.contract.GoProvider;
import io.openshiftagent.provider.contract.ObjectNames;
import io.openshiftagent.provider.contract.SharedNames;
import java.util.Optional;

/** The names of what the control-plane provider creates; all derived, so a restart finds them. */
public final class Names {
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

  /** The control-plane-name label value: the name, hashed when it is too long for a label. */
  public static String controlPlaneLabelValue(OpenshiftAssistedControlPlane cp) {
    return ObjectNames.fit(cp.getMetadata().getName(), ObjectNames.MAX_LABEL_VALUE);
  }
}
