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
 * single node (user-managed networking) gets no records: assisted-service configures its DNS on the
 * node itself, as in a lab.
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
  }

  /** The segment of a namespace's hosts. */
  NetworkSegment segment(String namespace) {
    return segments.computeIfAbsent(namespace, ns -> new NetworkSegment(CIDR));
  }

  private void recordClusterNames(GenericKubernetesResource install) {
    List<String> apiVips = vips(install, "apiVIPs", "apiVIP");
    List<String> ingressVips = vips(install, "ingressVIPs", "ingressVIP");
    String deployment = Fields.string(install, "spec", "clusterDeploymentRef", "name");
    GenericKubernetesResource cd =
        deployment == null
            ? null
            : cached(ApiVersions.HIVE, "ClusterDeployment", namespace(install), deployment);
    if (apiVips.isEmpty() || ingressVips.isEmpty() || cd == null) {
      return;
    }
    String domain =
        Fields.string(cd, "spec", "clusterName") + "." + Fields.string(cd, "spec", "baseDomain");
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
