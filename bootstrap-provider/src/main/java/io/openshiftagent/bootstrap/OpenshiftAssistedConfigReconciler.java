package io.openshiftagent.bootstrap;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.javaoperatorsdk.operator.api.config.informer.InformerEventSourceConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.Cleaner;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.ControllerConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.DeleteControl;
import io.javaoperatorsdk.operator.api.reconciler.EventSourceContext;
import io.javaoperatorsdk.operator.api.reconciler.Reconciler;
import io.javaoperatorsdk.operator.api.reconciler.UpdateControl;
import io.javaoperatorsdk.operator.processing.event.ResourceID;
import io.javaoperatorsdk.operator.processing.event.source.EventSource;
import io.javaoperatorsdk.operator.processing.event.source.IndexerResourceCache;
import io.javaoperatorsdk.operator.processing.event.source.informer.InformerEventSource;
import io.javaoperatorsdk.operator.processing.event.source.informer.Mappers;
import io.openshiftagent.api.bootstrap.v1alpha2.BootMode;
import io.openshiftagent.api.bootstrap.v1alpha2.BootstrapGroup;
import io.openshiftagent.api.bootstrap.v1alpha2.OpenshiftAssistedConfig;
import io.openshiftagent.api.bootstrap.v1alpha2.OpenshiftAssistedConfigStatus;
import io.openshiftagent.api.common.Conditions;
import io.openshiftagent.api.common.ContractVersionedObjectReference;
import io.openshiftagent.api.controlplane.v1alpha3.ControlPlaneGroup;
import io.openshiftagent.api.external.ExternalKinds;
import io.openshiftagent.api.external.OwnedFieldsPatch;
import io.openshiftagent.api.external.assisted.AgentClusterInstall;
import io.openshiftagent.api.external.assisted.InfraEnv;
import io.openshiftagent.api.external.assisted.InfraEnvStatus;
import io.openshiftagent.api.external.capi.Cluster;
import io.openshiftagent.api.external.capi.Machine;
import io.openshiftagent.api.external.hive.ClusterDeployment;
import io.openshiftagent.api.external.metal3.Metal3Machine;
import io.openshiftagent.api.external.metal3.Metal3MachineSpec;
import io.openshiftagent.provider.EventRecorder;
import io.openshiftagent.provider.OwnerReferences;
import io.openshiftagent.provider.Pause;
import io.openshiftagent.provider.PlaceholderPullSecret;
import io.openshiftagent.provider.Refusal;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Turns an OpenshiftAssistedConfig into an InfraEnv for its Machine and, once the host can only
 * boot into discovery, the bootstrap data Secret Cluster API waits for.
 *
 * <p>Each reconcile observes the Machine, Cluster, ClusterDeployment, AgentClusterInstall and
 * InfraEnv from informer caches, takes the next step that is missing, and reports where it stands
 * as conditions. Every wait is a condition reason; a watch brings the next event.
 */
// Not generation-aware: the pause and override annotations change no generation, and CAPI core
// writes our labels. Our own status writes come back as one no-op reconcile.
@ControllerConfiguration(name = "openshiftassistedconfig", generationAwareEventProcessing = false)
public class OpenshiftAssistedConfigReconciler
    implements Reconciler<OpenshiftAssistedConfig>, Cleaner<OpenshiftAssistedConfig> {
  private static final Logger LOG =
      LoggerFactory.getLogger(OpenshiftAssistedConfigReconciler.class);
  static final String CONFIGS_BY_CLUSTER = "configs-by-cluster";
  static final String CLUSTERS_BY_CONTROL_PLANE = "clusters-by-control-plane";
  static final String MACHINES_BY_INFRASTRUCTURE = "machines-by-infrastructure";
  static final String OPENSHIFT_ASSISTED_CONFIG = "OpenshiftAssistedConfig";
  static final String OPENSHIFT_ASSISTED_CONTROL_PLANE = "OpenshiftAssistedControlPlane";

  /** LiveISO hosts boot the ISO, not user data; Cluster API still needs a Secret to exist. */
  static final String LIVE_ISO_USER_DATA = "{\"ignition\":{\"version\":\"3.2.0\"}}";

  private final KubernetesClient client;
  private final DiscoveryIgnitionSource discoveryIgnition;
  private final EventRecorder events;

  /** Each config's last failed discovery-ignition download (by UID), for the backoff. */
  private final Map<String, FailedDownload> failedDownloads = new ConcurrentHashMap<>();

  private InformerEventSource<Machine, OpenshiftAssistedConfig> machines;
  private InformerEventSource<Metal3Machine, OpenshiftAssistedConfig> metal3Machines;
  private InformerEventSource<Cluster, OpenshiftAssistedConfig> clusters;
  private InformerEventSource<ClusterDeployment, OpenshiftAssistedConfig> clusterDeployments;
  private InformerEventSource<AgentClusterInstall, OpenshiftAssistedConfig> installs;
  private InformerEventSource<InfraEnv, OpenshiftAssistedConfig> infraEnvs;
  private InformerEventSource<Secret, OpenshiftAssistedConfig> secrets;

  public OpenshiftAssistedConfigReconciler(
      KubernetesClient client, DiscoveryIgnitionSource discoveryIgnition, EventRecorder events) {
    this.client = client;
    this.discoveryIgnition = discoveryIgnition;
    this.events = events;
  }

  @Override
  public List<EventSource<?, OpenshiftAssistedConfig>> prepareEventSources(
      EventSourceContext<OpenshiftAssistedConfig> context) {
    IndexerResourceCache<OpenshiftAssistedConfig> configs = context.getPrimaryCache();
    configs.addIndexer(
        CONFIGS_BY_CLUSTER,
        config ->
            Optional.ofNullable(config.getMetadata().getLabels())
                .map(labels -> labels.get(ExternalKinds.CLUSTER_NAME_LABEL))
                .map(cluster -> List.of(key(config.getMetadata().getNamespace(), cluster)))
                .orElse(List.of()));

    machines =
        new InformerEventSource<>(
            InformerEventSourceConfiguration.from(Machine.class, OpenshiftAssistedConfig.class)
                .withName("machines")
                .withSecondaryToPrimaryMapper(OpenshiftAssistedConfigReconciler::configOf)
                .build(),
            context);
    machines.addIndexers(Map.of(MACHINES_BY_INFRASTRUCTURE, Hosts::infrastructureKey));
    // The Metal3Machine is made after the Machine; the live ISO is set on it once it exists.
    metal3Machines =
        new InformerEventSource<>(
            InformerEventSourceConfiguration.from(
                    Metal3Machine.class, OpenshiftAssistedConfig.class)
                .withName("metal3machines")
                .withSecondaryToPrimaryMapper(
                    m3m ->
                        machines.byIndex(MACHINES_BY_INFRASTRUCTURE, Hosts.key(m3m)).stream()
                            .flatMap(machine -> configOf(machine).stream())
                            .collect(Collectors.toSet()))
                .build(),
            context);
    clusters =
        new InformerEventSource<>(
            InformerEventSourceConfiguration.from(Cluster.class, OpenshiftAssistedConfig.class)
                .withName("clusters")
                .withSecondaryToPrimaryMapper(
                    cluster ->
                        configsOf(configs, cluster.getMetadata().getNamespace(), name(cluster)))
                .build(),
            context);
    clusters.addIndexers(
        Map.of(
            CLUSTERS_BY_CONTROL_PLANE,
            cluster ->
                controlPlaneName(cluster)
                    .map(cp -> List.of(key(cluster.getMetadata().getNamespace(), cp)))
                    .orElse(List.of())));
    // The control-plane provider names both after the OpenshiftAssistedControlPlane.
    clusterDeployments =
        new InformerEventSource<>(
            InformerEventSourceConfiguration.from(
                    ClusterDeployment.class, OpenshiftAssistedConfig.class)
                .withName("clusterdeployments")
                .withSecondaryToPrimaryMapper(cd -> configsOfControlPlane(configs, cd))
                .build(),
            context);
    installs =
        new InformerEventSource<>(
            InformerEventSourceConfiguration.from(
                    AgentClusterInstall.class, OpenshiftAssistedConfig.class)
                .withName("agentclusterinstalls")
                .withSecondaryToPrimaryMapper(aci -> configsOfControlPlane(configs, aci))
                .build(),
            context);
    infraEnvs =
        new InformerEventSource<>(
            InformerEventSourceConfiguration.from(InfraEnv.class, OpenshiftAssistedConfig.class)
                .withName("infraenvs")
                .withLabelSelector(Names.CONFIG_LABEL)
                .withSecondaryToPrimaryMapper(
                    Mappers.fromOwnerReferences(OpenshiftAssistedConfig.class))
                .build(),
            context);
    secrets =
        new InformerEventSource<>(
            InformerEventSourceConfiguration.from(Secret.class, OpenshiftAssistedConfig.class)
                .withName("secrets")
                .withLabelSelector(Names.CONFIG_LABEL)
                .withSecondaryToPrimaryMapper(
                    Mappers.fromOwnerReferences(OpenshiftAssistedConfig.class))
                .build(),
            context);
    return List.of(
        machines, metal3Machines, clusters, clusterDeployments, installs, infraEnvs, secrets);
  }

  @Override
  public UpdateControl<OpenshiftAssistedConfig> reconcile(
      OpenshiftAssistedConfig config, Context<OpenshiftAssistedConfig> context) {
    Optional<Machine> machine = owningMachine(config);
    if (machine.isEmpty()) {
      return report(
          config,
          Outcome.waiting(
              Reasons.WAITING_FOR_MACHINE,
              "waiting for Cluster API to make a Machine the owner of this config"));
    }
    String clusterName = clusterName(machine.get());
    Optional<Cluster> cluster = cached(clusters, clusterName, config);
    if (cluster.isEmpty()) {
      return report(
          config,
          Outcome.waiting(
              Reasons.WAITING_FOR_CLUSTER, "waiting for Cluster " + clusterName + " to exist"));
    }
    if (Pause.isPaused(cluster.get(), config)) {
      return report(config, Outcome.paused(Pause.reason(cluster.get(), config)));
    }
    if (isDeleting(machine.get())) {
      // Cluster API deletes the Metal3Machine before this config, and CAPM3 releases it only once
      // the baremetal-operator has deprovisioned the host, which it does not do while detached.
      reattachHost(machine.get());
    }
    return report(config, provision(config, machine.get(), cluster.get()));
  }

  private Outcome provision(OpenshiftAssistedConfig config, Machine machine, Cluster cluster) {
    String clusterName = name(cluster);
    if (dataSecretCreated(config)
        && cached(secrets, Names.dataSecret(config), config).isPresent()) {
      // Done: the host may be installed already, so nothing it depends on is touched again; only
      // a live ISO that no host has taken yet follows a regenerated image.
      if (config.getSpec().effectiveBootMode() == BootMode.LIVE_ISO) {
        followRegeneratedIso(config, machine);
      }
      return Outcome.ready(Names.dataSecret(config));
    }
    if (isDeleting(machine) || isDeleting(cluster)) {
      // Whatever we made now (InfraEnv, bootstrap data) would only have to be deleted again.
      return Outcome.waiting(
          Reasons.DELETING,
          (isDeleting(machine) ? "Machine " + name(machine) : "Cluster " + clusterName)
              + " is being deleted: no InfraEnv or bootstrap data is made for this config");
    }
    if (!infrastructureProvisioned(cluster)) {
      return Outcome.waiting(
          Reasons.WAITING_FOR_CLUSTER_INFRASTRUCTURE,
          "waiting for the infrastructure of Cluster " + clusterName + " to be provisioned");
    }
    Optional<String> controlPlane = controlPlaneName(cluster);
    if (controlPlane.isEmpty()) {
      return Outcome.waiting(
          Reasons.WAITING_FOR_CONTROL_PLANE,
          "Cluster "
              + clusterName
              + " has no OpenshiftAssistedControlPlane in spec.controlPlaneRef");
    }
    Optional<ClusterDeployment> clusterDeployment =
        cached(clusterDeployments, controlPlane.get(), config);
    if (clusterDeployment.isEmpty()) {
      return Outcome.waiting(
          Reasons.WAITING_FOR_CLUSTER_DEPLOYMENT,
          "waiting for the control-plane provider to create ClusterDeployment "
              + controlPlane.get());
    }
    Optional<AgentClusterInstall> install = cached(installs, controlPlane.get(), config);
    if (install.isEmpty()) {
      return Outcome.waiting(
          Reasons.WAITING_FOR_AGENT_CLUSTER_INSTALL,
          "waiting for the control-plane provider to create AgentClusterInstall "
              + controlPlane.get());
    }

    InfraEnv infraEnv = cached(infraEnvs, Names.infraEnv(config), config).orElse(null);
    if (infraEnv == null) {
      String state = installationState(install.get());
      WorkerGate.Decision gate = WorkerGate.decide(AgentDecision.isControlPlane(machine), state);
      if (gate == WorkerGate.Decision.WAIT) {
        return Outcome.waiting(
            Reasons.WAITING_FOR_INSTALLATION_TO_COMPLETE,
            "the installation of cluster "
                + clusterName
                + " is in state '"
                + state
                + "'; this worker joins as a day-2 host once it is installed");
      }
      String override = annotation(config, Names.DISCOVERY_IGNITION_OVERRIDE_ANNOTATION);
      if (override != null && !JsonDocuments.isObject(override)) {
        return Outcome.waiting(
            Reasons.INVALID_DISCOVERY_IGNITION_OVERRIDE,
            "the annotation "
                + Names.DISCOVERY_IGNITION_OVERRIDE_ANNOTATION
                + " is not a JSON object; fix or remove it");
      }
      String installOverride = annotation(config, Names.IGNITION_OVERRIDE_ANNOTATION);
      if (installOverride != null && !JsonDocuments.isObject(installOverride)) {
        return Outcome.waiting(
            Reasons.INVALID_IGNITION_OVERRIDE,
            "the annotation "
                + Names.IGNITION_OVERRIDE_ANNOTATION
                + " is not a JSON object; fix or remove it");
      }
      Optional<String> tooLarge =
          InstallIgnition.tooLargeForAnAgent(AgentDecision.ignitionOverride(config));
      if (tooLarge.isPresent()) {
        return Outcome.waiting(Reasons.INSTALL_IGNITION_TOO_LARGE, tooLarge.get());
      }
      String pullSecret = pullSecretName(config, clusterName);
      InfraEnv desired =
          DesiredInfraEnv.build(
              config,
              machine,
              cluster,
              clusterName,
              clusterDeployment.get().getMetadata().getName(),
              pullSecret,
              override);
      Optional<InfraEnv> created;
      try {
        created = create(desired, infraEnvs);
      } catch (KubernetesClientException e) {
        Optional<String> refusal = Refusal.of(e);
        if (refusal.isEmpty()) {
          throw e;
        }
        // E.g. a value our CRD admits that the installed assisted-service's CRD does not know.
        return Outcome.waiting(
            Reasons.INFRA_ENV_REFUSED,
            "the API server refused InfraEnv "
                + desired.getMetadata().getName()
                + ": "
                + refusal.get());
      }
      if (created.isPresent()) {
        LOG.info("created InfraEnv {} ({})", desired.getMetadata().getName(), describe(gate));
        events.normal(
            config,
            "InfraEnvCreated",
            "Provision",
            "created InfraEnv " + desired.getMetadata().getName() + " (" + describe(gate) + ")");
      }
      infraEnv = created.orElseGet(() -> client.resource(desired).get());
    }
    return config.getSpec().effectiveBootMode() == BootMode.LIVE_ISO
        ? bootLiveIso(config, machine, infraEnv, clusterName)
        : bootDiskImage(config, infraEnv, clusterName);
  }

  /**
   * Points the Metal3Machine at the discovery ISO before the bootstrap data is reported ready:
   * Cluster API lets CAPM3 provision the host only then, so it can never boot anything else.
   */
  private Outcome bootLiveIso(
      OpenshiftAssistedConfig config, Machine machine, InfraEnv infraEnv, String clusterName) {
    String isoUrl = infraEnv.getStatus() == null ? null : infraEnv.getStatus().isoDownloadURL;
    if (isoUrl == null || isoUrl.isBlank()) {
      return Outcome.waiting(
          Reasons.WAITING_FOR_DISCOVERY_IMAGE,
          "waiting for assisted-service to create the discovery ISO of InfraEnv "
              + infraEnv.getMetadata().getName());
    }
    if (!Hosts.isMetal3(machine)) {
      return Outcome.waiting(
          Reasons.UNSUPPORTED_INFRASTRUCTURE,
          "the LiveISO boot mode needs a Metal3Machine as the Machine's spec.infrastructureRef");
    }
    Optional<Metal3Machine> metal3Machine =
        cached(metal3Machines, machine.getSpec().infrastructureRef.name, config);
    if (metal3Machine.isEmpty()) {
      return Outcome.waiting(
          Reasons.WAITING_FOR_INFRASTRUCTURE_MACHINE,
          "waiting for Metal3Machine " + machine.getSpec().infrastructureRef.name);
    }
    bootIso(config, metal3Machine.get(), infraEnv, isoUrl);
    ensureDataSecret(config, clusterName, LIVE_ISO_USER_DATA);
    return Outcome.ready(Names.dataSecret(config));
  }

  /**
   * assisted-service regenerates an InfraEnv's image under a new URL when the InfraEnv or its image
   * token changes. A Metal3Machine still waiting for a host must boot the current one, or its host
   * boots an image the service no longer serves. Once CAPM3 has claimed a host, it is left alone:
   * CAPM3 hands the image to the host once, at the claim, so the host has what it boots, and a
   * later URL would be written where it never takes effect.
   */
  private void followRegeneratedIso(OpenshiftAssistedConfig config, Machine machine) {
    Optional<InfraEnv> infraEnv = cached(infraEnvs, Names.infraEnv(config), config);
    String isoUrl =
        infraEnv.map(InfraEnv::getStatus).map(status -> status.isoDownloadURL).orElse(null);
    if (isoUrl == null || isoUrl.isBlank() || !Hosts.isMetal3(machine)) {
      return;
    }
    cached(metal3Machines, machine.getSpec().infrastructureRef.name, config)
        .filter(m3m -> Hosts.hostReference(m3m).isEmpty())
        .ifPresent(m3m -> bootIso(config, m3m, infraEnv.get(), isoUrl));
  }

  /** Points the Metal3Machine at the live ISO, unless it boots that one already. */
  private void bootIso(
      OpenshiftAssistedConfig config,
      Metal3Machine metal3Machine,
      InfraEnv infraEnv,
      String isoUrl) {
    if (bootsLiveIso(metal3Machine, isoUrl)) {
      return;
    }
    new OwnedFieldsPatch()
        .set(isoUrl, "spec", "image", "url")
        .set(Metal3MachineSpec.DISK_FORMAT_LIVE_ISO, "spec", "image", "diskFormat")
        .set("", "spec", "image", "checksum")
        .applyTo(client, metal3Machine);
    events.normal(
        config,
        "LiveISOSet",
        "Provision",
        "Metal3Machine "
            + metal3Machine.getMetadata().getName()
            + " now boots the discovery ISO of InfraEnv "
            + infraEnv.getMetadata().getName());
  }

  private Outcome bootDiskImage(OpenshiftAssistedConfig config, InfraEnv infraEnv, String cluster) {
    if (cached(secrets, Names.dataSecret(config), config).isPresent()) {
      return Outcome.ready(Names.dataSecret(config));
    }
    InfraEnvStatus status = infraEnv.getStatus();
    String discoveryIgnitionUrl =
        status == null || status.bootArtifacts == null
            ? null
            : blankToNull(status.bootArtifacts.discoveryIgnitionURL);
    String eventsUrl =
        status == null || status.debugInfo == null ? null : blankToNull(status.debugInfo.eventsURL);
    if (discoveryIgnitionUrl == null && eventsUrl == null) {
      return Outcome.waiting(
          Reasons.WAITING_FOR_DISCOVERY_IGNITION,
          "waiting for assisted-service to publish the discovery ignition of InfraEnv "
              + infraEnv.getMetadata().getName());
    }
    int urls = FailedDownload.urls(discoveryIgnitionUrl, eventsUrl);
    String uid = config.getMetadata().getUid();
    FailedDownload lastFailure = failedDownloads.get(uid);
    Instant now = Instant.now();
    if (lastFailure != null && lastFailure.holdsBack(urls, now)) {
      return failed(lastFailure, now);
    }
    String merged;
    try {
      merged =
          IgnitionMerge.merge(
              discoveryIgnition.download(discoveryIgnitionUrl, eventsUrl),
              config.getSpec().nodeRegistration);
    } catch (DiscoveryIgnitionSource.DownloadException e) {
      return failed(
          config,
          urls,
          Reasons.DISCOVERY_IGNITION_DOWNLOAD_FAILED,
          "downloading the discovery ignition failed: " + e.getMessage(),
          e.retryable());
    } catch (IllegalArgumentException e) {
      return failed(config, urls, Reasons.INVALID_DISCOVERY_IGNITION, e.getMessage(), true);
    }
    failedDownloads.remove(uid);
    ensureDataSecret(config, cluster, merged);
    return Outcome.ready(Names.dataSecret(config));
  }

  /** Records a failed try and reports it; the next try waits for the backoff. */
  private Outcome failed(
      OpenshiftAssistedConfig config, int urls, String reason, String message, boolean retryable) {
    Instant now = Instant.now();
    FailedDownload failure =
        failedDownloads.compute(
            config.getMetadata().getUid(),
            (uid, previous) ->
                FailedDownload.after(previous, urls, now, reason, message, retryable));
    return failed(failure, now);
  }

  private static Outcome failed(FailedDownload failure, Instant now) {
    Outcome outcome = Outcome.waiting(failure.reason(), failure.message());
    return failure.retryable() ? outcome.recheckAfter(failure.untilNextTry(now)) : outcome;
  }

  private static String blankToNull(String value) {
    return value == null || value.isBlank() ? null : value;
  }

  @Override
  public DeleteControl cleanup(
      OpenshiftAssistedConfig config, Context<OpenshiftAssistedConfig> context) {
    failedDownloads.remove(config.getMetadata().getUid());
    Optional<Machine> machine = owningMachine(config);
    Optional<Cluster> cluster = machine.flatMap(m -> cached(clusters, clusterName(m), config));
    if (cluster.isPresent() && Pause.isPaused(cluster.get(), config)) {
      return DeleteControl.noFinalizerRemoval();
    }
    boolean controlPlane =
        machine.map(AgentDecision::isControlPlane).orElse(false)
            || hasLabel(config, ExternalKinds.CONTROL_PLANE_LABEL);
    if (controlPlane && machine.isPresent() && !isDeleting(machine.get())) {
      // The control-plane provider deletes the Machine, which then releases its config.
      events.warning(
          config,
          "DeletionBlocked",
          "Delete",
          "a control-plane config is released only with its Machine "
              + machine.get().getMetadata().getName());
      return DeleteControl.noFinalizerRemoval();
    }
    machine.ifPresent(this::reattachHost);
    Optional<InfraEnv> infraEnv = cached(infraEnvs, Names.infraEnv(config), config);
    if (infraEnv.isPresent()) {
      if (!isDeleting(infraEnv.get())) {
        client.resource(infraEnv.get()).delete();
        events.normal(
            config,
            "InfraEnvDeleted",
            "Delete",
            "deleting InfraEnv " + infraEnv.get().getMetadata().getName());
      }
      // assisted-service removes the InfraEnv's Agents first; its deletion event brings us back.
      return DeleteControl.noFinalizerRemoval();
    }
    for (String secret : Set.of(Names.dataSecret(config), Names.placeholderPullSecret(config))) {
      cached(secrets, secret, config).ifPresent(s -> client.resource(s).delete());
    }
    return DeleteControl.defaultDelete();
  }

  /** Gives a host we detached (see AgentReconciler) back to the baremetal-operator. */
  private void reattachHost(Machine machine) {
    Hosts.bareMetalHost(client, machine)
        .filter(Hosts::isDetachedByUs)
        .ifPresent(
            host ->
                new OwnedFieldsPatch()
                    .set(null, "metadata", "annotations", Names.BMH_DETACHED_ANNOTATION)
                    .applyTo(client, host));
  }

  private String pullSecretName(OpenshiftAssistedConfig config, String clusterName) {
    if (config.getSpec().pullSecretRef != null) {
      return config.getSpec().pullSecretRef.name;
    }
    // OKD needs no pull secret but InfraEnv requires one: a syntactically valid placeholder.
    Secret placeholder =
        PlaceholderPullSecret.build(
            new ObjectMetaBuilder()
                .withName(Names.placeholderPullSecret(config))
                .withNamespace(config.getMetadata().getNamespace())
                .withLabels(DesiredInfraEnv.labels(config, clusterName))
                .withOwnerReferences(OwnerReferences.controller(config))
                .build());
    create(placeholder, secrets);
    return placeholder.getMetadata().getName();
  }

  private void ensureDataSecret(OpenshiftAssistedConfig config, String clusterName, String data) {
    if (cached(secrets, Names.dataSecret(config), config).isPresent()) {
      return;
    }
    create(
        new SecretBuilder()
            .withNewMetadata()
            .withName(Names.dataSecret(config))
            .withNamespace(config.getMetadata().getNamespace())
            .withLabels(DesiredInfraEnv.labels(config, clusterName))
            .withOwnerReferences(OwnerReferences.controller(config))
            .endMetadata()
            .withType(ExternalKinds.CLUSTER_SECRET_TYPE)
            .withData(Map.of("value", base64(data), "format", base64("ignition")))
            .build(),
        secrets);
  }

  /**
   * Creates the object and records it in the informer's cache, so the next reconcile sees it even
   * before the watch delivers it. Empty when it exists already (a cache that lags a restart).
   */
  private <T extends HasMetadata> Optional<T> create(
      T object, InformerEventSource<T, OpenshiftAssistedConfig> cache) {
    try {
      T created = client.resource(object).create();
      cache.handleRecentResourceCreate(ResourceID.fromResource(created), created);
      return Optional.of(created);
    } catch (KubernetesClientException e) {
      if (e.getCode() != 409) {
        throw e;
      }
      return Optional.empty();
    }
  }

  private UpdateControl<OpenshiftAssistedConfig> report(
      OpenshiftAssistedConfig config, Outcome outcome) {
    OpenshiftAssistedConfigStatus current =
        config.getStatus() == null ? new OpenshiftAssistedConfigStatus() : config.getStatus();
    OpenshiftAssistedConfigStatus status = outcome.applyTo(copy(current), config, Instant.now());
    boolean becameReady =
        !Conditions.isTrue(current.conditions, Reasons.DATA_SECRET_AVAILABLE)
            && Conditions.isTrue(status.conditions, Reasons.DATA_SECRET_AVAILABLE);
    if (becameReady) {
      events.normal(
          config,
          "BootstrapDataReady",
          "Provision",
          "bootstrap data Secret " + status.dataSecretName + " is ready");
    }
    UpdateControl<OpenshiftAssistedConfig> control;
    if (Serialization.asJson(status).equals(Serialization.asJson(current))) {
      control = UpdateControl.noUpdate();
    } else {
      // Server-side apply of a fresh object that holds only the status we own.
      OpenshiftAssistedConfig patch = new OpenshiftAssistedConfig();
      patch.getMetadata().setName(config.getMetadata().getName());
      patch.getMetadata().setNamespace(config.getMetadata().getNamespace());
      patch.setStatus(status);
      control = UpdateControl.patchStatus(patch);
    }
    return outcome.recheckAfter == null ? control : control.rescheduleAfter(outcome.recheckAfter);
  }

  private static OpenshiftAssistedConfigStatus copy(OpenshiftAssistedConfigStatus status) {
    return Serialization.unmarshal(
        Serialization.asJson(status), OpenshiftAssistedConfigStatus.class);
  }

  private Optional<Machine> owningMachine(OpenshiftAssistedConfig config) {
    return OwnerReferences.find(config, ExternalKinds.CAPI_GROUP, "Machine")
        .flatMap(ref -> cached(machines, ref.getName(), config));
  }

  private static <R extends HasMetadata> Optional<R> cached(
      InformerEventSource<R, OpenshiftAssistedConfig> source,
      String name,
      OpenshiftAssistedConfig config) {
    return source.get(new ResourceID(name, config.getMetadata().getNamespace()));
  }

  private static Set<ResourceID> configOf(Machine machine) {
    ContractVersionedObjectReference ref =
        machine.getSpec() == null || machine.getSpec().bootstrap == null
            ? null
            : machine.getSpec().bootstrap.configRef;
    if (ref == null
        || !BootstrapGroup.GROUP.equals(ref.apiGroup)
        || !OPENSHIFT_ASSISTED_CONFIG.equals(ref.kind)) {
      return Set.of();
    }
    return Set.of(new ResourceID(ref.name, machine.getMetadata().getNamespace()));
  }

  private static Set<ResourceID> configsOf(
      IndexerResourceCache<OpenshiftAssistedConfig> configs, String namespace, String cluster) {
    return configs.byIndex(CONFIGS_BY_CLUSTER, key(namespace, cluster)).stream()
        .map(ResourceID::fromResource)
        .collect(Collectors.toSet());
  }

  /** The configs of the clusters whose control plane is named like {@code object}. */
  private Set<ResourceID> configsOfControlPlane(
      IndexerResourceCache<OpenshiftAssistedConfig> configs, HasMetadata object) {
    String namespace = object.getMetadata().getNamespace();
    return clusters
        .byIndex(CLUSTERS_BY_CONTROL_PLANE, key(namespace, object.getMetadata().getName()))
        .stream()
        .flatMap(cluster -> configsOf(configs, namespace, name(cluster)).stream())
        .collect(Collectors.toSet());
  }

  private static Optional<String> controlPlaneName(Cluster cluster) {
    ContractVersionedObjectReference ref =
        cluster.getSpec() == null ? null : cluster.getSpec().controlPlaneRef;
    if (ref == null
        || !ControlPlaneGroup.GROUP.equals(ref.apiGroup)
        || !OPENSHIFT_ASSISTED_CONTROL_PLANE.equals(ref.kind)) {
      return Optional.empty();
    }
    return Optional.of(ref.name);
  }

  private static boolean infrastructureProvisioned(Cluster cluster) {
    return cluster.getStatus() != null
        && cluster.getStatus().initialization != null
        && Boolean.TRUE.equals(cluster.getStatus().initialization.infrastructureProvisioned);
  }

  private static String installationState(AgentClusterInstall install) {
    return install.getStatus() == null || install.getStatus().debugInfo == null
        ? ""
        : Objects.requireNonNullElse(install.getStatus().debugInfo.state, "");
  }

  private static boolean bootsLiveIso(Metal3Machine machine, String isoUrl) {
    Metal3MachineSpec.Image image = machine.getSpec() == null ? null : machine.getSpec().image;
    return image != null
        && isoUrl.equals(image.url)
        && Metal3MachineSpec.DISK_FORMAT_LIVE_ISO.equals(image.diskFormat);
  }

  private static boolean dataSecretCreated(OpenshiftAssistedConfig config) {
    return config.getStatus() != null
        && config.getStatus().initialization != null
        && Boolean.TRUE.equals(config.getStatus().initialization.dataSecretCreated);
  }

  private static String clusterName(Machine machine) {
    return machine.getSpec() != null && machine.getSpec().clusterName != null
        ? machine.getSpec().clusterName
        : machine.getMetadata().getLabels().get(ExternalKinds.CLUSTER_NAME_LABEL);
  }

  private static String describe(WorkerGate.Decision gate) {
    return switch (gate) {
      case CONTROL_PLANE -> "control-plane host";
      case DAY1 -> "worker joining the installation";
      case DAY2 -> "worker added to the installed cluster";
      case WAIT -> throw new IllegalStateException();
    };
  }

  private static String annotation(HasMetadata object, String key) {
    Map<String, String> annotations = object.getMetadata().getAnnotations();
    return annotations == null ? null : annotations.get(key);
  }

  private static boolean hasLabel(HasMetadata object, String key) {
    Map<String, String> labels = object.getMetadata().getLabels();
    return labels != null && labels.containsKey(key);
  }

  static boolean isDeleting(HasMetadata object) {
    return object.getMetadata().getDeletionTimestamp() != null;
  }

  private static String name(HasMetadata object) {
    return object.getMetadata().getName();
  }

  private static String key(String namespace, String name) {
    return namespace + "/" + name;
  }

  private static String base64(String value) {
    return Base64.getEncoder().encodeToString(value.getBytes(StandardCharsets.UTF_8));
  }

  /** Where a reconcile ended: a wait with its reason, paused, or the bootstrap data ready. */
  static final class Outcome {
    final boolean paused;
    final String reason;
    final String message;
    final String dataSecretName;
    Duration recheckAfter;

    private Outcome(boolean paused, String reason, String message, String dataSecretName) {
      this.paused = paused;
      this.reason = reason;
      this.message = message;
      this.dataSecretName = dataSecretName;
    }

    static Outcome waiting(String reason, String message) {
      return new Outcome(false, reason, message, null);
    }

    static Outcome paused(String message) {
      return new Outcome(true, Reasons.PAUSED, message, null);
    }

    static Outcome ready(String dataSecretName) {
      return new Outcome(
          false,
          Reasons.SECRET_AVAILABLE,
          "bootstrap data Secret " + dataSecretName + " is available",
          dataSecretName);
    }

    Outcome recheckAfter(Duration delay) {
      this.recheckAfter = delay;
      return this;
    }

    OpenshiftAssistedConfigStatus applyTo(
        OpenshiftAssistedConfigStatus status, OpenshiftAssistedConfig config, Instant now) {
      Long generation = config.getMetadata().getGeneration();
      if (paused) {
        status.conditions =
            Conditions.set(
                status.conditions,
                Reasons.PAUSED,
                Conditions.TRUE,
                Reasons.PAUSED,
                message,
                generation,
                now);
        // Paused: nothing else was observed, so nothing else is reported.
        return status;
      }
      status.conditions =
          Conditions.set(
              status.conditions,
              Reasons.PAUSED,
              Conditions.FALSE,
              Reasons.NOT_PAUSED,
              "",
              generation,
              now);
      boolean ready = dataSecretName != null;
      String conditionStatus = ready ? Conditions.TRUE : Conditions.FALSE;
      status.conditions =
          Conditions.set(
              status.conditions,
              Reasons.DATA_SECRET_AVAILABLE,
              conditionStatus,
              reason,
              message,
              generation,
              now);
      status.conditions =
          Conditions.set(
              status.conditions,
              Reasons.READY,
              conditionStatus,
              ready ? Reasons.READY : reason,
              message,
              generation,
              now);
      if (ready) {
        status.dataSecretName = dataSecretName;
        status.initialization = new OpenshiftAssistedConfigStatus.Initialization();
        status.initialization.dataSecretCreated = true;
      }
      status.observedGeneration = generation;
      return status;
    }
  }
}
