package io.openshiftagent.controlplane.etcd;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The reads of the installed cluster the etcd decisions need: the etcd operator's reports ({@link
 * EtcdReport}) and the names of the Nodes. Three requests to the installed cluster, none to the
 * hub.
 */
public final class EtcdReads {
  static final String ETCD_API = "operator.openshift.io/v1";
  static final String ETCD_KIND = "Etcd";
  static final String ETCD_NAME = "cluster";
  static final String CLUSTER_OPERATOR_API = "config.openshift.io/v1";

  private EtcdReads() {}

  public static EtcdReport report(KubernetesClient workload) {
    GenericKubernetesResource etcd =
        workload.genericKubernetesResources(ETCD_API, ETCD_KIND).withName(ETCD_NAME).get();
    GenericKubernetesResource operator =
        workload
            .genericKubernetesResources(CLUSTER_OPERATOR_API, "ClusterOperator")
            .withName("etcd")
            .get();
    return EtcdReport.of(asMap(etcd), asMap(operator));
  }

  public static Set<String> nodeNames(KubernetesClient workload) {
    return workload.nodes().list().getItems().stream()
        .map(Node::getMetadata)
        .map(m -> m.getName())
        .collect(Collectors.toSet());
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> asMap(GenericKubernetesResource object) {
    return object == null
        ? null
        : io.fabric8.kubernetes.client.utils.Serialization.jsonMapper()
            .convertValue(object, Map.class);
  }
}
