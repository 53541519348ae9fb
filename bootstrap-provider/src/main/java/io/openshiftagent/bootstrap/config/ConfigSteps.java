package io.openshiftagent.bootstrap.config;

import io.openshiftagent.api.bootstrap.v1alpha2.OpenshiftAssistedConfig;
import io.openshiftagent.api.external.assisted.AgentClusterInstall;
import io.openshiftagent.api.external.capi.Cluster;
import io.openshiftagent.api.external.capi.Machine;
import io.openshiftagent.api.external.metal3.Metal3Machine;
import io.openshiftagent.bootstrap.config.ConfigStatus.Outcome;
import io.openshiftagent.bootstrap.identity.NodeIdentity;
import io.openshiftagent.bootstrap.ignition.InstallIgnition;
import io.openshiftagent.bootstrap.ignition.JsonDocuments;
import io.openshiftagent.bootstrap.names.Names;
import io.openshiftagent.bootstrap.names.Reasons;
import io.openshiftagent.provider.contract.GoProvider;
import io.openshiftagent.provider.contract.InstallerStates;
import io.openshiftagent.provider.reconcile.ClusterRefs;
import io.openshiftagent.provider.reconcile.Finalizers;
import io.openshiftagent.provider.reconcile.Metadata;
import io.openshiftagent.provider.reconcile.Pause;
import java.util.Optional;

/**
 * The next step of a config, decided from its {@link ConfigScope} alone: the prerequisites in the
 * order they must be met (a Machine, not a MachinePool; Cluster, not paused, taken over from the Go
 * provider, not deleting, infrastructure, control plane, ClusterDeployment, AgentClusterInstall,
 * the worker gate, valid overrides and node registration), then the InfraEnv, then the boot mode's
 * own steps ({@link BootModeSteps}); with the data ready, whether the host's Agent waits for a disk
 * matching its rootDeviceHints. Each write the reconciler makes for a step updates the scope, and
 * the next decision is taken on that, until one is a {@link Report}.
 */
final class ConfigSteps {
  /** What to do next. */
  sealed interface Step {}

  /** Nothing to write now: report where the config stands. */
  record Report(Outcome outcome) implements Step {}

  /**
   * The config was made by the Go provider: make what it created ours (labels on its data Secret,
   * the InfraEnv's boot mode and agent labels, labels on Agents still waiting for approval), then
   * drop its finalizer, which nothing would remove.
   */
  record AdoptFromGoProvider() implements Step {}

  /** The Machine is being deleted: give its host back to the baremetal-operator, if we took it. */
  record ReattachHost() implements Step {}

  /**
   * Create the InfraEnv (and the placeholder pull secret it needs when the config names none).
   *
   * @param discoveryIgnitionOverride the validated annotation, or null
   */
  record CreateInfraEnv(WorkerGate.Decision gate, String discoveryIgnitionOverride)
      implements Step {}

  /**
   * Point the Metal3Machine at the discovery ISO and create the bootstrap data: Cluster API lets
   * CAPM3 provision the host only then, so it can never boot anything else.
   */
  record BootLiveIso(Metal3Machine metal3Machine, String isoUrl) implements Step {}

  /**
   * The data is ready, but assisted-service regenerated the image (under a new URL, when the
   * InfraEnv or its image token changes) and the Metal3Machine still waits for a host: it must boot
   * the current one, or its host boots an image the service no longer serves. Once CAPM3 has
   * claimed a host it is left alone: CAPM3 hands the image over once, at the claim.
   */
  record FollowIso(Metal3Machine metal3Machine, String isoUrl) implements Step {}

  /** Download the discovery ignition (DiskImage) and make the bootstrap data of it. */
  record DownloadIgnition(String discoveryIgnitionUrl, String eventsUrl) implements Step {}

  private ConfigSteps() {}

  static Step next(ConfigScope scope) {
    Step step = prerequisitesThenBoot(scope);
    if (step instanceof Report report && report.outcome().ready()) {
      // The host booted on this data: what the Agent controller found of its disk and its
      // validations is reported here, by the one writer of the config's status (Cluster API
      // mirrors Ready on the Machine).
      return new Report(report.outcome().hostTrouble(HostTrouble.of(scope.config())));
    }
    return step;
  }

  private static Step prerequisitesThenBoot(ConfigScope scope) {
    OpenshiftAssistedConfig config = scope.config();
    if (scope.machinePool().isPresent() && scope.machine().isEmpty()) {
      // One config for many hosts: no InfraEnv per Machine, so no Agent could be told from
      // another, and Metal3 has no MachinePool kind. The workers of a MachineDeployment install.
      return waiting(
          Reasons.MACHINE_POOL_NOT_SUPPORTED,
          "MachinePool "
              + scope.machinePool().get()
              + " owns this config: MachinePools are not supported (each host needs a Machine of"
              + " its own, which a MachinePool does not make); use a MachineDeployment. Its"
              + " replicas are not counted among the workers the installation waits for");
    }
    if (scope.machine().isEmpty()) {
      return waiting(
          Reasons.WAITING_FOR_MACHINE,
          "waiting for Cluster API to make a Machine the owner of this config");
    }
    Machine machine = scope.machine().get();
    if (scope.cluster().isEmpty()) {
      return waiting(
          Reasons.WAITING_FOR_CLUSTER, "waiting for Cluster " + scope.clusterName() + " to exist");
    }
    Cluster cluster = scope.cluster().get();
    if (Pause.isPaused(cluster, config)) {
      return new Report(Outcome.paused(Pause.reason(cluster, config)));
    }
    if (Finalizers.has(config, GoProvider.CONFIG_FINALIZER)) {
      return new AdoptFromGoProvider();
    }
    if (Metadata.isDeleting(machine) && !scope.hostReattached()) {
      return new ReattachHost();
    }
    if (ConfigStatus.dataSecretCreated(config) && scope.dataSecretExists()) {
      // Done: the host may be installed already, so nothing it depends on is touched again; only
      // a live ISO that no host has taken yet follows a regenerated image.
      return BootModeSteps.followIso(scope)
          .orElse(new Report(Outcome.ready(Names.dataSecret(config))));
    }
    String clusterName = Metadata.name(cluster);
    if (Metadata.isDeleting(machine) || Metadata.isDeleting(cluster)) {
      // Whatever we made now (InfraEnv, bootstrap data) would only have to be deleted again.
      return waiting(
          Reasons.DELETING,
          (Metadata.isDeleting(machine)
                  ? "Machine " + Metadata.name(machine)
                  : "Cluster " + clusterName)
              + " is being deleted: no InfraEnv or bootstrap data is made for this config");
    }
    if (!ClusterRefs.infrastructureProvisioned(cluster)) {
      return waiting(
          Reasons.WAITING_FOR_CLUSTER_INFRASTRUCTURE,
          "waiting for the infrastructure of Cluster " + clusterName + " to be provisioned");
    }
    Optional<String> controlPlane = scope.controlPlane();
    if (controlPlane.isEmpty()) {
      return waiting(
          Reasons.WAITING_FOR_CONTROL_PLANE,
          "Cluster "
              + clusterName
              + " has no OpenshiftAssistedControlPlane in spec.controlPlaneRef");
    }
    if (scope.clusterDeployment().isEmpty()) {
      return waiting(
          Reasons.WAITING_FOR_CLUSTER_DEPLOYMENT,
          "waiting for the control-plane provider to create ClusterDeployment "
              + controlPlane.get());
    }
    if (scope.install().isEmpty()) {
      return waiting(
          Reasons.WAITING_FOR_AGENT_CLUSTER_INSTALL,
          "waiting for the control-plane provider to create AgentClusterInstall "
              + controlPlane.get());
    }
    if (scope.infraEnv().isEmpty()) {
      return infraEnv(config, machine, clusterName, scope.install().get());
    }
    return BootModeSteps.next(scope);
  }

  /** Whether the InfraEnv may be made now, and from what. */
  private static Step infraEnv(
      OpenshiftAssistedConfig config,
      Machine machine,
      String clusterName,
      AgentClusterInstall install) {
    String state = InstallerStates.of(install);
    WorkerGate.Decision gate = WorkerGate.decide(ClusterRefs.isControlPlane(machine), state);
    if (gate == WorkerGate.Decision.WAIT) {
      return waiting(
          Reasons.WAITING_FOR_INSTALLATION_TO_COMPLETE,
          "the installation of cluster "
              + clusterName
              + " is in state '"
              + state
              + "'; this worker joins as a day-2 host once it is installed");
    }
    String override = Metadata.annotation(config, Names.DISCOVERY_IGNITION_OVERRIDE_ANNOTATION);
    if (override != null && !JsonDocuments.isObject(override)) {
      return waiting(
          Reasons.INVALID_DISCOVERY_IGNITION_OVERRIDE,
          "the annotation "
              + Names.DISCOVERY_IGNITION_OVERRIDE_ANNOTATION
              + " is not a JSON object; fix or remove it");
    }
    String installOverride = Metadata.annotation(config, Names.IGNITION_OVERRIDE_ANNOTATION);
    if (installOverride != null && !JsonDocuments.isObject(installOverride)) {
      return waiting(
          Reasons.INVALID_IGNITION_OVERRIDE,
          "the annotation "
              + Names.IGNITION_OVERRIDE_ANNOTATION
              + " is not a JSON object; fix or remove it");
    }
    NodeIdentity identity;
    try {
      // Resolved on the host, the most its install ignition can hold.
      identity =
          NodeIdentity.of(
              config.getSpec().nodeRegistration,
              Names.hostname(Metadata.name(machine)),
              Optional.empty());
    } catch (IllegalArgumentException e) {
      // The CRD refuses these; a config stored before it did reaches here.
      return waiting(Reasons.INVALID_NODE_REGISTRATION, "spec.nodeRegistration: " + e.getMessage());
    }
    Optional<String> tooLarge =
        InstallIgnition.tooLargeForAnAgent(InstallIgnition.forConfig(config, identity));
    if (tooLarge.isPresent()) {
      return waiting(Reasons.INSTALL_IGNITION_TOO_LARGE, tooLarge.get());
    }
    return new CreateInfraEnv(gate, override);
  }

  /** Nothing to write yet: report why the config waits (also {@link BootModeSteps}'). */
  static Report waiting(String reason, String message) {
    return new Report(Outcome.waiting(reason, message));
  }
}
