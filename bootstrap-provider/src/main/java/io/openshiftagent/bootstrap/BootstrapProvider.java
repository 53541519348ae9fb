package io.openshiftagent.bootstrap;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.javaoperatorsdk.operator.Operator;
import io.openshiftagent.api.bootstrap.v1alpha2.BootMode;
import io.openshiftagent.api.external.assisted.Agent;
import io.openshiftagent.bootstrap.agent.AgentReconciler;
import io.openshiftagent.bootstrap.config.OpenshiftAssistedConfigReconciler;
import io.openshiftagent.bootstrap.ignition.DiscoveryIgnitionSource;
import io.openshiftagent.provider.reconcile.EventRecorder;
import io.openshiftagent.provider.runtime.ControllerScope;
import io.openshiftagent.provider.runtime.ProviderOperator;

/** The bootstrap provider's controllers, registered on an Operator. */
public final class BootstrapProvider {
  public static final String REPORTING_CONTROLLER = "openshift-agent.io/bootstrap-provider";

  private BootstrapProvider() {}

  /**
   * Registers the OpenshiftAssistedConfig and Agent controllers.
   *
   * @param defaultBootMode the boot mode of configs that name none
   * @param instance the reporting instance of Events, e.g. the pod name
   * @param scope the namespaces and watch filter of this process; Agents carry the watch-filter
   *     label of their config (through their InfraEnv), and each controller's caches hold the
   *     objects of its scope only
   */
  public static void register(
      Operator operator,
      KubernetesClient client,
      DiscoveryIgnitionSource discoveryIgnition,
      BootMode defaultBootMode,
      String instance,
      ControllerScope scope) {
    EventRecorder events = new EventRecorder(client, REPORTING_CONTROLLER, instance);
    ProviderOperator.register(
        operator,
        new OpenshiftAssistedConfigReconciler(
            client, discoveryIgnition, defaultBootMode, events, scope),
        scope.apply());
    ProviderOperator.register(
        operator,
        new AgentReconciler(client, events, scope),
        scope.<Agent>apply().andThen(o -> o.withItemStore(AgentReconciler.cacheStore())));
  }
}
