package io.openshiftagent.bootstrap;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.javaoperatorsdk.operator.Operator;
import io.openshiftagent.provider.ProviderOperator;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.CountDownLatch;

/**
 * Runs the bootstrap provider against the current kubeconfig (or the in-cluster service account).
 */
public final class BootstrapProviderMain {
  private BootstrapProviderMain() {}

  public static void main(String[] args) throws InterruptedException {
    KubernetesClient client = new KubernetesClientBuilder().build();
    Operator operator = ProviderOperator.create(client, o -> {});
    BootstrapProvider.register(
        operator,
        client,
        DiscoveryIgnitionSource.unavailable(),
        Objects.requireNonNullElse(System.getenv("HOSTNAME"), "bootstrap-provider"));
    operator.installShutdownHook(Duration.ofSeconds(10));
    operator.start();
    new CountDownLatch(1).await();
  }
}
