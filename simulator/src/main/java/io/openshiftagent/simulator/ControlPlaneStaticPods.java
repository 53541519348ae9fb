package io.openshiftagent.simulator;

import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The static pods an installed OpenShift runs on each control-plane host besides etcd's ({@link
 * KwokKubelet#etcdPod}), as its API server shows them: the mirror pods {@code
 * kube-apiserver-<node>}, {@code kube-controller-manager-<node>} and {@code
 * openshift-kube-scheduler-<node>} in {@code openshift-kube-apiserver}, {@code
 * openshift-kube-controller-manager} and {@code openshift-kube-scheduler}, Running and Ready, each
 * owned by its Node; those of a Node that is gone are deleted, as the pod garbage collector does.
 * Kept by {@link EtcdOperator} on each look at the Nodes. The Ready condition is the kubelet's last
 * word: a Node that stops posting Ready leaves it as it was.
 */
final class ControlPlaneStaticPods {
  /** Each component's namespace and its pod's name before the Node's. */
  static final Map<String, String> COMPONENTS =
      Map.of(
          "openshift-kube-apiserver", "kube-apiserver-",
          "openshift-kube-controller-manager", "kube-controller-manager-",
          "openshift-kube-scheduler", "openshift-kube-scheduler-");

  private ControlPlaneStaticPods() {}

  /** Makes the pods of each control-plane Node that has none, and deletes those of Nodes gone. */
  static void sync(KubernetesClient workload, List<Node> nodes) {
    Set<String> present =
        nodes.stream().map(n -> n.getMetadata().getName()).collect(Collectors.toSet());
    COMPONENTS.forEach(
        (namespace, prefix) -> {
          if (workload.namespaces().withName(namespace).get() == null) {
            workload
                .namespaces()
                .resource(
                    new NamespaceBuilder()
                        .withNewMetadata()
                        .withName(namespace)
                        .endMetadata()
                        .build())
                .create();
          }
          Set<String> existing =
              workload.pods().inNamespace(namespace).list().getItems().stream()
                  .map(p -> p.getMetadata().getName())
                  .collect(Collectors.toSet());
          for (Node node : nodes) {
            String name = prefix + node.getMetadata().getName();
            if (!existing.contains(name)) {
              create(workload, namespace, name, node);
            }
          }
          existing.stream()
              .filter(name -> name.startsWith(prefix))
              .filter(name -> !present.contains(name.substring(prefix.length())))
              .forEach(
                  name ->
                      workload
                          .pods()
                          .inNamespace(namespace)
                          .withName(name)
                          .withGracePeriod(0)
                          .delete());
        });
  }

  private static void create(KubernetesClient workload, String namespace, String name, Node node) {
    String hash = Integer.toHexString(name.hashCode());
    Pod pod =
        new PodBuilder()
            .withNewMetadata()
            .withName(name)
            .withNamespace(namespace)
            .withLabels(Map.of("app", namespace.replace("openshift-", "")))
            .withAnnotations(
                Map.of(
                    "kubernetes.io/config.mirror", hash,
                    "kubernetes.io/config.hash", hash,
                    "kubernetes.io/config.source", "file"))
            .addNewOwnerReference()
            .withApiVersion("v1")
            .withKind("Node")
            .withName(node.getMetadata().getName())
            .withUid(node.getMetadata().getUid())
            .withController(true)
            .endOwnerReference()
            .endMetadata()
            .withNewSpec()
            .withNodeName(node.getMetadata().getName())
            .withAutomountServiceAccountToken(false)
            .addNewContainer()
            .withName(namespace.replace("openshift-", ""))
            .withImage("quay.io/openshift-release-dev/ocp-v4.0-art-dev:hyperkube")
            .endContainer()
            .endSpec()
            .build();
    workload.pods().inNamespace(namespace).resource(pod).create();
    Map<String, Boolean> conditions = new LinkedHashMap<>();
    for (String type : List.of("PodScheduled", "Initialized", "ContainersReady", "Ready")) {
      conditions.put(type, true);
    }
    WorkloadStatus.merge(
        workload.pods().inNamespace(namespace).withName(name),
        WorkloadStatus.runningPod(conditions));
  }
}
