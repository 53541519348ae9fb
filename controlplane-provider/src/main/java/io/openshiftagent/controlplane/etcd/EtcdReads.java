package io.openshiftagent.controlplane.etcd;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.util.List;
import java.util.Map;

/**
 * The etcd operator's report as the scope reads it from the installed cluster (its {@code
 * Etcd/cluster} and the {@code etcd} ClusterOperator), made an {@link EtcdReport}.
 */
public final class EtcdReads {
  private EtcdReads() {}

  /**
   * @param etcdAndOperator the {@code Etcd/cluster} and the {@code etcd} ClusterOperator, each null
   *     when missing
   */
  public static EtcdReport report(List<GenericKubernetesResource> etcdAndOperator) {
    return EtcdReport.of(asMap(etcdAndOperator.get(0)), asMap(etcdAndOperator.get(1)));
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> asMap(GenericKubernetesResource object) {
    return object == null ? null : Serialization.jsonMapper().convertValue(object, Map.class);
  }
}
