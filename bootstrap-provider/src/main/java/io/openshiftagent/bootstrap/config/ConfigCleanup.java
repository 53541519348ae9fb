package io.openshiftagent.bootstrap.config;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.javaoperatorsdk.operator.api.reconciler.DeleteControl;
import io.openshiftagent.api.bootstrap.v1alpha2.OpenshiftAssistedConfig;
import io.openshiftagent.api.external.OwnedFieldsPatch;
import io.openshiftagent.api.external.assisted.Agent;
import io.openshiftagent.api.external.assisted.InfraEnv;
import io.openshiftagent.api.external.capi.Machine;
import io.openshiftagent.bootstrap.names.Names;
import io.openshiftagent.bootstrap.names.Reasons;
import io.openshiftagent.provider.contract.GoProvider;
import io.openshiftagent.provider.reconcile.ClusterRefs;
import io.openshiftagent.provider.reconcile.EventRecorder;
import io.openshiftagent.provider.reconcile.Finalizers;
import io.openshiftagent.provider.reconcile.Metadata;
import io.openshiftagent.provider.reconcile.Pause;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Deleting a config: its host goes back to the baremetal-operator, then, once assisted-service has
 * taken each Agent that registered with it (its finalizer), its InfraEnv and those Agents (the
 * config waits until both are gone), then its Secrets. A control-plane config goes only with its
 * Machine, which the control-plane provider deletes. Each wait is returned with its reason, for the
 * config's Deleting condition.
 */
final class ConfigCleanup {
  /** assisted-service's Agent annotation: do not clean the installed cluster up for this host. */
  static final String SKIP_SPOKE_CLEANUP = "agent.agent-install.openshift.io/skip-spoke-cleanup";

  /** assisted-service's finalizer on an Agent: the service deregisters the host before it goes. */
  static final String AGENT_DEPROVISION_FINALIZER =
      "agent.agent-install.openshift.io/ai-deprovision";

  private static final Logger LOG = LoggerFactory.getLogger(ConfigCleanup.class);

  /**
   * How often a deleted config looks again for its Agents, which assisted-service deletes (its
   * finalizer) in a second or two, or tens of seconds when busy; this controller does not watch
   * Agents.
   */
  static final Duration AGENTS_GONE_CHECK = Duration.ofSeconds(5);

  private final KubernetesClient client;
  private final ConfigCaches caches;
  private final ConfigWrites writes;
  private final EventRecorder events;

  ConfigCleanup(
      KubernetesClient client, ConfigCaches caches, ConfigWrites writes, EventRecorder events) {
    this.client = client;
    this.caches = caches;
    this.writes = writes;
    this.events = events;
  }

  /**
   * Where a deletion stands: what to tell java-operator-sdk, and what the deletion waits for (a
   * reason and message for the Deleting condition; none when it is done or paused).
   */
  record Deletion(DeleteControl control, String reason, String message) {
    static Deletion done() {
      return new Deletion(DeleteControl.defaultDelete(), null, null);
    }

    static Deletion held() {
      return new Deletion(DeleteControl.noFinalizerRemoval(), null, null);
    }

    static Deletion waiting(String reason, String message) {
      return new Deletion(DeleteControl.noFinalizerRemoval(), reason, message);
    }

    Deletion recheckAfter(Duration delay) {
      return new Deletion(control.rescheduleAfter(delay), reason, message);
    }
  }

  Deletion cleanup(ConfigScope scope) {
    OpenshiftAssistedConfig config = scope.config();
    Optional<Machine> machine = scope.machine();
    if (scope.cluster().isPresent() && Pause.isPaused(scope.cluster().get(), config)) {
      return Deletion.held();
    }
    // Taken over from the Go provider while being deleted: its finalizer would hold it forever.
    if (!Finalizers.remove(client, config, GoProvider.CONFIG_FINALIZER)) {
      return Deletion.held();
    }
    boolean controlPlane =
        machine.map(ClusterRefs::isControlPlane).orElse(false)
            || ClusterRefs.isControlPlane(config);
    if (controlPlane && machine.isPresent() && !Metadata.isDeleting(machine.get())) {
      // The control-plane provider deletes the Machine, which then releases its config.
      String why =
          "a control-plane config is released only with its Machine "
              + Metadata.name(machine.get());
      events.warning(config, "DeletionBlocked", "Delete", why);
      return Deletion.waiting(
          Reasons.WAITING_FOR_MACHINE_DELETION,
          why + ", which the control-plane provider deletes when it scales down or replaces it");
    }
    if (machine.isPresent()) {
      writes.reattachHost(scope);
    }
    Optional<InfraEnv> infraEnv = scope.infraEnv();
    if (infraEnv.isPresent()) {
      if (!Metadata.isDeleting(infraEnv.get())) {
        List<String> untaken = untakenAgents(scope.agents().get());
        if (!untaken.isEmpty()) {
          // An Agent deleted before the service has put its finalizer on goes at once and leaves
          // its host registered and bound in the service's database, which then holds the
          // InfraEnv's deletion for good ("existing hosts bound and not installed").
          LOG.info(
              "{}: waiting for assisted-service to take Agents {} before deleting them",
              Metadata.key(config),
              untaken);
          return Deletion.waiting(
                  Reasons.WAITING_FOR_ASSISTED_SERVICE,
                  "waiting for assisted-service to take Agents "
                      + untaken
                      + " (its finalizer) before they and InfraEnv "
                      + Metadata.name(infraEnv.get())
                      + " are deleted; if assisted-service is not running, the deletion goes"
                      + " on once it runs again")
              .recheckAfter(AGENTS_GONE_CHECK);
        }
        // Its Agents too: assisted-service keeps an Agent bound to its cluster, for minutes, when
        // its InfraEnv goes; the service's own finalizer on the Agent deregisters the host. One by
        // one: a collection delete needs deletecollection, which the provider is not granted.
        scope.agents().get().forEach(this::deleteAgent);
        client.resource(infraEnv.get()).delete();
        events.normal(
            config,
            "InfraEnvDeleted",
            "Delete",
            "deleting InfraEnv " + Metadata.name(infraEnv.get()) + " and its Agents");
      }
      // Its deletion event brings us back.
      return Deletion.waiting(
          Reasons.WAITING_FOR_INFRA_ENV_DELETION,
          "waiting for InfraEnv "
              + Metadata.name(infraEnv.get())
              + " to be deleted: assisted-service's finalizer deregisters its hosts first");
    }
    // The config (and so its Machine) goes only once its Agents are gone: the host, released
    // already, may boot for another Machine at once and register under the same Agent name; an
    // Agent still being deleted then takes the new registration with it (the service's finalizer
    // can go many seconds after our delete, after the host registered again, and the host then
    // stays registered with no Agent, so no Machine could ever approve it).
    List<Agent> left = scope.agents().get();
    if (!left.isEmpty()) {
      left.stream().filter(agent -> !Metadata.isDeleting(agent)).forEach(this::deleteAgent);
      return Deletion.waiting(
              Reasons.WAITING_FOR_AGENT_DELETION,
              "waiting for Agents "
                  + left.stream().map(Metadata::name).toList()
                  + " to be deleted: assisted-service's finalizer deregisters each host first")
          .recheckAfter(AGENTS_GONE_CHECK);
    }
    String namespace = config.getMetadata().getNamespace();
    for (String secret : Set.of(Names.dataSecret(config), Names.placeholderPullSecret(config))) {
      caches.secret(namespace, secret).ifPresent(s -> client.resource(s).delete());
    }
    return Deletion.done();
  }

  /** The Agents, not being deleted, that assisted-service has not put its finalizer on yet. */
  private static List<String> untakenAgents(List<Agent> agents) {
    return agents.stream()
        .filter(
            agent ->
                !Metadata.isDeleting(agent) && !Finalizers.has(agent, AGENT_DEPROVISION_FINALIZER))
        .map(Metadata::name)
        .toList();
  }

  /**
   * Deletes an Agent, telling assisted-service to leave the installed cluster alone: Cluster API's
   * Machine controller drains and deletes the Node itself. Without it the service's finalizer
   * removes the Node through the installed cluster's admin kubeconfig, which does not exist before
   * the installation: the Agent of a cluster deleted while installing would never go.
   */
  private void deleteAgent(Agent agent) {
    if (!"true".equals(Metadata.annotation(agent, SKIP_SPOKE_CLEANUP))) {
      new OwnedFieldsPatch()
          .set("true", "metadata", "annotations", SKIP_SPOKE_CLEANUP)
          .applyTo(client, agent);
    }
    client.resource(agent).delete();
  }
}
