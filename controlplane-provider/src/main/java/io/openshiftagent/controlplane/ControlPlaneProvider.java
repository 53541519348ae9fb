package io.openshiftagent.controlplane;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.javaoperatorsdk.operator.Operator;
import io.openshiftagent.provider.ProviderOperator;
import java.time.Duration;

/** Runs the control-plane provider against the current kubeconfig (or in-cluster account). */
public final class ControlPlaneProvider {
  /** How often an installed cluster is looked at for versions and upgrade progress. */
  static final Duration WORKLOAD_POLL_INTERVAL = Duration.ofMinutes(1);

  private ControlPlaneProvider() {}

  /** An operator with the control-plane controller registered, not started. */
  public static Operator create(KubernetesClient client, Duration workloadPollInterval) {
    Operator operator = ProviderOperator.create(client, o -> {});
    operator.register(
        new OpenshiftAssistedControlPlaneReconciler(workloadPollInterval, instanceName()));
    return operator;
  }

  /** The reporting instance of our Events: the pod name when running in a pod. */
  static String instanceName() {
    String pod = System.getenv("POD_NAME");
    if (pod != null && !pod.isBlank()) {
      return pod;
    }
    String host = System.getenv("HOSTNAME");
    return host != null && !host.isBlank() ? host : "controlplane-provider";
  }

  public static void main(String[] args) {
    KubernetesClient client = new KubernetesClientBuilder().build();
    Operator operator = create(client, WORKLOAD_POLL_INTERVAL);
    Runtime.getRuntime().addShutdownHook(new Thread(operator::stop, "operator-stop"));
    operator.start();
  }
}
