package io.openshiftagent.api.controlplane.v1alpha3;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.crdv2.generator.v1.SchemaCustomizer;
import io.fabric8.generator.annotation.Max;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;
import io.fabric8.generator.annotation.ValidationRule;
import io.openshiftagent.api.common.ItemsMaxLength;
import io.openshiftagent.api.common.LocalObjectReference;
import java.util.List;

/**
 * Cluster-wide OpenShift settings: what goes into the ClusterDeployment and AgentClusterInstall.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
@ValidationRule(
    value =
        "(has(self.apiVIPs) && size(self.apiVIPs) > 0) == (has(self.ingressVIPs) && size(self.ingressVIPs) > 0)",
    message =
        "spec.config.apiVIPs and spec.config.ingressVIPs must be given together (platform BareMetal) or not"
            + " at all (platform None)")
@ValidationRule(
    value =
        "!has(self.loadBalancer) || self.loadBalancer.type != 'UserManaged'"
            + " || (has(self.apiVIPs) && size(self.apiVIPs) > 0)",
    message =
        "spec.config.loadBalancer.type UserManaged needs spec.config.apiVIPs and spec.config.ingressVIPs:"
            + " the addresses at which the user's load balancer answers (platform BareMetal)")
@SchemaCustomizer(
    value = ItemsMaxLength.class,
    input = "apiVIPs=45,ingressVIPs=45,machineNetworks=49")
public class ClusterConfig {
  static final String ONE_PER_FAMILY =
      "size(self) < 2 || ip(self[0]).family() != ip(self[1]).family()";

  @JsonPropertyDescription(
      "Virtual IPs of the API: one, or one IPv4 and one IPv6. With ingressVIPs, selects platform BareMetal.")
  @JsonProperty("apiVIPs")
  @Size(max = 2)
  @ValidationRule(
      value = "self.all(v, isIP(v))",
      message = "spec.config.apiVIPs entries must be IP addresses")
  @ValidationRule(
      value = ONE_PER_FAMILY,
      message = "spec.config.apiVIPs may hold at most one IPv4 and one IPv6 address")
  public List<String> apiVIPs;

  @JsonPropertyDescription("Virtual IPs of the ingress: one, or one IPv4 and one IPv6.")
  @JsonProperty("ingressVIPs")
  @Size(max = 2)
  @ValidationRule(
      value = "self.all(v, isIP(v))",
      message = "spec.config.ingressVIPs entries must be IP addresses")
  @ValidationRule(
      value = ONE_PER_FAMILY,
      message = "spec.config.ingressVIPs may hold at most one IPv4 and one IPv6 address")
  public List<String> ingressVIPs;

  @JsonPropertyDescription("ConfigMaps whose data are extra manifests installed with the cluster.")
  @Size(max = 64)
  public List<LocalObjectReference> manifestsConfigMapRefs;

  @JsonPropertyDescription("Disk encryption of the installed nodes.")
  public DiskEncryption diskEncryption;

  @JsonPropertyDescription(
      "Who runs the load balancer of the API and ingress VIPs; unset: the cluster (ClusterManaged).")
  public LoadBalancer loadBalancer;

  @JsonPropertyDescription("Cluster-wide proxy of the installed cluster.")
  public ClusterProxy proxy;

  @JsonPropertyDescription("Whether control-plane nodes also run workloads.")
  public Boolean mastersSchedulable;

  @JsonPropertyDescription("SSH public key of the installed nodes (user core).")
  @Size(max = 8192)
  public String sshAuthorizedKey;

  @JsonPropertyDescription("OpenShift cluster name; defaults to the Cluster API Cluster's name.")
  @Size(min = 1, max = 54)
  @ValidationRule(
      value = "self.matches('^[a-z0-9]([-a-z0-9]*[a-z0-9])?$')",
      message = "spec.config.clusterName must be a DNS label: lower-case letters, digits and '-'")
  public String clusterName;

  @JsonPropertyDescription("Base DNS domain; the API is api.<clusterName>.<baseDomain>.")
  @Required
  @Size(min = 1, max = 253)
  @ValidationRule(
      value =
          "self.matches('^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?(\\\\.[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?)*$')",
      message =
          "spec.config.baseDomain must be a DNS name: dot-separated labels of lower-case letters, digits and"
              + " '-' (for example example.com)")
  public String baseDomain;

  @JsonPropertyDescription(
      "Secret (key .dockerconfigjson) with the pull secret of the cluster. Optional for OKD.")
  public LocalObjectReference pullSecretRef;

  @JsonPropertyDescription(
      "ConfigMap with registries.conf (and optionally ca-bundle.crt) describing mirror registries.")
  public LocalObjectReference imageRegistryRef;

  @JsonPropertyDescription("OpenShift capabilities to enable.")
  public Capabilities capabilities;

  @JsonPropertyDescription("Cluster network plugin (default OVNKubernetes).")
  @ValidationRule(
      value = "self in ['OVNKubernetes', 'OpenShiftSDN', 'CiscoACI', 'Cilium', 'Calico', 'None']",
      message =
          "spec.config.networkType must be one of OVNKubernetes, OpenShiftSDN, CiscoACI, Cilium, Calico, None")
  @Size(max = 32)
  public String networkType;

  @JsonPropertyDescription(
      "Prefix length of each node's slice of the IPv4 pod networks (default 23). IPv6 pod networks use"
          + " ipv6HostPrefix.")
  @Min(8)
  @Max(30)
  public Integer clusterNetworkHostPrefix;

  @JsonPropertyDescription(
      "Prefix length of each node's slice of the IPv6 pod networks (default 64).")
  @Min(48)
  @Max(126)
  public Integer ipv6ClusterNetworkHostPrefix;

  @JsonPropertyDescription(
      "CIDRs of the networks the nodes' addresses are in. Required by OpenShift for platform BareMetal"
          + " unless given in the install-config override.")
  @Size(max = 8)
  @ValidationRule(
      value = "self.all(c, isCIDR(c))",
      message = "spec.config.machineNetworks entries must be CIDRs such as 192.168.111.0/24")
  public List<String> machineNetworks;

  /** The cluster name OpenShift gets: the override, or the Cluster API cluster's name. */
  public String effectiveClusterName(String capiClusterName) {
    return clusterName == null || clusterName.isEmpty() ? capiClusterName : clusterName;
  }
}
