package io.openshiftagent.controlplane.cluster;

import io.fabric8.kubernetes.api.model.LocalObjectReference;
import io.openshiftagent.api.controlplane.v1alpha3.ClusterConfig;
import io.openshiftagent.api.controlplane.v1alpha3.OpenshiftAssistedControlPlane;
import io.openshiftagent.api.external.assisted.AgentClusterInstallSpec;
import io.openshiftagent.api.external.assisted.AgentClusterInstallSpec.ClusterNetworkEntry;
import io.openshiftagent.api.external.assisted.AgentClusterInstallSpec.MachineNetworkEntry;
import io.openshiftagent.api.external.assisted.Proxy;
import io.openshiftagent.api.external.capi.Cluster;
import io.openshiftagent.api.external.capi.ClusterSpec;
import io.openshiftagent.controlplane.names.Names;
import java.util.ArrayList;
import java.util.List;

/** The AgentClusterInstall spec a control plane asks for: a pure function of what it is given. */
public final class DesiredClusterInstall {
  static final int DEFAULT_HOST_PREFIX = 23;
  static final int DEFAULT_IPV6_HOST_PREFIX = 64;
  static final String DEFAULT_NETWORK_TYPE = "OVNKubernetes";

  private DesiredClusterInstall() {}

  /** Whether the control plane selects platform BareMetal (both VIP lists given). */
  public static boolean isBareMetal(ClusterConfig config) {
    return config.apiVIPs != null
        && !config.apiVIPs.isEmpty()
        && config.ingressVIPs != null
        && !config.ingressVIPs.isEmpty();
  }

  /**
   * @param workerAgents the workers the installation waits for (MachineDeployment and MachinePool
   *     replicas)
   * @param imageSetName the ClusterImageSet of the release
   * @param registryConfigMap the mirror-registry manifests ConfigMap, or null
   */
  public static AgentClusterInstallSpec spec(
      OpenshiftAssistedControlPlane cp,
      Cluster cluster,
      int workerAgents,
      String imageSetName,
      String registryConfigMap) {
    ClusterConfig config = cp.getSpec().config;
    AgentClusterInstallSpec spec = new AgentClusterInstallSpec();
    spec.clusterDeploymentRef = new LocalObjectReference(Names.clusterDeployment(cp));
    spec.imageSetRef = new LocalObjectReference(imageSetName);
    spec.provisionRequirements = new AgentClusterInstallSpec.ProvisionRequirements();
    spec.provisionRequirements.controlPlaneAgents = cp.getSpec().desiredReplicas();
    spec.provisionRequirements.workerAgents = workerAgents;
    spec.networking = networking(config, cluster.getSpec().clusterNetwork);
    if (isBareMetal(config)) {
      spec.platformType = "BareMetal";
      spec.apiVIPs = List.copyOf(config.apiVIPs);
      spec.ingressVIPs = List.copyOf(config.ingressVIPs);
    } else {
      spec.platformType = "None";
    }
    spec.sshPublicKey = config.sshAuthorizedKey;
    if (config.proxy != null) {
      spec.proxy = new Proxy();
      spec.proxy.httpProxy = config.proxy.httpProxy;
      spec.proxy.httpsProxy = config.proxy.httpsProxy;
      spec.proxy.noProxy = config.proxy.noProxy;
    }
    if (config.diskEncryption != null) {
      spec.diskEncryption = new AgentClusterInstallSpec.DiskEncryption();
      spec.diskEncryption.enableOn = config.diskEncryption.enableOn;
      spec.diskEncryption.mode = config.diskEncryption.mode;
      spec.diskEncryption.tangServers = config.diskEncryption.tangServers;
    }
    if (config.loadBalancer != null) {
      spec.loadBalancer = new AgentClusterInstallSpec.LoadBalancer(config.loadBalancer.type);
    }
    spec.mastersSchedulable = config.mastersSchedulable;
    List<LocalObjectReference> manifests = new ArrayList<>();
    if (config.manifestsConfigMapRefs != null) {
      config.manifestsConfigMapRefs.forEach(r -> manifests.add(new LocalObjectReference(r.name)));
    }
    if (registryConfigMap != null) {
      manifests.add(new LocalObjectReference(registryConfigMap));
    }
    spec.manifestsConfigMapRefs = manifests.isEmpty() ? null : manifests;
    return spec;
  }

  static AgentClusterInstallSpec.Networking networking(
      ClusterConfig config, ClusterSpec.ClusterNetwork clusterNetwork) {
    AgentClusterInstallSpec.Networking networking = new AgentClusterInstallSpec.Networking();
    int hostPrefix =
        config.clusterNetworkHostPrefix == null
            ? DEFAULT_HOST_PREFIX
            : config.clusterNetworkHostPrefix;
    int ipv6HostPrefix =
        config.ipv6ClusterNetworkHostPrefix == null
            ? DEFAULT_IPV6_HOST_PREFIX
            : config.ipv6ClusterNetworkHostPrefix;
    List<String> pods = cidrs(clusterNetwork == null ? null : clusterNetwork.pods);
    if (!pods.isEmpty()) {
      networking.clusterNetwork =
          pods.stream()
              .map(c -> new ClusterNetworkEntry(c, c.contains(":") ? ipv6HostPrefix : hostPrefix))
              .toList();
    }
    List<String> services = cidrs(clusterNetwork == null ? null : clusterNetwork.services);
    networking.serviceNetwork = services.isEmpty() ? null : services;
    if (config.machineNetworks != null && !config.machineNetworks.isEmpty()) {
      networking.machineNetwork =
          config.machineNetworks.stream().map(MachineNetworkEntry::new).toList();
    }
    networking.networkType = config.networkType == null ? DEFAULT_NETWORK_TYPE : config.networkType;
    return networking;
  }

  private static List<String> cidrs(ClusterSpec.NetworkRanges ranges) {
    return ranges == null || ranges.cidrBlocks == null ? List.of() : List.copyOf(ranges.cidrBlocks);
  }
}
