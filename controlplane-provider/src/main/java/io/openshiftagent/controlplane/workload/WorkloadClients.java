package io.openshiftagent.controlplane.workload;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;

/**
 * Clients of installed clusters, from their kubeconfig: short timeouts and no retries, since a
 * reconcile that cannot reach one reports it and looks again later. A client lives for one look;
 * its TLS material is made cheaply ({@link WorkloadTls}).
 */
public final class WorkloadClients {
  private WorkloadClients() {}

  public static KubernetesClient connect(String kubeconfigYaml) {
    Config config = Config.fromKubeconfig(kubeconfigYaml);
    config.setConnectionTimeout(5_000);
    config.setRequestTimeout(10_000);
    config.setRequestRetryBackoffLimit(0);
    KubernetesClientBuilder builder = new KubernetesClientBuilder();
    WorkloadTls.of(config)
        .ifPresent(
            tls -> {
              WorkloadTls.takeFrom(config);
              builder.withHttpClientBuilderConsumer(
                  http -> http.sslContext(tls.keyManagers(), tls.trustManagers()));
            });
    return builder.withConfig(config).build();
  }
}
