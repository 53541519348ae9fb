package io.openshiftagent.bootstrap.config;

import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.openshiftagent.api.bootstrap.v1alpha2.OpenshiftAssistedConfig;
import io.openshiftagent.api.external.ExternalKinds;
import io.openshiftagent.api.external.OwnedFieldsPatch;
import io.openshiftagent.api.external.assisted.InfraEnv;
import io.openshiftagent.api.external.metal3.Metal3Machine;
import io.openshiftagent.api.external.metal3.Metal3MachineSpec;
import io.openshiftagent.bootstrap.config.ConfigStatus.Outcome;
import io.openshiftagent.bootstrap.config.ConfigSteps.CreateInfraEnv;
import io.openshiftagent.bootstrap.hosts.HostDetachment;
import io.openshiftagent.bootstrap.names.Names;
import io.openshiftagent.bootstrap.names.Reasons;
import io.openshiftagent.provider.contract.PlaceholderPullSecret;
import io.openshiftagent.provider.reconcile.EventRecorder;
import io.openshiftagent.provider.reconcile.Futures;
import io.openshiftagent.provider.reconcile.Metadata;
import io.openshiftagent.provider.reconcile.OwnerReferences;
import io.openshiftagent.provider.reconcile.Refusal;
import io.openshiftagent.provider.reconcile.Writes;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The writes of the config steps: the placeholder pull secret and the InfraEnv, the Metal3Machine's
 * live ISO, the bootstrap data Secret, and the host given back. Each returns the scope as its write
 * left it, or, when the API server refused it, the outcome to report.
 */
final class ConfigWrites {
  private static final Logger LOG = LoggerFactory.getLogger(ConfigWrites.class);

  private final KubernetesClient client;
  private final ConfigCaches caches;
  private final EventRecorder events;
  private final HostDetachment hosts;
  private final Executor writers;

  /**
   * @param writers where writes that do not depend on each other are made at once
   */
  ConfigWrites(
      KubernetesClient client,
      ConfigCaches caches,
      EventRecorder events,
      HostDetachment hosts,
      Executor writers) {
    this.client = client;
    this.caches = caches;
    this.events = events;
    this.hosts = hosts;
    this.writers = writers;
  }

  /** A write's result: the scope it left, or the refusal to report. */
  sealed interface Result {}

  record Written(ConfigScope scope) implements Result {}

  record Refused(Outcome outcome) implements Result {}

  ConfigScope reattachHost(ConfigScope scope) {
    scope.host().get().ifPresent(hosts::reattach);
    return scope.withHostReattached();
  }

  Result createInfraEnv(ConfigScope scope, CreateInfraEnv step) {
    OpenshiftAssistedConfig config = scope.config();
    String clusterName = scope.clusterName();
    InfraEnv desired =
        DesiredInfraEnv.build(
            config,
            scope.machine().get(),
            scope.cluster().get(),
            clusterName,
            Metadata.name(scope.clusterDeployment().get()),
            pullSecretName(config, clusterName),
            step.discoveryIgnitionOverride(),
            scope.bootMode());
    try {
      InfraEnv infraEnv =
          Writes.createOrGet(
              client,
              desired,
              created -> {
                caches.created(created);
                LOG.info("created InfraEnv {} ({})", Metadata.name(created), describe(step.gate()));
              });
      if (!OwnerReferences.isOwnedBy(infraEnv, config)) {
        // One of the same name that someone else made: never used, changed or deleted by us.
        return new Refused(
            Outcome.waiting(
                Reasons.INFRA_ENV_NOT_OURS,
                "InfraEnv "
                    + Metadata.name(desired)
                    + " exists and does not belong to this config (no owner reference to it):"
                    + " rename or delete that InfraEnv"));
      }
      return new Written(scope.withInfraEnv(infraEnv));
    } catch (KubernetesClientException e) {
      Optional<String> refusal = Refusal.of(e);
      if (refusal.isEmpty()) {
        throw e;
      }
      // E.g. a value our CRD admits that the installed assisted-service's CRD does not know.
      return new Refused(
          Outcome.waiting(
              Reasons.INFRA_ENV_REFUSED,
              "the API server refused InfraEnv " + Metadata.name(desired) + ": " + refusal.get()));
    }
  }

  /**
   * The Metal3Machine boots the live ISO, and the bootstrap data Cluster API waits for exists. Both
   * come before the status names the data (Cluster API then lets CAPM3 provision the host, which
   * must find the ISO), but not one before the other: when both are needed they are made at once,
   * one request's time off the stage.
   */
  ConfigScope bootLiveIso(ConfigScope scope, Metal3Machine metal3Machine, String isoUrl) {
    if (scope.dataSecretExists() || DiscoveryImage.bootsLiveIso(metal3Machine, isoUrl)) {
      return dataSecret(bootIso(scope, metal3Machine, isoUrl), DiscoveryImage.LIVE_ISO_USER_DATA);
    }
    CompletableFuture<ConfigScope> data =
        CompletableFuture.supplyAsync(
            () -> dataSecret(scope, DiscoveryImage.LIVE_ISO_USER_DATA), writers);
    ConfigScope booted;
    try {
      booted = bootIso(scope, metal3Machine, isoUrl);
    } catch (RuntimeException e) {
      // No write outlives its reconcile; this failure is the one reported.
      data.handle((written, failure) -> written).join();
      throw e;
    }
    Futures.join(data);
    return booted.withDataSecret();
  }

  /** Points the Metal3Machine at the live ISO, unless it boots that one already. */
  ConfigScope bootIso(ConfigScope scope, Metal3Machine metal3Machine, String isoUrl) {
    if (DiscoveryImage.bootsLiveIso(metal3Machine, isoUrl)) {
      return scope;
    }
    Metal3Machine patched =
        new OwnedFieldsPatch()
            .set(isoUrl, "spec", "image", "url")
            .set(Metal3MachineSpec.DISK_FORMAT_LIVE_ISO, "spec", "image", "diskFormat")
            .set("", "spec", "image", "checksum")
            .applyTo(client, metal3Machine);
    LOG.info(
        "Metal3Machine {} boots the discovery ISO of InfraEnv {}",
        Metadata.key(metal3Machine),
        Metadata.name(scope.infraEnv().get()));
    return scope.withMetal3Machine(patched);
  }

  /** Creates the bootstrap data Secret holding {@code data}, unless it exists. */
  ConfigScope dataSecret(ConfigScope scope, String data) {
    if (scope.dataSecretExists()) {
      return scope;
    }
    OpenshiftAssistedConfig config = scope.config();
    Writes.create(
            client,
            new SecretBuilder()
                .withMetadata(ownedMetadata(config, Names.dataSecret(config), scope.clusterName()))
                .withType(ExternalKinds.CLUSTER_SECRET_TYPE)
                .withData(Map.of("value", base64(data), "format", base64("ignition")))
                .build())
        .ifPresent(caches::created);
    return scope.withDataSecret();
  }

  private String pullSecretName(OpenshiftAssistedConfig config, String clusterName) {
    if (config.getSpec().pullSecretRef != null) {
      return config.getSpec().pullSecretRef.name;
    }
    // OKD needs no pull secret but InfraEnv requires one: a syntactically valid placeholder.
    Secret placeholder =
        PlaceholderPullSecret.build(
            ownedMetadata(config, Names.placeholderPullSecret(config), clusterName));
    Writes.create(client, placeholder).ifPresent(caches::created);
    return Metadata.name(placeholder);
  }

  /** Metadata of a Secret the config owns, labelled like everything we create for it. */
  private static io.fabric8.kubernetes.api.model.ObjectMeta ownedMetadata(
      OpenshiftAssistedConfig config, String name, String clusterName) {
    return new ObjectMetaBuilder()
        .withName(name)
        .withNamespace(config.getMetadata().getNamespace())
        .withLabels(DesiredInfraEnv.labels(config, clusterName))
        .withOwnerReferences(OwnerReferences.controller(config))
        .build();
  }

  private static String describe(WorkerGate.Decision gate) {
    return switch (gate) {
      case CONTROL_PLANE -> "control-plane host";
      case DAY1 -> "worker joining the installation";
      case DAY2 -> "worker added to the installed cluster";
      case WAIT -> throw new IllegalStateException();
    };
  }

  private static String base64(String value) {
    return Base64.getEncoder().encodeToString(value.getBytes(StandardCharsets.UTF_8));
  }
}
