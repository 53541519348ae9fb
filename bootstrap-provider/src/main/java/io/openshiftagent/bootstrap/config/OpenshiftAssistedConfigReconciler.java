package io.openshiftagent.bootstrap.config;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.javaoperatorsdk.operator.api.config.informer.Informer;
import io.javaoperatorsdk.operator.api.reconciler.Cleaner;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.ControllerConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.DeleteControl;
import io.javaoperatorsdk.operator.api.reconciler.EventSourceContext;
import io.javaoperatorsdk.operator.api.reconciler.Reconciler;
import io.javaoperatorsdk.operator.api.reconciler.UpdateControl;
import io.javaoperatorsdk.operator.processing.event.source.EventSource;
import io.javaoperatorsdk.operator.processing.event.source.filter.OnAddFilter;
import io.javaoperatorsdk.operator.processing.event.source.filter.OnUpdateFilter;
import io.openshiftagent.api.bootstrap.v1alpha2.BootMode;
import io.openshiftagent.api.bootstrap.v1alpha2.BootstrapGroup;
import io.openshiftagent.api.bootstrap.v1alpha2.OpenshiftAssistedConfig;
import io.openshiftagent.bootstrap.config.ConfigSteps.AdoptFromGoProvider;
import io.openshiftagent.bootstrap.config.ConfigSteps.BootLiveIso;
import io.openshiftagent.bootstrap.config.ConfigSteps.CreateInfraEnv;
import io.openshiftagent.bootstrap.config.ConfigSteps.DownloadIgnition;
import io.openshiftagent.bootstrap.config.ConfigSteps.FollowIso;
import io.openshiftagent.bootstrap.config.ConfigSteps.ReattachHost;
import io.openshiftagent.bootstrap.config.ConfigSteps.Report;
import io.openshiftagent.bootstrap.config.ConfigSteps.Step;
import io.openshiftagent.bootstrap.hosts.HostDetachment;
import io.openshiftagent.bootstrap.ignition.DiscoveryIgnitionSource;
import io.openshiftagent.provider.contract.Kinds;
import io.openshiftagent.provider.reconcile.EventRecorder;
import io.openshiftagent.provider.reconcile.Futures;
import io.openshiftagent.provider.reconcile.Metadata;
import io.openshiftagent.provider.reconcile.RelevantChange;
import io.openshiftagent.provider.runtime.ControllerScope;
import java.time.Instant;
import java.util.List;

/**
 * Turns an OpenshiftAssistedConfig into an InfraEnv for its Machine and, once the host can only
 * boot into discovery, the bootstrap data Secret Cluster API waits for.
 *
 * <p>Each reconcile observes the config's world from the caches ({@link ConfigScope}), asks {@link
 * ConfigSteps} for the next step, makes that step's writes ({@link ConfigWrites}, {@link
 * DiskImageBoot}) and asks again, until a step is only to report; {@link ConfigStatus} writes the
 * conditions. Every wait is a condition reason; a watch brings the next event.
 */
// Not generation-aware: the pause and override annotations change no generation, and CAPI core
// writes our labels. The status is ours alone: our own status writes wake no reconcile. A config
// nothing owns yet is left alone, as Cluster API's kubeadm bootstrap provider does: Cluster API
// makes each config for a Machine and links the two a moment later, and that link is the event.
@ControllerConfiguration(
    name = "openshiftassistedconfig",
    finalizerName = BootstrapGroup.CONFIG_FINALIZER,
    generationAwareEventProcessing = false,
    informer =
        @Informer(
            onAddFilter = OpenshiftAssistedConfigReconciler.LinkedByClusterApi.class,
            onUpdateFilter = OpenshiftAssistedConfigReconciler.ConfigChange.class))
public class OpenshiftAssistedConfigReconciler
    implements Reconciler<OpenshiftAssistedConfig>, Cleaner<OpenshiftAssistedConfig> {
  /**
   * A config Cluster API has linked to its owner: a Machine, or a MachinePool (refused, with a
   * condition that says so); or one being deleted (the control-plane provider creates its configs
   * with our finalizer, and deletes one whose Machine it could not create).
   */
  public static final class LinkedByClusterApi implements OnAddFilter<OpenshiftAssistedConfig> {
    @Override
    public boolean accept(OpenshiftAssistedConfig config) {
      return Kinds.owningMachine(config).isPresent()
          || Kinds.owningMachinePool(config).isPresent()
          || Metadata.isDeleting(config);
    }
  }

  /** Which updates of a config matter: all but those of its status. */
  public static final class ConfigChange implements OnUpdateFilter<OpenshiftAssistedConfig> {
    @Override
    public boolean accept(OpenshiftAssistedConfig updated, OpenshiftAssistedConfig old) {
      return RelevantChange.ofMetadata(updated, old);
    }
  }

  /** More than the steps there are: adopt, reattach, InfraEnv, ISO or download, and the report. */
  static final int MAX_STEPS = 8;

  private final KubernetesClient client;
  private final ConfigCaches caches;
  private final DiskImageBoot diskImage;
  private final ConfigWrites writes;
  private final GoProviderAdoption adoption;
  private final ConfigStatus status;
  private final ConfigCleanup cleanup;
  private final BootMode defaultBootMode;

  /**
   * @param defaultBootMode the boot mode of configs that name none (DEFAULT_BOOT_MODE)
   * @param scope what this process manages: its caches hold that only
   */
  public OpenshiftAssistedConfigReconciler(
      KubernetesClient client,
      DiscoveryIgnitionSource discoveryIgnition,
      BootMode defaultBootMode,
      EventRecorder events,
      ControllerScope scope) {
    this.client = client;
    this.caches = new ConfigCaches(scope);
    this.defaultBootMode = defaultBootMode;
    this.diskImage = new DiskImageBoot(discoveryIgnition);
    this.writes =
        new ConfigWrites(client, caches, events, new HostDetachment(client), Futures.writers(8));
    this.adoption = new GoProviderAdoption(client, caches, events);
    this.status = new ConfigStatus();
    this.cleanup = new ConfigCleanup(client, caches, writes, events);
  }

  @Override
  public List<EventSource<?, OpenshiftAssistedConfig>> prepareEventSources(
      EventSourceContext<OpenshiftAssistedConfig> context) {
    return caches.eventSources(context);
  }

  @Override
  public UpdateControl<OpenshiftAssistedConfig> reconcile(
      OpenshiftAssistedConfig config, Context<OpenshiftAssistedConfig> context) {
    ConfigScope scope = observe(config);
    // Each write moves the scope past its step; a step repeated would be a bug, not a wait.
    for (int steps = 0; steps < MAX_STEPS; steps++) {
      Step step = ConfigSteps.next(scope);
      if (step instanceof Report report) {
        return status.report(config, report.outcome(), context);
      } else if (step instanceof AdoptFromGoProvider) {
        scope = adoption.adopt(scope);
      } else if (step instanceof ReattachHost) {
        scope = writes.reattachHost(scope);
      } else if (step instanceof CreateInfraEnv create) {
        ConfigWrites.Result result = writes.createInfraEnv(scope, create);
        if (result instanceof ConfigWrites.Refused refused) {
          return status.report(config, refused.outcome(), context);
        }
        scope = ((ConfigWrites.Written) result).scope();
      } else if (step instanceof BootLiveIso boot) {
        scope = writes.bootLiveIso(scope, boot.metal3Machine(), boot.isoUrl());
      } else if (step instanceof FollowIso follow) {
        scope = writes.bootIso(scope, follow.metal3Machine(), follow.isoUrl());
      } else if (step instanceof DownloadIgnition download) {
        DiskImageBoot.Result result = diskImage.download(config, download);
        if (result instanceof DiskImageBoot.Failed failed) {
          return status.report(config, failed.outcome(), context);
        }
        scope = writes.dataSecret(scope, ((DiskImageBoot.Data) result).ignition());
      } else {
        throw new IllegalStateException("unknown step " + step);
      }
    }
    throw new IllegalStateException(
        "no outcome after " + MAX_STEPS + " steps for config " + config.getMetadata().getName());
  }

  @Override
  public DeleteControl cleanup(
      OpenshiftAssistedConfig config, Context<OpenshiftAssistedConfig> context) {
    diskImage.forget(config);
    ConfigCleanup.Deletion deletion = cleanup.cleanup(observe(config));
    if (deletion.control().isRemoveFinalizer()) {
      status.forget(config);
    } else if (deletion.reason() != null) {
      status.reportDeleting(config, deletion.reason(), deletion.message(), context);
    }
    return deletion.control();
  }

  private ConfigScope observe(OpenshiftAssistedConfig config) {
    return ConfigScope.observe(
        config, caches, client, diskImage.lastFailure(config), defaultBootMode, Instant.now());
  }
}
