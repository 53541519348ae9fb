package io.openshiftagent.bootstrap.config;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.LocalObjectReference;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.openshiftagent.api.bootstrap.v1alpha2.BootMode;
import io.openshiftagent.api.bootstrap.v1alpha2.OpenshiftAssistedConfig;
import io.openshiftagent.api.bootstrap.v1alpha2.OpenshiftAssistedConfigSpec;
import io.openshiftagent.api.external.ExternalKinds;
import io.openshiftagent.api.external.assisted.ClusterReference;
import io.openshiftagent.api.external.assisted.InfraEnv;
import io.openshiftagent.api.external.assisted.InfraEnvSpec;
import io.openshiftagent.api.external.assisted.Proxy;
import io.openshiftagent.bootstrap.names.Names;
import io.openshiftagent.provider.reconcile.Metadata;
import io.openshiftagent.provider.reconcile.OwnerReferences;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The InfraEnv of one Machine: the config's discovery settings, bound to the cluster's
 * ClusterDeployment, owned by the config (controller) and by the Machine and the Cluster.
 */
public final class DesiredInfraEnv {
  /** The full ISO carries the static network configuration and needs no rootfs download. */
  static final String IMAGE_TYPE = "full-iso";

  private DesiredInfraEnv() {}

  /**
   * @param clusterName the Cluster API cluster name
   * @param clusterDeploymentName the ClusterDeployment in the config's namespace
   * @param pullSecretName the user's pull secret, or our placeholder
   * @param discoveryIgnitionOverride validated JSON, or null
   * @param bootMode how the host boots, recorded on the InfraEnv
   */
  public static InfraEnv build(
      OpenshiftAssistedConfig config,
      HasMetadata machine,
      HasMetadata cluster,
      String clusterName,
      String clusterDeploymentName,
      String pullSecretName,
      String discoveryIgnitionOverride,
      BootMode bootMode) {
    String namespace = config.getMetadata().getNamespace();
    Map<String, String> labels = labels(config, clusterName);
    InfraEnv infraEnv = new InfraEnv();
    infraEnv.setMetadata(
        new ObjectMetaBuilder()
            .withName(Names.infraEnv(config))
            .withNamespace(namespace)
            .withLabels(labels)
            .addToAnnotations(Names.BOOT_MODE_ANNOTATION, bootMode.wireName())
            .withOwnerReferences(
                OwnerReferences.controller(config),
                OwnerReferences.plain(machine),
                OwnerReferences.plain(cluster))
            .build());
    InfraEnvSpec spec = fromConfig(config.getSpec());
    spec.clusterRef = new ClusterReference(clusterDeploymentName, namespace);
    spec.pullSecretRef = new LocalObjectReference(pullSecretName);
    spec.ignitionConfigOverride = discoveryIgnitionOverride;
    spec.imageType = IMAGE_TYPE;
    // assisted-service copies these to every Agent it creates: how the Agent controller finds ours.
    spec.agentLabels = labels;
    infraEnv.setSpec(spec);
    return infraEnv;
  }

  /** The InfraEnv spec fields the config's spec sets, by their JSON names. */
  static final List<String> FROM_CONFIG =
      List.of(
          "proxy",
          "additionalNTPSources",
          "sshAuthorizedKey",
          "nmStateConfigLabelSelector",
          "cpuArchitecture",
          "additionalTrustBundle",
          "osImageVersion");

  /** An InfraEnv spec with only the fields {@link #FROM_CONFIG} set, as the config says them. */
  static InfraEnvSpec fromConfig(OpenshiftAssistedConfigSpec source) {
    InfraEnvSpec spec = new InfraEnvSpec();
    spec.proxy = proxy(source.proxy);
    spec.additionalNTPSources = emptyToNull(source.additionalNTPSources);
    spec.sshAuthorizedKey = source.sshAuthorizedKey;
    spec.nmStateConfigLabelSelector = source.nmStateConfigLabelSelector;
    spec.cpuArchitecture = source.cpuArchitecture;
    spec.additionalTrustBundle = source.additionalTrustBundle;
    spec.osImageVersion = source.osImageVersion;
    return spec;
  }

  /**
   * The labels of everything we create for a config; the config's Cluster API watch-filter label
   * too, so that a provider sharded by it ({@code --watch-filter}) sees what it made, and its
   * Agents (assisted-service copies the InfraEnv's agent labels to them).
   */
  public static Map<String, String> labels(OpenshiftAssistedConfig config, String clusterName) {
    Map<String, String> labels = new LinkedHashMap<>();
    labels.put(ExternalKinds.CLUSTER_NAME_LABEL, clusterName);
    labels.put(Names.CONFIG_LABEL, Names.labelValue(config.getMetadata().getName()));
    String shard = Metadata.label(config, ExternalKinds.WATCH_FILTER_LABEL);
    if (shard != null) {
      labels.put(ExternalKinds.WATCH_FILTER_LABEL, shard);
    }
    return Map.copyOf(labels);
  }

  private static Proxy proxy(io.openshiftagent.api.bootstrap.v1alpha2.Proxy source) {
    if (source == null) {
      return null;
    }
    Proxy proxy = new Proxy();
    proxy.httpProxy = source.httpProxy;
    proxy.httpsProxy = source.httpsProxy;
    proxy.noProxy = source.noProxy;
    return proxy;
  }

  private static <T> List<T> emptyToNull(List<T> list) {
    return list == null || list.isEmpty() ? null : List.copyOf(list);
  }
}
