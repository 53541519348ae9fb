package io.openshiftagent.api.external.assisted;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.fabric8.kubernetes.api.model.LocalObjectReference;
import io.openshiftagent.api.external.UnknownFields;
import io.openshiftagent.api.external.hive.ClusterMetadata;
import java.util.List;

/** The AgentClusterInstall spec: release, networking, expected hosts and cluster-wide settings. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class AgentClusterInstallSpec extends UnknownFields {
  /** The ClusterDeployment this install belongs to. */
  public LocalObjectReference clusterDeploymentRef;

  /** The ClusterImageSet with the release image. */
  public LocalObjectReference imageSetRef;

  public Networking networking;

  public ProvisionRequirements provisionRequirements;

  public List<String> apiVIPs;

  public List<String> ingressVIPs;

  /** BareMetal, None, VSphere, Nutanix or External. */
  public String platformType;

  public String sshPublicKey;

  public Proxy proxy;

  public DiskEncryption diskEncryption;

  /** Who runs the load balancer of the VIPs (unset: ClusterManaged). */
  public LoadBalancer loadBalancer;

  public Boolean mastersSchedulable;

  /** ConfigMaps with extra manifests for the installed cluster. */
  public List<LocalObjectReference> manifestsConfigMapRefs;

  /**
   * Set by assisted-service once the cluster is installed: IDs and the admin credentials Secrets.
   */
  public ClusterMetadata clusterMetadata;

  /** The cluster's networks. */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public static class Networking extends UnknownFields {
    public List<ClusterNetworkEntry> clusterNetwork;
    public List<String> serviceNetwork;
    public List<MachineNetworkEntry> machineNetwork;

    /** OVNKubernetes, OpenShiftSDN, CiscoACI, Cilium, Calico or None. */
    public String networkType;

    public Boolean userManagedNetworking;
  }

  /** A pod network block and the prefix of each node's slice of it. */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public static class ClusterNetworkEntry extends UnknownFields {
    public String cidr;
    public Integer hostPrefix;

    public ClusterNetworkEntry() {}

    public ClusterNetworkEntry(String cidr, Integer hostPrefix) {
      this.cidr = cidr;
      this.hostPrefix = hostPrefix;
    }
  }

  /** A network the hosts are on. */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public static class MachineNetworkEntry extends UnknownFields {
    public String cidr;

    public MachineNetworkEntry() {}

    public MachineNetworkEntry(String cidr) {
      this.cidr = cidr;
    }
  }

  /** How many approved and ready Agents the installation waits for. */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public static class ProvisionRequirements extends UnknownFields {
    /** 1 or 3 to 5. */
    public Integer controlPlaneAgents;

    public Integer workerAgents;
  }

  /** Disk encryption of the installed nodes. */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public static class DiskEncryption extends UnknownFields {
    /** none, all, masters, workers, or a comma-separated combination with arbiters. */
    public String enableOn;

    /** tpmv2 or tang. */
    public String mode;

    /** JSON array of Tang servers, for the tang mode. */
    public String tangServers;
  }

  /** The load balancer of the API and ingress VIPs. */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public static class LoadBalancer extends UnknownFields {
    /** ClusterManaged or UserManaged. */
    public String type;

    public LoadBalancer() {}

    public LoadBalancer(String type) {
      this.type = type;
    }
  }
}
