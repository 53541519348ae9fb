package io.openshiftagent.controlplane.inplace;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.openshiftagent.api.external.capi.Machine;
import io.openshiftagent.controlplane.names.Names;
import io.openshiftagent.controlplane.scope.InstalledCluster;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Optional;

/**
 * Kubelet versions as the installed cluster reports them: the Machine's {@code status.nodeRef} from
 * the hub, the Node through the cluster's published kubeconfig (Cluster API's {@code
 * <cluster>-kubeconfig} Secret), as the control plane reads the ClusterVersion. Each look connects
 * anew: it is asked once per Machine every {@value InPlaceHooks#RETRY_SECONDS} s at most, and only
 * while that Machine updates.
 */
public final class InstalledKubelets implements Kubelets {
  private final KubernetesClient hub;

  public InstalledKubelets(KubernetesClient hub) {
    this.hub = hub;
  }

  @Override
  public Look look(String namespace, String name, String clusterName) {
    Machine machine = hub.resources(Machine.class).inNamespace(namespace).withName(name).get();
    if (machine == null) {
      return Look.unknown("Machine " + namespace + "/" + name + " not found");
    }
    String node =
        machine.getStatus() == null || machine.getStatus().nodeRef == null
            ? null
            : machine.getStatus().nodeRef.name;
    if (node == null) {
      return Look.unknown("Machine " + name + " has no Node yet (status.nodeRef)");
    }
    String secret = Names.kubeconfigSecret(clusterName);
    try (InstalledCluster cluster = InstalledCluster.through(() -> kubeconfig(namespace, secret))) {
      Optional<Node> found = cluster.node(node);
      if (found.isEmpty()) {
        return Look.unknown("Node " + node + " not found in the installed cluster");
      }
      Node n = found.get();
      String version =
          n.getStatus() == null || n.getStatus().getNodeInfo() == null
              ? ""
              : n.getStatus().getNodeInfo().getKubeletVersion();
      return Look.of(node, version == null ? "" : version);
    } catch (KubernetesClientException | IllegalStateException e) {
      return Look.unknown(
          "cannot read Node "
              + node
              + " through Secret "
              + secret
              + "'s kubeconfig: "
              + e.getMessage());
    }
  }

  private Optional<String> kubeconfig(String namespace, String name) {
    Secret secret = hub.secrets().inNamespace(namespace).withName(name).get();
    return Optional.ofNullable(secret)
        .map(Secret::getData)
        .map(data -> data.get(Names.KUBECONFIG_KEY))
        .map(encoded -> new String(Base64.getDecoder().decode(encoded), StandardCharsets.UTF_8));
  }
}
