package io.openshiftagent.simulator.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import java.util.List;
import java.util.Map;

/**
 * A dual-stack edit of {@code /e2e/ha.yaml}: pod and service networks of both families on the
 * Cluster, and on the control plane a machine network and an API and ingress VIP of each, IPv4
 * first as assisted-service wants them; and the service's record of them.
 */
final class DualStack {
  static final List<String> PODS = List.of("10.128.0.0/14", "fd01::/48");
  static final List<String> SERVICES = List.of("172.30.0.0/16", "fd02::/112");
  static final List<String> MACHINES = List.of("192.168.222.0/24", "fd2e:6f44:5dd8:c956::/64");
  static final List<String> API_VIPS = List.of("192.168.222.40", "fd2e:6f44:5dd8:c956::40");
  static final List<String> INGRESS_VIPS = List.of("192.168.222.41", "fd2e:6f44:5dd8:c956::41");

  private DualStack() {}

  @SuppressWarnings("unchecked")
  static void add(HasMetadata object) {
    if (!(object instanceof GenericKubernetesResource resource)) {
      return;
    }
    Map<String, Object> spec = (Map<String, Object>) resource.getAdditionalProperties().get("spec");
    if ("Cluster".equals(object.getKind())) {
      spec.put(
          "clusterNetwork",
          Map.of("pods", Map.of("cidrBlocks", PODS), "services", Map.of("cidrBlocks", SERVICES)));
    } else if ("OpenshiftAssistedControlPlane".equals(object.getKind())) {
      Map<String, Object> config = ServiceRecord.config(resource);
      config.put("machineNetworks", MACHINES);
      config.put("apiVIPs", API_VIPS);
      config.put("ingressVIPs", INGRESS_VIPS);
    }
  }

  /** The networks and VIPs as the service recorded them for the cluster. */
  static void assertRecorded(ServiceRecord service) {
    String id = service.clusterId();
    assertThat(networks(service, "cluster_networks", id))
        .containsExactly(PODS.get(0) + "|23", PODS.get(1) + "|64");
    assertThat(networks(service, "service_networks", id)).containsExactlyElementsOf(SERVICES);
    assertThat(networks(service, "machine_networks", id)).containsExactlyElementsOf(MACHINES);
    assertThat(service.query("SELECT ip FROM api_vips WHERE cluster_id = '" + id + "' ORDER BY ip"))
        .containsExactlyInAnyOrderElementsOf(API_VIPS);
    assertThat(
            service.query(
                "SELECT ip FROM ingress_vips WHERE cluster_id = '" + id + "' ORDER BY ip"))
        .containsExactlyInAnyOrderElementsOf(INGRESS_VIPS);
  }

  /** The CIDRs of one of the service's network tables, IPv4 first (host prefix when it has one). */
  private static List<String> networks(ServiceRecord service, String table, String id) {
    String columns = table.equals("cluster_networks") ? "cidr, host_prefix" : "cidr";
    return service.query(
        "SELECT "
            + columns
            + " FROM "
            + table
            + " WHERE cluster_id = '"
            + id
            + "' ORDER BY position(':' in cidr), cidr");
  }
}
