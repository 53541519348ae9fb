package io.openshiftagent.bootstrap.agent;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.cache.ItemStore;
import io.javaoperatorsdk.operator.api.config.informer.Informer;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.ControllerConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.EventSourceContext;
import io.javaoperatorsdk.operator.api.reconciler.Reconciler;
import io.javaoperatorsdk.operator.api.reconciler.UpdateControl;
import io.javaoperatorsdk.operator.processing.event.source.EventSource;
import io.javaoperatorsdk.operator.processing.event.source.filter.OnUpdateFilter;
import io.openshiftagent.api.bootstrap.v1alpha2.OpenshiftAssistedConfig;
import io.openshiftagent.api.external.OwnedFieldsPatch;
import io.openshiftagent.api.external.assisted.Agent;
import io.openshiftagent.api.external.metal3.BareMetalHost;
import io.openshiftagent.bootstrap.hosts.HostDetachment;
import io.openshiftagent.bootstrap.hosts.Hosts;
import io.openshiftagent.bootstrap.identity.HostMetadata;
import io.openshiftagent.bootstrap.names.Names;
import io.openshiftagent.provider.reconcile.EventRecorder;
import io.openshiftagent.provider.reconcile.Metadata;
import io.openshiftagent.provider.reconcile.Pause;
import io.openshiftagent.provider.reconcile.RelevantChange;
import io.openshiftagent.provider.reconcile.Writes;
import io.openshiftagent.provider.runtime.ControllerScope;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Gives each Agent of our InfraEnvs what its Machine needs: role, hostname, installer arguments,
 * install-time ignition and node labels ({@link AgentDecision}), and approves at most one Agent per
 * InfraEnv ({@link Approval}, claimed by {@link ApprovalClaims}), on the disk its BareMetalHost's
 * rootDeviceHints choose ({@link InstallationDisks}). Once the installer has written the disk and
 * reboots the host, it detaches the BareMetalHost ({@link HostDetachment}).
 *
 * <p>Only Agents carrying our config label (set through the InfraEnv's agentLabels) are watched, so
 * foreign Agents never reach this reconciler.
 */
@ControllerConfiguration(
    name = "agent",
    informer =
        @Informer(
            labelSelector = Names.CONFIG_LABEL,
            onUpdateFilter = AgentReconciler.RelevantAgentChange.class),
    generationAwareEventProcessing = false)
public class AgentReconciler implements Reconciler<Agent> {
  private static final Logger LOG = LoggerFactory.getLogger(AgentReconciler.class);

  /** How soon a detachment refused for a changed host is tried again, from the cache then. */
  static final Duration HOST_CHANGED_RETRY = Duration.ofMillis(500);

  private final KubernetesClient client;
  private final EventRecorder events;
  private final HostDetachment hosts;
  private final AgentCaches caches;
  private final ApprovalClaims claims;
  private final InstallationDisks disks;
  private final HostValidations validations;

  /**
   * Host metadata by Agent UID and host (neither changes), the most recent few thousand Agents'
   * (see AgentScope).
   */
  private final Map<String, HostMetadata> hostMetadata = mostRecent();

  /** A thread-safe map that keeps its 10,000 most recently added entries. */
  private static <V> Map<String, V> mostRecent() {
    return Collections.synchronizedMap(
        new LinkedHashMap<>() {
          @Override
          protected boolean removeEldestEntry(Map.Entry<String, V> eldest) {
            return size() > 10_000;
          }
        });
  }

  /**
   * Which Agent updates matter: its spec, labels and annotations, whether it boots from disk (then
   * its host is detached), and, while it is not approved, its disks (its host's hints choose one).
   * The install progress in between and the rest of the inventory do not.
   */
  public static final class RelevantAgentChange implements OnUpdateFilter<Agent> {
    @Override
    public boolean accept(Agent updated, Agent old) {
      return RelevantChange.ofMetadataOr(
          updated,
          old,
          a ->
              Arrays.asList(
                  InstallStage.bootsFromDisk(a),
                  InstallationDisks.disks(a),
                  HostValidations.validated(a)
                      .map(c -> c.getStatus() + c.getMessage())
                      .orElse(null)));
    }
  }

  /** The store of this controller's cache of Agents: what it reads of them, no more. */
  public static ItemStore<Agent> cacheStore() {
    return AgentCaches.agentStore();
  }

  public AgentReconciler(KubernetesClient client, EventRecorder events, ControllerScope scope) {
    this.caches = new AgentCaches(scope);
    this.client = client;
    this.events = events;
    this.hosts = new HostDetachment(client);
    this.claims = new ApprovalClaims(client, caches);
    this.disks = new InstallationDisks(client, caches, events);
    this.validations = new HostValidations(client, caches, events);
  }

  @Override
  public List<EventSource<?, Agent>> prepareEventSources(EventSourceContext<Agent> context) {
    return caches.eventSources(context);
  }

  @Override
  public UpdateControl<Agent> reconcile(Agent agent, Context<Agent> context) {
    Optional<AgentScope> observed = AgentScope.observe(agent, caches, client, hostMetadata);
    if (observed.isEmpty()) {
      LOG.debug("Agent {} belongs to no Machine of ours", agent.getMetadata().getName());
      return UpdateControl.noUpdate();
    }
    AgentScope scope = observed.get();
    if (Pause.isPaused(scope.clusterOrNull(), scope.config())) {
      return UpdateControl.noUpdate();
    }
    boolean metal3 = Hosts.isMetal3(scope.machine());
    Optional<BareMetalHost> host = metal3 ? scope.host() : Optional.empty();
    if (host.isEmpty() && metal3) {
      // Without the host's UID the Node could not be matched to its Machine: not approved yet.
      // The Metal3Machine's or the host's event brings us back once CAPM3 has claimed it.
      return UpdateControl.noUpdate();
    }
    // A Metal3 host's metadata is known here: its name, labels and provider ID are resolved now.
    Optional<HostMetadata> metadata = host.flatMap(scope::hostMetadata);
    if (metal3 && metadata.isEmpty()) {
      LOG.info(
          "Agent {}: waiting for the metaData Secret of Metal3Machine {}",
          Metadata.name(agent),
          scope.machine().getSpec().infrastructureRef.name);
      return UpdateControl.noUpdate();
    }
    Optional<AgentDecision.DesiredAgent> desired =
        decide(scope, scope.config(), host, metadata, context);
    if (desired.isEmpty()) {
      return UpdateControl.noUpdate();
    }
    OwnedFieldsPatch patch = AgentDecision.patch(agent, desired.get());
    boolean approving = false;
    OpenshiftAssistedConfig decidedOn = scope.config();
    // Hints can choose a disk only from the Agent's inventory: until it comes, nothing is claimed.
    if (!Boolean.TRUE.equals(agent.getSpec().approved) && !disks.awaitingInventory(agent, host)) {
      ApprovalClaims.Claim claim = claims.claim(scope);
      if (claim.retry()) {
        // The config changed since the cache saw it, and again since we read it: look again soon.
        return UpdateControl.<Agent>noUpdate().rescheduleAfter(HOST_CHANGED_RETRY);
      }
      if (Approval.approves(Metadata.name(agent), claim.holder())) {
        // An approval cannot be taken back: it is decided on the config as it is stored now, which
        // the claim proved (from the cache alone, an override added a moment before the host
        // registered was missed and a too-large install ignition approved: BootstrapFlowTest).
        OpenshiftAssistedConfig current = claim.config();
        if (current == null || Pause.isPaused(scope.clusterOrNull(), current)) {
          return UpdateControl.noUpdate(); // its deletion or pause event is on the way
        }
        if (current != scope.config()) {
          desired = decide(scope, current, host, metadata, context);
          if (desired.isEmpty()) {
            return UpdateControl.noUpdate();
          }
        }
        // Not fenced on the Agent's version (a conflict only makes patchPrimary write it again):
        // which Agent is approved is fenced by the claim on the config, and what else the patch
        // sets is recomputed at every change of the Agent.
        patch = AgentDecision.patch(agent, desired.get());
        if (disks.approvable(agent, host, current, patch)) {
          patch.set(true, "spec", "approved");
          approving = true;
          decidedOn = current;
        }
      } else {
        notApproved(scope, claim.holder(), patch);
      }
    }
    if (!patch.isEmpty()) {
      // Read back from the cache until its event comes (assisted-service updates an Agent's
      // status while it registers): an approval is written once.
      Writes.patchPrimary(context, agent, patch);
      if (approving) {
        // No Event: the Agent's spec.approved and its config's claim annotation record it.
        LOG.info(
            "approved Agent {} as {} of Machine {}",
            Metadata.name(agent),
            desired.get().role(),
            Metadata.name(scope.machine()));
      }
    }
    if (approving || Boolean.TRUE.equals(agent.getSpec().approved)) {
      disks.approved(decidedOn);
    }
    // A Machine being deleted needs its host attached again (see the config controller).
    Optional<BareMetalHost> toDetach =
        host.filter(
            h ->
                InstallStage.bootsFromDisk(agent)
                    && HostDetachment.needed(h, Metadata.isDeleting(scope.machine())));
    if (toDetach.isPresent() && !hosts.detach(toDetach.get())) {
      // Changed since the cache saw it (perhaps detached by someone else): look again shortly.
      return UpdateControl.<Agent>noUpdate().rescheduleAfter(HOST_CHANGED_RETRY);
    }
    UpdateControl<Agent> done = UpdateControl.noUpdate();
    return validations
        .report(agent, scope.config(), Instant.now())
        .map(done::rescheduleAfter)
        .orElse(done);
  }

  /**
   * What the Agent must say according to {@code config}, or empty when that is refused: the refusal
   * is recorded on the Agent.
   */
  private Optional<AgentDecision.DesiredAgent> decide(
      AgentScope scope,
      OpenshiftAssistedConfig config,
      Optional<BareMetalHost> host,
      Optional<HostMetadata> metadata,
      Context<Agent> context) {
    AgentDecision.Decision decision =
        AgentDecision.decide(
            config,
            scope.machine(),
            metadata,
            host.map(h -> h.getMetadata().getUid()).orElse(null));
    if (decision instanceof AgentDecision.Refused refused) {
      refuse(scope.agent(), context, refused);
      return Optional.empty();
    }
    return Optional.of(((AgentDecision.Desired) decision).agent());
  }

  /** Adds to {@code patch}, once, why the Agent is not approved (with an Event). */
  private void notApproved(AgentScope scope, String holder, OwnedFieldsPatch patch) {
    Agent agent = scope.agent();
    if (Metadata.annotation(agent, Names.NOT_APPROVED_ANNOTATION) == null) {
      String why =
          Approval.notApprovedBecause(
              Metadata.name(scope.infraEnv()), holder, Metadata.name(scope.machine()));
      patch.set(why, "metadata", "annotations", Names.NOT_APPROVED_ANNOTATION);
      events.warning(agent, "NotApproved", "Approve", why);
    }
  }

  /** Records once, on the Agent and as an Event, why it is not approved. */
  private void refuse(Agent agent, Context<Agent> context, AgentDecision.Refused refused) {
    if (refused.why().equals(Metadata.annotation(agent, Names.NOT_APPROVED_ANNOTATION))) {
      return;
    }
    Writes.patchPrimary(
        context,
        agent,
        new OwnedFieldsPatch()
            .set(refused.why(), "metadata", "annotations", Names.NOT_APPROVED_ANNOTATION));
    events.warning(agent, refused.reason(), "Approve", refused.why());
  }
}
