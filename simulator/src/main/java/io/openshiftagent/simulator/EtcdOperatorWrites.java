package io.openshiftagent.simulator;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What OpenShift's etcd operator writes in an installed cluster about its etcd members ({@link
 * EtcdOperator}): each member's peer, serving and metrics Secrets in {@code openshift-etcd}, the
 * member conditions of {@code etcds.operator.openshift.io/cluster} and the {@code etcd}
 * ClusterOperator.
 */
final class EtcdOperatorWrites {
  private static final String ETCD_API = "operator.openshift.io/v1";

  private static final Logger LOG = LoggerFactory.getLogger(EtcdOperatorWrites.class);

  private EtcdOperatorWrites() {}

  /** The Secrets the etcd operator makes for a member's Node. */
  static List<String> secretsOf(String node) {
    return List.of("etcd-peer-" + node, "etcd-serving-" + node, "etcd-serving-metrics-" + node);
  }

  /** The operator's namespace, {@code openshift-etcd}. */
  static void createNamespace(KubernetesClient workload) {
    if (workload.namespaces().withName(EtcdOperator.NAMESPACE).get() == null) {
      workload
          .namespaces()
          .resource(
              new NamespaceBuilder()
                  .withNewMetadata()
                  .withName(EtcdOperator.NAMESPACE)
                  .endMetadata()
                  .build())
          .create();
    }
  }

  /** A member's Secrets, made before it joins. */
  static void createSecrets(KubernetesClient workload, String node) {
    for (String secret : secretsOf(node)) {
      if (workload.secrets().inNamespace(EtcdOperator.NAMESPACE).withName(secret).get() == null) {
        workload
            .secrets()
            .inNamespace(EtcdOperator.NAMESPACE)
            .resource(
                new SecretBuilder()
                    .withMetadata(
                        new ObjectMetaBuilder()
                            .withName(secret)
                            .withNamespace(EtcdOperator.NAMESPACE)
                            .build())
                    .withType("kubernetes.io/tls")
                    .addToStringData("tls.crt", "simulated")
                    .addToStringData("tls.key", "simulated")
                    .build())
            .create();
      }
    }
  }

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

  /**
   * Writes the operator's member conditions and its ClusterOperator when their message changes from
   * {@code reported}; returns the message now reported.
   */
  static String report(
      KubernetesClient workload, String reported, int count, List<String> unhealthy) {
    String available = available(count, unhealthy);
    if (!available.equals(reported)) {
      write(workload, count, unhealthy);
      LOG.info("etcd reports: {}", available);
    }
    return available;
  }

  private static void write(KubernetesClient workload, int count, List<String> unhealthy) {
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
