package io.openshiftagent.simulator;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * What OpenShift's etcd operator reports about the members of an installed cluster's etcd: the
 * member conditions of {@code etcds.operator.openshift.io/cluster} and the {@code etcd}
 * ClusterOperator ({@link EtcdOperator}).
 */
final class EtcdOperatorReport {
  private static final String ETCD_API = "operator.openshift.io/v1";

  private EtcdOperatorReport() {}

  /** The message of EtcdMembersAvailable: how many members are, and which are not. */
  static String available(int count, List<String> unhealthy) {
    int healthy = count - unhealthy.size();
    return unhealthy.isEmpty()
        ? count + " members are available"
        : healthy
            + " of "
            + count
            + " members are available"
            + unhealthy.stream().map(m -> ", " + m + " is unhealthy").collect(Collectors.joining());
  }

  /** Writes the operator's member conditions and its ClusterOperator. */
  static void write(KubernetesClient workload, int count, List<String> unhealthy) {
    int healthy = count - unhealthy.size();
    boolean quorate = healthy >= count / 2 + 1;
    String available = available(count, unhealthy);
    List<Map<String, Object>> conditions = new ArrayList<>();
    conditions.add(
        Fields.condition(
            "EtcdMembersAvailable", quorate, quorate ? "EtcdQuorate" : "NoQuorum", available));
    conditions.add(
        Fields.condition(
            "EtcdMembersDegraded",
            !unhealthy.isEmpty(),
            unhealthy.isEmpty() ? "AsExpected" : "UnhealthyMembers",
            unhealthy.isEmpty() ? "No unhealthy members found" : available));
    conditions.add(
        Fields.condition(
            "EtcdMembersProgressing", false, "AsExpected", "No unstarted etcd members found"));
    conditions.add(
        Fields.condition(
            "NodeInstallerProgressing",
            false,
            "AllNodesAtLatestRevision",
            "all nodes are at revision 3"));
    writeStatus(
        workload, ETCD_API, "Etcd", "cluster", Map.of("managementState", "Managed"), conditions);
    writeStatus(
        workload,
        ApiVersions.CLUSTER_VERSION,
        "ClusterOperator",
        "etcd",
        Map.of(),
        List.of(
            Fields.condition(
                "Available",
                quorate,
                quorate ? "AsExpected" : "EtcdMembersNotAvailable",
                "StaticPodsAvailable: " + healthy + " nodes are active"),
            Fields.condition(
                "Degraded",
                !unhealthy.isEmpty(),
                unhealthy.isEmpty() ? "AsExpected" : "EtcdMembers_UnhealthyMembers",
                unhealthy.isEmpty() ? "" : "EtcdMembersDegraded: " + available),
            Fields.condition("Progressing", false, "AsExpected", "")));
  }

  private static void writeStatus(
      KubernetesClient workload,
      String apiVersion,
      String kind,
      String name,
      Map<String, Object> spec,
      List<Map<String, Object>> conditions) {
    var objects = workload.genericKubernetesResources(apiVersion, kind);
    if (objects.withName(name).get() == null) {
      GenericKubernetesResource object = new GenericKubernetesResource();
      object.setApiVersion(apiVersion);
      object.setKind(kind);
      object.setMetadata(new ObjectMetaBuilder().withName(name).build());
      object.setAdditionalProperty("spec", spec);
      workload.resource(object).create();
    }
    objects
        .withName(name)
        .subresource("status")
        .patch(
            PatchContext.of(PatchType.JSON_MERGE),
            Serialization.asJson(Map.of("status", Map.of("conditions", conditions))));
  }
}
