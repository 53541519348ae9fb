package io.openshiftagent.controlplane;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.javaoperatorsdk.operator.Operator;
import io.openshiftagent.provider.ControllerScope;
import io.openshiftagent.provider.ProviderOperator;
import io.openshiftagent.provider.ProviderRuntime;
import java.time.Duration;

/** The control-plane provider process: {@code java -jar controlplane-provider.jar --help}. */
public final class ControlPlaneProvider implements ProviderRuntime.Provider {
  /** How often an installed cluster is looked at for versions and upgrade progress. */
  static final Duration WORKLOAD_POLL_INTERVAL = Duration.ofMinutes(1);

  public static void main(String[] args) {
    ProviderRuntime.main(new ControlPlaneProvider(), args);
  }

  @Override
  public String command() {
    return "controlplane-provider";
  }

  @Override
  public String description() {
    return """
        The openshift-agent Cluster API control-plane provider: OpenshiftAssistedControlPlane ->
        ClusterDeployment, AgentClusterInstall and control-plane Machines -> an installed, upgradable
        OpenShift control plane.""";
  }

  @Override
  public String defaultLeaseName() {
    return "controlplane-openshift-agent-leader";
  }

  @Override
  public void register(Operator operator, KubernetesClient client, ControllerScope scope) {
    register(operator, WORKLOAD_POLL_INTERVAL, instanceName(), scope);
  }

  /** Registers the control-plane controller, restricted to {@code scope}. */
  static void register(
      Operator operator, Duration workloadPollInterval, String instance, ControllerScope scope) {
    ProviderOperator.register(
        operator,
        new OpenshiftAssistedControlPlaneReconciler(workloadPollInterval, instance),
        scope.apply());
  }

  /** An operator with the control-plane controller registered, not started (for tests). */
  public static Operator create(KubernetesClient client, Duration workloadPollInterval) {
    Operator operator = ProviderOperator.create(client, o -> {});
    register(operator, workloadPollInterval, instanceName(), ControllerScope.EVERYTHING);
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
}
