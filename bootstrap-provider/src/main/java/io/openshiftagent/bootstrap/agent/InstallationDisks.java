package io.openshiftagent.bootstrap.agent;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.openshiftagent.api.bootstrap.v1alpha2.OpenshiftAssistedConfig;
import io.openshiftagent.api.external.OwnedFieldsPatch;
import io.openshiftagent.api.external.assisted.Agent;
import io.openshiftagent.api.external.assisted.AgentStatus;
import io.openshiftagent.api.external.metal3.BareMetalHost;
import io.openshiftagent.bootstrap.names.Names;
import io.openshiftagent.bootstrap.names.Reasons;
import io.openshiftagent.provider.reconcile.EventRecorder;
import io.openshiftagent.provider.reconcile.Metadata;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Applies {@link InstallationDisk} to an Agent being approved: the chosen disk goes into the patch
 * that approves it; a host whose hints match no disk is not approved, and the user is told on the
 * config, where they look, and through it on the Machine (Cluster API mirrors the config's Ready).
 * The config's status has one writer, the config controller: this controller hands it the message
 * in an annotation of the config, which wakes it ({@link Names#NO_INSTALLATION_DISK_ANNOTATION}),
 * with one Warning Event when the message is new. The annotation goes once the Agent is approved.
 */
final class InstallationDisks {
  private static final Logger LOG = LoggerFactory.getLogger(InstallationDisks.class);

  private final KubernetesClient client;
  private final AgentCaches caches;
  private final EventRecorder events;

  InstallationDisks(KubernetesClient client, AgentCaches caches, EventRecorder events) {
    this.client = client;
    this.caches = caches;
    this.events = events;
  }

  /**
   * Whether the Agent may be approved now, as far as its disk goes; if so, the disk its host's
   * hints chose is added to {@code patch} (unless the Agent names it already). Otherwise why is
   * recorded on {@code config}, the config as stored now.
   */
  boolean approvable(
      Agent agent,
      Optional<BareMetalHost> host,
      OpenshiftAssistedConfig config,
      OwnedFieldsPatch patch) {
    InstallationDisk.Choice choice = choose(agent, host);
    if (choice instanceof InstallationDisk.Chosen chosen) {
      // The hints decide, as with BMAC, also over a disk someone set on the Agent before.
      if (!chosen.diskId().equals(agent.getSpec().installationDiskID)) {
        patch.set(chosen.diskId(), "spec", "installation_disk_id");
      }
      return true;
    }
    if (choice instanceof InstallationDisk.AwaitingInventory) {
      return false;
    }
    if (choice instanceof InstallationDisk.NoMatch noMatch) {
      tell(
          config,
          "Agent "
              + Metadata.name(agent)
              + " is not approved: "
              + noMatch.why()
              + " (BareMetalHost "
              + Metadata.key(host.orElseThrow())
              + "); it is approved once a disk matches its spec.rootDeviceHints");
      return false;
    }
    return true; // no hints: the installer's own choice
  }

  /**
   * Whether the host's hints wait for the Agent's inventory; its arrival is an update of the Agent
   * that wakes it (RelevantAgentChange).
   */
  boolean awaitingInventory(Agent agent, Optional<BareMetalHost> host) {
    if (choose(agent, host) instanceof InstallationDisk.AwaitingInventory) {
      LOG.info("Agent {}: waiting for its inventory to choose its disk", Metadata.name(agent));
      return true;
    }
    return false;
  }

  private static InstallationDisk.Choice choose(Agent agent, Optional<BareMetalHost> host) {
    return InstallationDisk.choose(
        host.map(h -> h.getSpec() == null ? null : h.getSpec().rootDeviceHints).orElse(null),
        disks(agent));
  }

  /** The Agent is approved: what was told of its disk is no longer true. */
  void approved(OpenshiftAssistedConfig config) {
    if (Metadata.annotation(config, Names.NO_INSTALLATION_DISK_ANNOTATION) != null) {
      written(
          config,
          new OwnedFieldsPatch()
              .set(null, "metadata", "annotations", Names.NO_INSTALLATION_DISK_ANNOTATION)
              .applyTo(client, config));
    }
  }

  /** Records {@code why} on the config, with one Event, unless it says so already. */
  private void tell(OpenshiftAssistedConfig config, String why) {
    if (why.equals(Metadata.annotation(config, Names.NO_INSTALLATION_DISK_ANNOTATION))) {
      return;
    }
    written(
        config,
        new OwnedFieldsPatch()
            .set(why, "metadata", "annotations", Names.NO_INSTALLATION_DISK_ANNOTATION)
            .applyTo(client, config));
    events.warning(config, Reasons.NO_DISK_MATCHES_ROOT_DEVICE_HINTS, "Approve", why);
  }

  private void written(OpenshiftAssistedConfig before, OpenshiftAssistedConfig patched) {
    caches.written(before, patched);
  }

  /**
   * The disks the Agent reported, or null while it reported none. Its cache keeps them only while
   * it is not approved (AgentCaches).
   */
  static List<AgentStatus.Disk> disks(Agent agent) {
    AgentStatus status = agent.getStatus();
    return status == null
            || status.inventory == null
            || status.inventory.disks == null
            || status.inventory.disks.isEmpty()
        ? null
        : status.inventory.disks;
  }
}
