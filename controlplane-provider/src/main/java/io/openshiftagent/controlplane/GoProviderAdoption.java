package io.openshiftagent.controlplane;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.openshiftagent.api.controlplane.v1alpha3.OpenshiftAssistedControlPlane;
import io.openshiftagent.provider.contract.GoProvider;
import io.openshiftagent.provider.reconcile.EventRecorder;
import io.openshiftagent.provider.reconcile.Finalizers;
import io.openshiftagent.provider.reconcile.Metadata;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Takes over a control plane the Go provider made (it still carries that provider's finalizer): the
 * conditions only the Go provider wrote are removed (nothing would update them), then its
 * finalizer, which nothing else would remove. The rest it made is ours as it is: the
 * ClusterDeployment and AgentClusterInstall have our names, its Machines and configs are found by
 * their owner and labels, its ClusterImageSet is the one the AgentClusterInstall names.
 */
final class GoProviderAdoption {
  private static final Logger LOG = LoggerFactory.getLogger(GoProviderAdoption.class);

  private final KubernetesClient client;
  private final EventRecorder events;

  GoProviderAdoption(KubernetesClient client, EventRecorder events) {
    this.client = client;
    this.events = events;
  }

  /**
   * @return the control plane as it is now (without the Go provider's finalizer and conditions), or
   *     the one given when it was not the Go provider's
   */
  OpenshiftAssistedControlPlane adopt(OpenshiftAssistedControlPlane cp) {
    if (!Finalizers.has(cp, GoProvider.CONTROL_PLANE_FINALIZER)) {
      return cp;
    }
    OpenshiftAssistedControlPlane adopted = Serialization.clone(cp);
    List<Condition> conditions = cp.getStatus() == null ? null : cp.getStatus().conditions;
    if (conditions != null
        && conditions.stream()
            .anyMatch(c -> GoProvider.CONTROL_PLANE_CONDITIONS.contains(c.getType()))) {
      List<Condition> kept =
          conditions.stream()
              .filter(c -> !GoProvider.CONTROL_PLANE_CONDITIONS.contains(c.getType()))
              .toList();
      // Replaced whole, if unchanged since read: its entries belong to the Go provider's field
      // manager, which an apply of ours could not take them from.
      String patch =
          Serialization.asJson(
              List.of(
                  Map.of("op", "test", "path", "/status/conditions", "value", conditions),
                  Map.of("op", "replace", "path", "/status/conditions", "value", kept)));
      try {
        client.resource(cp).subresource("status").patch(PatchContext.of(PatchType.JSON), patch);
      } catch (KubernetesClientException e) {
        if (e.getCode() != 422 && e.getCode() != 409) {
          throw e;
        }
        return cp; // changed meanwhile: the next event brings it as it is
      }
      adopted.getStatus().conditions = kept;
    }
    if (Finalizers.remove(client, cp, GoProvider.CONTROL_PLANE_FINALIZER)) {
      adopted.getMetadata().getFinalizers().remove(GoProvider.CONTROL_PLANE_FINALIZER);
      LOG.info("took over control plane {} from the Go provider", Metadata.name(cp));
      events.normal(
          cp,
          "TakenOver",
          "Adopt",
          "taken over from the Go provider: its finalizer "
              + GoProvider.CONTROL_PLANE_FINALIZER
              + " and its conditions "
              + GoProvider.CONTROL_PLANE_CONDITIONS.stream().sorted().toList()
              + " removed; its ClusterDeployment, AgentClusterInstall, Machines and configs kept");
    }
    return adopted;
  }
}
