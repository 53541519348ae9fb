package io.openshiftagent.controlplane.workload;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;

/**
 * Clients of installed clusters, from their kubeconfig: short timeouts and no retries, since a
 * reconcile that cannot reach one reports it and looks again later.
 */
public final class WorkloadClients {
  private WorkloadClients() {}

  public static KubernetesClient connect(String kubeconfigYaml) {
    Config config = Config.fromKubeconfig(kubeconfigYaml);
    config.setConnectionTimeout(5_000);
    config.setRequestTimeout(10_000);
    config.setRequestRetryBackoffLimit(0);
    return new KubernetesClientBuilder().withConfig(config).build();
  }
}
