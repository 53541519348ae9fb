package io.openshiftagent.simulator;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.openshiftagent.simulator.assisted.NetworkSegment;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The lab the hosts are cabled to: one L2 segment per namespace of hosts ({@value #CIDR}, its
 * gateway at .1, addresses handed out by MAC), and the DNS records an administrator creates for a
 * cluster with virtual IPs before installing it: {@code api} and {@code api-int} at its API VIP,
 * {@code *.apps} at its ingress VIP, which also keeps those addresses out of the DHCP pool. A
 * single node has no VIPs: the administrator points the three names at the host chosen for it (here
 * once its Agent is bound to the cluster), as assisted-service's DNS validations ask.
 */
final class LabNetworks extends Actor {
  /** The machine network of the e2e and demo manifests (their VIPs are in it). */
  static final String CIDR = "192.168.222.0/24";

  private final Map<String, NetworkSegment> segments = new ConcurrentHashMap<>();

  LabNetworks(KubernetesClient client) {
    super(client);
  }

  @Override
  void start() {
    watch(ApiVersions.HIVE_EXTENSION, "AgentClusterInstall", this::recordClusterNames);
    watch(ApiVersions.AGENT_INSTALL, "Agent", this::recordSingleNodeNames);
  }

  private void recordSingleNodeNames(GenericKubernetesResource agent) {
    GenericKubernetesResource install = InstalledCluster.clusterInstallOf(this, agent);
    if (install == null
        || !vips(install, "apiVIPs", "apiVIP").isEmpty()
        || !"1"
            .equals(
                String.valueOf(
                    Fields.get(install, "spec", "provisionRequirements", "controlPlaneAgents")))) {
      return;
    }
    String ip = firstAddress(agent);
    String domain = domain(install);
    if (ip == null || domain == null) {
      return;
    }
    NetworkSegment segment = segment(namespace(agent));
    segment.record("api." + domain, ip);
    segment.record("api-int." + domain, ip);
    segment.record("*.apps." + domain, ip);
  }

  /** The first IPv4 address (without prefix) the Agent's inventory reports. */
  private static String firstAddress(GenericKubernetesResource agent) {
    if (Fields.get(agent, "status", "inventory", "interfaces") instanceof List<?> interfaces) {
      for (Object nic : interfaces) {
        if (nic instanceof Map<?, ?> m
            && m.get("ipV4Addresses") instanceof List<?> addresses
            && !addresses.isEmpty()) {
          return NetworkSegment.stripPrefix(String.valueOf(addresses.get(0)));
        }
      }
    }
    return null;
  }

  /** {@code <clusterName>.<baseDomain>} of the installation's ClusterDeployment, or null. */
  private String domain(GenericKubernetesResource install) {
    String deployment = Fields.string(install, "spec", "clusterDeploymentRef", "name");
    GenericKubernetesResource cd =
        deployment == null
            ? null
            : cached(ApiVersions.HIVE, "ClusterDeployment", namespace(install), deployment);
    return cd == null
        ? null
        : Fields.string(cd, "spec", "clusterName") + "." + Fields.string(cd, "spec", "baseDomain");
  }

  /** The segment of a namespace's hosts. */
  NetworkSegment segment(String namespace) {
    return segments.computeIfAbsent(namespace, ns -> new NetworkSegment(CIDR));
  }

  private void recordClusterNames(GenericKubernetesResource install) {
    List<String> apiVips = vips(install, "apiVIPs", "apiVIP");
    List<String> ingressVips = vips(install, "ingressVIPs", "ingressVIP");
    String domain = domain(install);
    if (apiVips.isEmpty() || ingressVips.isEmpty() || domain == null) {
      return;
    }
    NetworkSegment segment = segment(namespace(install));
    String[] api = apiVips.toArray(String[]::new);
    segment.record("api." + domain, api);
    segment.record("api-int." + domain, api);
    segment.record("*.apps." + domain, ingressVips.toArray(String[]::new));
  }

  /** The VIPs of the list field ({@code [{ip: ...}]} or strings), else of the single field. */
  private static List<String> vips(GenericKubernetesResource install, String list, String one) {
    Object values = Fields.get(install, "spec", list);
    if (values instanceof List<?> entries && !entries.isEmpty()) {
      return entries.stream()
          .map(e -> e instanceof Map<?, ?> m ? String.valueOf(m.get("ip")) : String.valueOf(e))
          .toList();
    }
    String single = Fields.string(install, "spec", one);
    return single == null || single.isBlank() ? List.of() : List.of(single);
  }
}
