package io.openshiftagent.bootstrap.config;

import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.openshiftagent.api.bootstrap.v1alpha2.BootMode;
import io.openshiftagent.api.bootstrap.v1alpha2.OpenshiftAssistedConfig;
import io.openshiftagent.api.external.OwnedFieldsPatch;
import io.openshiftagent.api.external.assisted.Agent;
import io.openshiftagent.bootstrap.names.Names;
import io.openshiftagent.provider.contract.GoProvider;
import io.openshiftagent.provider.reconcile.EventRecorder;
import io.openshiftagent.provider.reconcile.Finalizers;
import io.openshiftagent.provider.reconcile.Metadata;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The write of the {@code AdoptFromGoProvider} step: a config the Go provider made becomes ours.
 */
final class GoProviderAdoption {
  private static final Logger LOG = LoggerFactory.getLogger(GoProviderAdoption.class);

  private final KubernetesClient client;
  private final ConfigCaches caches;
  private final EventRecorder events;

  GoProviderAdoption(KubernetesClient client, ConfigCaches caches, EventRecorder events) {
    this.client = client;
    this.caches = caches;
    this.events = events;
  }

  /**
   * Takes over a config the Go provider made: its data Secret gets our labels (our cache selects by
   * them), its InfraEnv our boot mode (the Go provider's flow is DiskImage), agent labels and, for
   * an Agent the Go provider approved, our approval claim, and its Agents not yet approved our
   * labels, so that this provider approves them; then the Go provider's finalizer goes. Every write
   * is idempotent: an interrupted adoption is done again.
   *
   * @return the scope, with the data Secret seen if it exists
   */
  ConfigScope adopt(ConfigScope scope) {
    OpenshiftAssistedConfig config = scope.config();
    String namespace = config.getMetadata().getNamespace();
    Map<String, String> labels = DesiredInfraEnv.labels(config, scope.clusterName());
    boolean dataSecret = scope.dataSecretExists();
    String secretName =
        config.getStatus() == null || config.getStatus().dataSecretName == null
            ? Names.dataSecret(config)
            : config.getStatus().dataSecretName;
    try {
      Secret labelled =
          labelsPatch(labels)
              .applyTo(
                  client,
                  new SecretBuilder()
                      .withNewMetadata()
                      .withName(secretName)
                      .withNamespace(namespace)
                      .endMetadata()
                      .build());
      caches.created(labelled);
      dataSecret = true;
    } catch (KubernetesClientException e) {
      if (e.getCode() != 404) {
        throw e;
      }
    }
    scope
        .infraEnv()
        .ifPresent(
            infraEnv -> {
              OwnedFieldsPatch patch = labelsPatch(labels, "spec", "agentLabels");
              if (!Metadata.hasAnnotation(infraEnv, Names.BOOT_MODE_ANNOTATION)) {
                patch.set(
                    BootMode.DISK_IMAGE.wireName(),
                    "metadata",
                    "annotations",
                    Names.BOOT_MODE_ANNOTATION);
              }
              List<Agent> agents = scope.agents().get();
              // An Agent the Go provider approved holds the approval: our Agent cache (by our
              // labels) does not hold it, the InfraEnv's claim then does.
              agents.stream()
                  .filter(agent -> Boolean.TRUE.equals(agent.getSpec().approved))
                  .findFirst()
                  .filter(
                      approved ->
                          !Metadata.hasAnnotation(infraEnv, Names.APPROVED_AGENT_ANNOTATION))
                  .ifPresent(
                      approved ->
                          patch.set(
                              Metadata.name(approved),
                              "metadata",
                              "annotations",
                              Names.APPROVED_AGENT_ANNOTATION));
              patch.applyTo(client, infraEnv);
              agents.stream()
                  .filter(agent -> !Boolean.TRUE.equals(agent.getSpec().approved))
                  .forEach(agent -> labelsPatch(labels).applyTo(client, agent));
            });
    if (Finalizers.remove(client, config, GoProvider.CONFIG_FINALIZER)) {
      LOG.info("took over config {} from the Go provider", Metadata.name(config));
      events.normal(
          config,
          "TakenOver",
          "Adopt",
          "taken over from the Go provider: its finalizer "
              + GoProvider.CONFIG_FINALIZER
              + " removed, data Secret "
              + secretName
              + (scope.infraEnv().isPresent() ? " and InfraEnv " + Names.infraEnv(config) : "")
              + " kept");
    }
    return dataSecret ? scope.withDataSecret().withoutGoFinalizer() : scope.withoutGoFinalizer();
  }

  private static OwnedFieldsPatch labelsPatch(Map<String, String> labels, String... path) {
    OwnedFieldsPatch patch = new OwnedFieldsPatch();
    String[] target = path.length == 0 ? new String[] {"metadata", "labels"} : path;
    labels.forEach(
        (key, value) -> {
          String[] field = Arrays.copyOf(target, target.length + 1);
          field[target.length] = key;
          patch.set(value, field);
        });
    return patch;
  }
}
