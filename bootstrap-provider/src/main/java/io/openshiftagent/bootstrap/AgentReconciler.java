package io.openshiftagent.bootstrap;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.javaoperatorsdk.operator.api.config.informer.Informer;
import io.javaoperatorsdk.operator.api.config.informer.InformerEventSourceConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.ControllerConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.EventSourceContext;
import io.javaoperatorsdk.operator.api.reconciler.Reconciler;
import io.javaoperatorsdk.operator.api.reconciler.UpdateControl;
import io.javaoperatorsdk.operator.processing.event.ResourceID;
import io.javaoperatorsdk.operator.processing.event.source.EventSource;
import io.javaoperatorsdk.operator.processing.event.source.filter.OnUpdateFilter;
import io.javaoperatorsdk.operator.processing.event.source.informer.InformerEventSource;
import io.openshiftagent.api.bootstrap.v1alpha2.BootstrapGroup;
import io.openshiftagent.api.bootstrap.v1alpha2.OpenshiftAssistedConfig;
import io.openshiftagent.api.external.ExternalKinds;
import io.openshiftagent.api.external.OwnedFieldsPatch;
import io.openshiftagent.api.external.assisted.Agent;
import io.openshiftagent.api.external.assisted.InfraEnv;
import io.openshiftagent.api.external.capi.Cluster;
import io.openshiftagent.api.external.capi.Machine;
import io.openshiftagent.api.external.metal3.BareMetalHost;
import io.openshiftagent.api.external.metal3.Metal3Machine;
import io.openshiftagent.provider.EventRecorder;
import io.openshiftagent.provider.OwnerReferences;
import io.openshiftagent.provider.Pause;
import io.openshiftagent.provider.RelevantChange;
import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Gives each Agent of our InfraEnvs what its Machine needs: role, hostname, installer arguments,
 * install-time ignition and node labels, and approves at most one Agent per InfraEnv. Once the
 * installer has written the disk and reboots the host, it detaches the BareMetalHost so the
 * baremetal-operator never boots the discovery ISO on it again.
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

  /**
   * The install stages after which the host must boot from its disk (assisted-service's BMAC
   * detaches BareMetalHosts at the same stages).
   */
  static final Set<String> BOOTS_FROM_DISK = Set.of("Rebooting", "Joined", "Done", "Failed");

  static final String AGENTS_BY_CONFIG = "agents-by-config";
  static final String AGENTS_BY_CLUSTER = "agents-by-cluster";

  /** A conflicting write of the Agent's may have changed only what we do not wake up for. */
  static final Duration CONFLICT_RETRY = Duration.ofMillis(100);

  private final KubernetesClient client;
  private final EventRecorder events;
  private InformerEventSource<Machine, Agent> machines;
  private InformerEventSource<Metal3Machine, Agent> metal3Machines;
  private InformerEventSource<InfraEnv, Agent> infraEnvs;
  private InformerEventSource<OpenshiftAssistedConfig, Agent> configs;
  private InformerEventSource<Cluster, Agent> clusters;

  /** Host UIDs by Agent UID and host: the most recent few thousand Agents' (see {@link #host}). */
  private final Map<String, String> hostUids = recentAgents();

  /**
   * Agent UID and host reference of each host seen detached once the Agent booted from disk: the
   * most recent few thousand Agents' (see {@link #host}).
   */
  private final Set<String> seenDetached = Collections.newSetFromMap(recentAgents());

  private static <V> Map<String, V> recentAgents() {
    return Collections.synchronizedMap(
        new LinkedHashMap<>() {
          @Override
          protected boolean removeEldestEntry(Map.Entry<String, V> eldest) {
            return size() > 10_000;
          }
        });
  }

  /**
   * Which Agent updates matter: its spec, labels and annotations, and whether it boots from disk
   * (then its host is detached). The install progress in between and the inventory do not.
   */
  public static final class RelevantAgentChange implements OnUpdateFilter<Agent> {
    @Override
    public boolean accept(Agent updated, Agent old) {
      return RelevantChange.ofMetadataOr(updated, old, AgentReconciler::bootsFromDisk);
    }
  }

  public AgentReconciler(KubernetesClient client, EventRecorder events) {
    this.client = client;
    this.events = events;
  }

  /**
   * Machines are cached to map their Metal3Machines back to Agents: the Metal3Machine names the
   * BareMetalHost whose UID the Node is labelled with, and Metal3 may record it only after the host
   * registered. InfraEnvs are cached only to be read without a request; Clusters and configs also
   * bring back their Agents when a pause ends.
   */
  @Override
  public List<EventSource<?, Agent>> prepareEventSources(EventSourceContext<Agent> context) {
    context
        .getPrimaryCache()
        .addIndexer(
            AGENTS_BY_CONFIG,
            agent ->
                Optional.ofNullable(label(agent, Names.CONFIG_LABEL))
                    .map(config -> List.of(agent.getMetadata().getNamespace() + "/" + config))
                    .orElse(List.of()));
    machines =
        new InformerEventSource<>(
            InformerEventSourceConfiguration.from(Machine.class, Agent.class)
                .withName("machines")
                .withSecondaryToPrimaryMapper(machine -> Set.of())
                .build(),
            context);
    machines.addIndexers(
        Map.of(
            OpenshiftAssistedConfigReconciler.MACHINES_BY_INFRASTRUCTURE,
            Hosts::infrastructureKey));
    metal3Machines =
        new InformerEventSource<>(
            InformerEventSourceConfiguration.from(Metal3Machine.class, Agent.class)
                .withName("metal3machines")
                .withSecondaryToPrimaryMapper(m3m -> agentsOf(context, m3m))
                // Only the host it names matters here.
                .withOnUpdateFilter(
                    (updated, old) ->
                        !Objects.equals(
                            annotation(updated, ExternalKinds.BAREMETALHOST_ANNOTATION),
                            annotation(old, ExternalKinds.BAREMETALHOST_ANNOTATION)))
                .build(),
            context);
    infraEnvs =
        new InformerEventSource<>(
            InformerEventSourceConfiguration.from(InfraEnv.class, Agent.class)
                .withName("infraenvs")
                .withLabelSelector(Names.CONFIG_LABEL)
                .withSecondaryToPrimaryMapper(infraEnv -> Set.of())
                .build(),
            context);
    context
        .getPrimaryCache()
        .addIndexer(
            AGENTS_BY_CLUSTER,
            agent ->
                Optional.ofNullable(label(agent, ExternalKinds.CLUSTER_NAME_LABEL))
                    .map(cluster -> List.of(agent.getMetadata().getNamespace() + "/" + cluster))
                    .orElse(List.of()));
    // Pause ends with an event of the Cluster (spec.paused) or of the config (annotation): the
    // Agents then get what they missed while paused.
    clusters =
        new InformerEventSource<>(
            InformerEventSourceConfiguration.from(Cluster.class, Agent.class)
                .withName("clusters")
                .withSecondaryToPrimaryMapper(
                    cluster -> agentsByIndex(context, AGENTS_BY_CLUSTER, cluster))
                .build(),
            context);
    configs =
        new InformerEventSource<>(
            InformerEventSourceConfiguration.from(OpenshiftAssistedConfig.class, Agent.class)
                .withName("configs")
                .withSecondaryToPrimaryMapper(
                    config -> agentsByIndex(context, AGENTS_BY_CONFIG, config))
                .build(),
            context);
    return List.of(machines, metal3Machines, infraEnvs, clusters, configs);
  }

  private static Set<ResourceID> agentsByIndex(
      EventSourceContext<Agent> context, String index, HasMetadata object) {
    return context
        .getPrimaryCache()
        .byIndex(index, object.getMetadata().getNamespace() + "/" + object.getMetadata().getName())
        .stream()
        .map(ResourceID::fromResource)
        .collect(Collectors.toSet());
  }

  private Set<ResourceID> agentsOf(EventSourceContext<Agent> context, Metal3Machine m3m) {
    return machines
        .byIndex(OpenshiftAssistedConfigReconciler.MACHINES_BY_INFRASTRUCTURE, Hosts.key(m3m))
        .stream()
        .map(
            machine ->
                machine.getSpec().bootstrap == null ? null : machine.getSpec().bootstrap.configRef)
        .filter(ref -> ref != null)
        .flatMap(
            ref ->
                context
                    .getPrimaryCache()
                    .byIndex(AGENTS_BY_CONFIG, m3m.getMetadata().getNamespace() + "/" + ref.name)
                    .stream())
        .map(ResourceID::fromResource)
        .collect(Collectors.toSet());
  }

  @Override
  public UpdateControl<Agent> reconcile(Agent agent, Context<Agent> context) {
    Optional<Owners> owners = owners(agent);
    if (owners.isEmpty()) {
      LOG.debug("Agent {} belongs to no Machine of ours", agent.getMetadata().getName());
      return UpdateControl.noUpdate();
    }
    Owners o = owners.get();
    Cluster cluster =
        clusters
            .get(
                new ResourceID(
                    o.machine.getSpec().clusterName, o.machine.getMetadata().getNamespace()))
            .orElse(null);
    if (Pause.isPaused(cluster, o.config)) {
      return UpdateControl.noUpdate();
    }
    Optional<Host> host = Hosts.isMetal3(o.machine) ? host(o.machine, agent) : Optional.empty();
    if (host.isEmpty() && Hosts.isMetal3(o.machine)) {
      // Without the host's UID the Node could not be matched to its Machine: not approved yet.
      // The Metal3Machine's event brings us back once Metal3 has recorded its host.
      return UpdateControl.noUpdate();
    }
    String hostUid = host.map(Host::uid).orElse(null);
    AgentDecision.DesiredAgent desired = AgentDecision.desired(o.config, o.machine, hostUid);
    Optional<String> tooLarge =
        InstallIgnition.tooLargeForAnAgent(desired.ignitionConfigOverrides());
    if (tooLarge.isPresent()) {
      // The override annotation grew after the config was checked: the write would fail forever.
      refuse(agent, Reasons.INSTALL_IGNITION_TOO_LARGE, "not approved: " + tooLarge.get());
      return UpdateControl.noUpdate();
    }
    OwnedFieldsPatch patch = AgentDecision.patch(agent, desired);
    boolean approving = !Boolean.TRUE.equals(agent.getSpec().approved) && approve(o, agent, patch);
    if (!patch.isEmpty()) {
      try {
        patch.applyTo(client, agent);
      } catch (KubernetesClientException e) {
        if (e.getCode() != 409) {
          throw e;
        }
        // Changed meanwhile, perhaps only in what wakes no reconcile: look again shortly.
        return UpdateControl.<Agent>noUpdate().rescheduleAfter(CONFLICT_RETRY);
      }
      if (approving) {
        String machine = o.machine.getMetadata().getName();
        LOG.info("approved Agent {} for Machine {}", agent.getMetadata().getName(), machine);
        events.normal(
            agent,
            "Approved",
            "Approve",
            "approved as " + desired.role() + " of Machine " + machine);
      }
    }
    // A Machine being deleted needs its host attached again (see the config controller).
    host.flatMap(Host::current)
        .filter(h -> !Hosts.isDetached(h))
        .filter(h -> !OpenshiftAssistedConfigReconciler.isDeleting(o.machine))
        .ifPresent(this::detach);
    return UpdateControl.noUpdate();
  }

  /**
   * The Machine's BareMetalHost as far as an Agent needs it: its UID, which never changes and so is
   * read once per Agent, and, once the Agent boots from disk, the host as it is now (to detach it).
   */
  private record Host(String uid, Optional<BareMetalHost> current) {}

  /** The host the Machine's Metal3Machine names, or empty while Metal3 has not recorded one. */
  private Optional<Host> host(Machine machine, Agent agent) {
    Optional<String> reference =
        metal3Machines
            .get(
                new ResourceID(
                    machine.getSpec().infrastructureRef.name, machine.getMetadata().getNamespace()))
            .flatMap(Hosts::hostReference);
    if (reference.isEmpty()) {
      return Optional.empty();
    }
    String key = agent.getMetadata().getUid() + " " + reference.get();
    String knownUid = hostUids.get(key);
    boolean detaching = bootsFromDisk(agent) && !seenDetached.contains(key);
    if (knownUid != null && !detaching) {
      return Optional.of(new Host(knownUid, Optional.empty()));
    }
    Optional<BareMetalHost> current = Hosts.get(client, reference.get());
    current.ifPresent(h -> hostUids.put(key, h.getMetadata().getUid()));
    // Once seen detached (by us, just below, or already), the host needs no more reading: the real
    // baremetal-operator and CAPM3 change hosts and Metal3Machines often, and each change of a
    // Machine or Metal3Machine reconciles the Agent again (15 reads per Machine in the benchmark).
    current.filter(Hosts::isDetached).ifPresent(h -> seenDetached.add(key));
    return current.map(
        h -> new Host(h.getMetadata().getUid(), detaching ? Optional.of(h) : Optional.empty()));
  }

  /**
   * Adds the approval to {@code patch} if this Agent holds its InfraEnv's approval; otherwise,
   * once, the reason it is not approved (with an Event).
   */
  private boolean approve(Owners o, Agent agent, OwnedFieldsPatch patch) {
    String holder = claimApproval(o.infraEnv, agent);
    if (agent.getMetadata().getName().equals(holder)) {
      patch.set(true, "spec", "approved");
      patch.requireResourceVersion(agent.getMetadata().getResourceVersion());
      return true;
    }
    if (annotation(agent, Names.NOT_APPROVED_ANNOTATION) == null) {
      String why =
          "InfraEnv "
              + o.infraEnv.getMetadata().getName()
              + " already has approved Agent "
              + holder
              + " for Machine "
              + o.machine.getMetadata().getName()
              + "; a second host booted the same discovery image";
      patch.set(why, "metadata", "annotations", Names.NOT_APPROVED_ANNOTATION);
      events.warning(agent, "NotApproved", "Approve", why);
    }
    return false;
  }

  /** Records once, on the Agent and as an Event, why it is not approved. */
  private void refuse(Agent agent, String reason, String why) {
    if (why.equals(annotation(agent, Names.NOT_APPROVED_ANNOTATION))) {
      return;
    }
    new OwnedFieldsPatch()
        .set(why, "metadata", "annotations", Names.NOT_APPROVED_ANNOTATION)
        .applyTo(client, agent);
    events.warning(agent, reason, "Approve", why);
  }

  /**
   * The Agent holding the InfraEnv's approval, claiming it for {@code agent} when nobody (or an
   * Agent that no longer exists) holds it. The claim is a compare-and-swap on the InfraEnv's
   * resourceVersion, so two concurrent reconciles cannot both win.
   */
  private String claimApproval(InfraEnv infraEnv, Agent agent) {
    String holder = annotation(infraEnv, Names.APPROVED_AGENT_ANNOTATION);
    if (holder != null && (holder.equals(agent.getMetadata().getName()) || exists(agent, holder))) {
      return holder;
    }
    Optional<String> approvedElsewhere = otherApprovedAgent(infraEnv, agent);
    if (approvedElsewhere.isPresent()) {
      // Approved by someone else (a person, or before the claim existed): that one is the host.
      return approvedElsewhere.get();
    }
    try {
      new OwnedFieldsPatch()
          .set(
              agent.getMetadata().getName(),
              "metadata",
              "annotations",
              Names.APPROVED_AGENT_ANNOTATION)
          .requireResourceVersion(infraEnv.getMetadata().getResourceVersion())
          .applyTo(client, infraEnv);
      return agent.getMetadata().getName();
    } catch (KubernetesClientException e) {
      if (e.getCode() != 409) {
        throw e;
      }
      InfraEnv latest = client.resource(infraEnv).get();
      return latest == null ? null : annotation(latest, Names.APPROVED_AGENT_ANNOTATION);
    }
  }

  private Optional<String> otherApprovedAgent(InfraEnv infraEnv, Agent agent) {
    return client
        .resources(Agent.class)
        .inNamespace(agent.getMetadata().getNamespace())
        .withLabel(ExternalKinds.INFRAENV_LABEL, infraEnv.getMetadata().getName())
        .list()
        .getItems()
        .stream()
        .filter(other -> !other.getMetadata().getName().equals(agent.getMetadata().getName()))
        .filter(other -> other.getSpec() != null && Boolean.TRUE.equals(other.getSpec().approved))
        .map(other -> other.getMetadata().getName())
        .findFirst();
  }

  private boolean exists(Agent agent, String name) {
    return client
            .resources(Agent.class)
            .inNamespace(agent.getMetadata().getNamespace())
            .withName(name)
            .get()
        != null;
  }

  private void detach(BareMetalHost host) {
    new OwnedFieldsPatch()
        .set(Names.DETACHED_BY, "metadata", "annotations", Names.BMH_DETACHED_ANNOTATION)
        .applyTo(client, host);
    events.normal(
        host,
        "Detached",
        "Detach",
        "the installer wrote the disk; detached so the discovery ISO is not booted again");
  }

  static boolean bootsFromDisk(Agent agent) {
    return agent.getStatus() != null
        && agent.getStatus().progress != null
        && BOOTS_FROM_DISK.contains(agent.getStatus().progress.currentStage);
  }

  /** Agent → InfraEnv (its label) → our config and the Machine (the InfraEnv's owners). */
  private Optional<Owners> owners(Agent agent) {
    String namespace = agent.getMetadata().getNamespace();
    String infraEnvName = label(agent, ExternalKinds.INFRAENV_LABEL);
    if (infraEnvName == null) {
      return Optional.empty();
    }
    InfraEnv infraEnv = infraEnvs.get(new ResourceID(infraEnvName, namespace)).orElse(null);
    if (infraEnv == null) {
      return Optional.empty();
    }
    var configRef =
        OwnerReferences.find(
            infraEnv,
            BootstrapGroup.GROUP,
            OpenshiftAssistedConfigReconciler.OPENSHIFT_ASSISTED_CONFIG);
    var machineRef = OwnerReferences.find(infraEnv, ExternalKinds.CAPI_GROUP, "Machine");
    if (configRef.isEmpty() || machineRef.isEmpty()) {
      return Optional.empty();
    }
    String configName = configRef.get().getName();
    // An approval cannot be taken back: it is decided on the config as it is now (its overrides may
    // have changed just before the host registered), afterwards the cache will do.
    OpenshiftAssistedConfig config =
        Boolean.TRUE.equals(agent.getSpec().approved)
            ? configs.get(new ResourceID(configName, namespace)).orElse(null)
            : client
                .resources(OpenshiftAssistedConfig.class)
                .inNamespace(namespace)
                .withName(configName)
                .get();
    Machine machine =
        machines.get(new ResourceID(machineRef.get().getName(), namespace)).orElse(null);
    if (config == null || machine == null) {
      return Optional.empty();
    }
    return Optional.of(new Owners(infraEnv, config, machine));
  }

  private static String label(io.fabric8.kubernetes.api.model.HasMetadata o, String key) {
    Map<String, String> labels = o.getMetadata().getLabels();
    return labels == null ? null : labels.get(key);
  }

  private static String annotation(io.fabric8.kubernetes.api.model.HasMetadata o, String key) {
    Map<String, String> annotations = o.getMetadata().getAnnotations();
    return annotations == null ? null : annotations.get(key);
  }

  private record Owners(InfraEnv infraEnv, OpenshiftAssistedConfig config, Machine machine) {}
}
