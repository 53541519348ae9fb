package io.openshiftagent.controlplane.scope;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;

/**
 * Clients of installed clusters, from their kubeconfig: short timeouts and no retries, since a
 * reconcile that cannot reach one reports it and looks again later. A client lives for one look;
 * its TLS material is made cheaply ({@link InstalledClusterTls}).
 */
final class InstalledClusterClients {
  private InstalledClusterClients() {}

  static KubernetesClient connect(String kubeconfigYaml) {
    Config config = Config.fromKubeconfig(kubeconfigYaml);
    config.setConnectionTimeout(5_000);
    config.setRequestTimeout(10_000);
    config.setRequestRetryBackoffLimit(0);
    KubernetesClientBuilder builder = new KubernetesClientBuilder();
    InstalledClusterTls.of(config)
        .ifPresent(
            tls -> {
              InstalledClusterTls.takeFrom(config);
              builder.withHttpClientBuilderConsumer(
                  http -> http.sslContext(tls.keyManagers(), tls.trustManagers()));
            });
    return builder.withConfig(config).build();
  }
}
