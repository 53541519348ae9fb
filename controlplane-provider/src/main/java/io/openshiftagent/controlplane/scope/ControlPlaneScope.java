package io.openshiftagent.controlplane.scope;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.openshiftagent.api.bootstrap.v1alpha2.OpenshiftAssistedConfig;
import io.openshiftagent.api.bootstrap.v1alpha2.OpenshiftAssistedConfigTemplate;
import io.openshiftagent.api.common.ContractVersionedObjectReference;
import io.openshiftagent.api.controlplane.v1alpha3.OpenshiftAssistedControlPlane;
import io.openshiftagent.api.controlplane.v1alpha3.OpenshiftAssistedControlPlaneStatus;
import io.openshiftagent.api.external.assisted.AgentClusterInstall;
import io.openshiftagent.api.external.capi.Cluster;
import io.openshiftagent.api.external.capi.Machine;
import io.openshiftagent.api.external.capi.MachineDeployment;
import io.openshiftagent.api.external.hive.ClusterDeployment;
import io.openshiftagent.api.external.hive.ClusterImageSet;
import io.openshiftagent.controlplane.names.Names;
import io.openshiftagent.provider.contract.InstallerStates;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * What one reconcile of a control plane knows, and the only place it reads. From the caches: the
 * control plane, its Cluster, its Machines with their configs, the cluster's MachineDeployments
 * (and the config templates they name) and the assisted-service objects. From the API server, only
 * when a step asks and at most once (their kinds are not watched): the infrastructure template and
 * machines, the ClusterImageSet, ConfigMaps and Secrets ({@link HubReads}); and the installed
 * cluster, through the published kubeconfig ({@link InstalledCluster}).
 *
 * <p>Immutable: what this reconcile's own writes change is a copy ({@link #withClusterInstall},
 * {@link #withKubeconfig}); the copies share the reads.
 */
public final class ControlPlaneScope implements AutoCloseable {
  /** What the caches held at the start of the reconcile. */
  public record Cached(
      OpenshiftAssistedControlPlane cp,
      Cluster cluster,
      List<Machine> machines,
      Map<String, OpenshiftAssistedConfig> configs,
      List<MachineDeployment> machineDeployments,
      List<OpenshiftAssistedConfigTemplate> workerConfigTemplates,
      Optional<ClusterDeployment> clusterDeployment,
      Optional<AgentClusterInstall> clusterInstall,
      Set<String> deletionsUnseen) {}

  /** The reads the copies of one scope share, and the connections to close with them. */
  private record Reads(HubReads hub, List<InstalledCluster> opened) {}

  private final Cached cached;
  private final Optional<AgentClusterInstall> clusterInstall;
  private final Optional<String> knownKubeconfig;
  private final Instant now;
  private final Reads reads;
  private final InstalledCluster workload;

  private ControlPlaneScope(
      Cached cached,
      Optional<AgentClusterInstall> clusterInstall,
      Optional<String> knownKubeconfig,
      Instant now,
      Reads reads,
      InstalledCluster sameKubeconfig) {
    this.cached = cached;
    this.clusterInstall = clusterInstall;
    this.knownKubeconfig = knownKubeconfig;
    this.now = now;
    this.reads = reads;
    if (sameKubeconfig == null) {
      this.workload = new InstalledCluster(this::kubeconfig);
      reads.opened().add(workload);
    } else {
      this.workload = sameKubeconfig;
    }
  }

  /**
   * The scope of one reconcile: what the caches hold, and the reads of the rest, made when asked.
   *
   * @param now the time the reconcile decides at
   */
  public static ControlPlaneScope observe(
      Cached cached, KubernetesClient client, InfrastructureTemplates infrastructure, Instant now) {
    Reads reads =
        new Reads(
            new HubReads(client, infrastructure, cached.cp().getMetadata().getNamespace()),
            new CopyOnWriteArrayList<>());
    return new ControlPlaneScope(
        cached, cached.clusterInstall(), Optional.empty(), now, reads, null);
  }

  /**
   * After this reconcile created the AgentClusterInstall: the phases after it, and the report, know
   * it exists before the cache does.
   */
  public ControlPlaneScope withClusterInstall(AgentClusterInstall created) {
    return clusterInstall.isPresent()
        ? this
        : new ControlPlaneScope(
            cached, Optional.of(created), knownKubeconfig, now, reads, workload);
  }

  /**
   * The installed cluster is reached with {@code kubeconfig}, as this reconcile just published or
   * compared it, without reading it again.
   */
  public ControlPlaneScope withKubeconfig(Optional<String> kubeconfig) {
    return kubeconfig.isEmpty()
        ? this
        : new ControlPlaneScope(cached, clusterInstall, kubeconfig, now, reads, null);
  }

  public OpenshiftAssistedControlPlane cp() {
    return cached.cp();
  }

  public Cluster cluster() {
    return cached.cluster();
  }

  /** The control plane's Machines, by name. */
  public List<Machine> machines() {
    return cached.machines();
  }

  /** Our configs of the control plane, by name. */
  public Map<String, OpenshiftAssistedConfig> configs() {
    return cached.configs();
  }

  public List<MachineDeployment> machineDeployments() {
    return cached.machineDeployments();
  }

  /** The OpenshiftAssistedConfigTemplates the cluster's MachineDeployments name, as cached. */
  public List<OpenshiftAssistedConfigTemplate> workerConfigTemplates() {
    return cached.workerConfigTemplates();
  }

  public Optional<ClusterDeployment> clusterDeployment() {
    return cached.clusterDeployment();
  }

  public Optional<AgentClusterInstall> clusterInstall() {
    return clusterInstall;
  }

  /**
   * UIDs of Machines this process deleted whose deletion the cache does not show yet (waiting for
   * their events, never listing live).
   */
  public Set<String> deletionsUnseen() {
    return cached.deletionsUnseen();
  }

  /** The time this reconcile decides at. */
  public Instant now() {
    return now;
  }

  /** Whether the stored status was written for the spec as it is (its generation observed). */
  public static boolean statusObservesSpec(OpenshiftAssistedControlPlane cp) {
    return cp.getStatus() != null
        && Objects.equals(cp.getStatus().observedGeneration, cp.getMetadata().getGeneration());
  }

  /** The status as stored (a fresh one when there is none yet). */
  public OpenshiftAssistedControlPlaneStatus storedStatus() {
    return cp().getStatus() == null ? new OpenshiftAssistedControlPlaneStatus() : cp().getStatus();
  }

  /** Whether the stored status says the control plane was initialized (it is never taken back). */
  public boolean initialized() {
    var initialization = storedStatus().initialization;
    return initialization != null && Boolean.TRUE.equals(initialization.controlPlaneInitialized);
  }

  /** assisted-service's installation state, "" while there is none. */
  public String installerState() {
    return clusterInstall.map(InstallerStates::of).orElse("");
  }

  /**
   * Whether the installed cluster's API server serves, as assisted-service tells: from the
   * installation's {@code finalizing} on (the kubeconfig is published long before), or when no
   * AgentClusterInstall is there to tell.
   */
  public boolean installedClusterServes() {
    return clusterInstall.isEmpty() || InstallerStates.API_AVAILABLE.contains(installerState());
  }

  /**
   * Whether assisted-service has begun installing: from then on most of the AgentClusterInstall is
   * frozen.
   */
  public boolean installationStarted() {
    boolean hasMetadata =
        clusterInstall
            .map(a -> a.getSpec() != null && a.getSpec().clusterMetadata != null)
            .orElse(false);
    return hasMetadata || !InstallerStates.NOT_STARTED.contains(installerState());
  }

  public String namespace() {
    return cp().getMetadata().getNamespace();
  }

  public String clusterName() {
    return cluster().getMetadata().getName();
  }

  // ---- read from the hub's API server, once, when asked ----

  /**
   * The infrastructure template to clone, or null when it does not exist; throws when its kind
   * cannot be read (no CRD, or one without the Cluster API contract label).
   */
  public GenericKubernetesResource infrastructureTemplate() {
    return reads.hub().infrastructureTemplate(infrastructureTemplateRef());
  }

  public ContractVersionedObjectReference infrastructureTemplateRef() {
    return cp().getSpec().machineTemplate.effectiveInfrastructureRef();
  }

  /**
   * The annotations of a Machine's infrastructure machine (what UpToDate reads), or null when it
   * cannot be read; each machine's are read once per process, they never change.
   */
  public Map<String, String> infrastructureMachineAnnotations(
      ContractVersionedObjectReference ref) {
    return reads.hub().infrastructureMachineAnnotations(ref);
  }

  /**
   * Whether a Machine of that name exists, read now: our Machine cache sees only control-plane
   * Machines, and one stripped of its label must not pass for missing.
   */
  public boolean machineExists(String name) {
    return reads.hub().machineExists(name);
  }

  public Optional<ClusterImageSet> clusterImageSet(String name) {
    return reads.hub().clusterImageSet(name);
  }

  public Optional<ConfigMap> configMap(String name) {
    return reads.hub().configMap(name);
  }

  public Optional<Secret> secret(String name) {
    return reads.hub().secret(name);
  }

  /**
   * The kubeconfig of the installed cluster: as this reconcile published or compared it, else as
   * Cluster API's Secret holds it (read then); empty while none is published.
   */
  public Optional<String> kubeconfig() {
    return knownKubeconfig.or(
        () ->
            secret(Names.kubeconfigSecret(clusterName()))
                .map(Secret::getData)
                .map(data -> data.get(Names.KUBECONFIG_KEY))
                .map(
                    encoded ->
                        new String(Base64.getDecoder().decode(encoded), StandardCharsets.UTF_8)));
  }

  /**
   * The installed cluster, reached through {@link #kubeconfig}, read once when asked; closed with
   * the scope.
   */
  public InstalledCluster installed() {
    return workload;
  }

  /** Closes the connections to the installed cluster that this scope or its copies opened. */
  @Override
  public void close() {
    reads.opened().forEach(InstalledCluster::close);
  }
}
