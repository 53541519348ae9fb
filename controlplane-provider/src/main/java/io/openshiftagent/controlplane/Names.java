package io.openshiftagent.controlplane;

import io.openshiftagent.api.controlplane.v1alpha3.OpenshiftAssistedControlPlane;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/** The names of what the control-plane provider creates; all derived, so a restart finds them. */
public final class Names {
  private static final int MAX_NAME = 253;
  private static final int MAX_LABEL_VALUE = 63;

  private Names() {}

  /**
   * The ClusterDeployment and AgentClusterInstall: the control plane's own name (the bootstrap
   * provider relies on it).
   */
  public static String clusterDeployment(OpenshiftAssistedControlPlane cp) {
    return cp.getMetadata().getName();
  }

  /**
   * The cluster-scoped ClusterImageSet: {@code <namespace>.<name>}. Namespaces hold no dots, so two
   * control planes never share one.
   */
  public static String clusterImageSet(OpenshiftAssistedControlPlane cp) {
    return fit(cp.getMetadata().getNamespace() + "." + cp.getMetadata().getName(), MAX_NAME);
  }

  /** The ConfigMap with the mirror-registry manifests. */
  public static String registryConfigMap(OpenshiftAssistedControlPlane cp) {
    return fit(cp.getMetadata().getName() + "-registry-config", MAX_NAME);
  }

  /** The placeholder pull secret used when spec.config.pullSecretRef is unset (OKD). */
  public static String placeholderPullSecret(OpenshiftAssistedControlPlane cp) {
    return fit(cp.getMetadata().getName() + "-placeholder-pull-secret", MAX_NAME);
  }

  /** Cluster API's kubeconfig Secret of a cluster. */
  public static String kubeconfigSecret(String clusterName) {
    return clusterName + "-kubeconfig";
  }

  /** The control-plane-name label value: the name, hashed when it is too long for a label. */
  public static String controlPlaneLabelValue(OpenshiftAssistedControlPlane cp) {
    return fit(cp.getMetadata().getName(), MAX_LABEL_VALUE);
  }

  /** {@code value}, or a prefix of it and a hash of all of it when longer than {@code max}. */
  static String fit(String value, int max) {
    if (value.length() <= max) {
      return value;
    }
    String hash = sha256(value).substring(0, 10);
    return value.substring(0, max - hash.length() - 1).replaceAll("[-.]+$", "") + "-" + hash;
  }

  static String sha256(String value) {
    try {
      return HexFormat.of()
          .formatHex(
              MessageDigest.getInstance("SHA-256").digest(value.getBytes(StandardCharsets.UTF_8)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}
