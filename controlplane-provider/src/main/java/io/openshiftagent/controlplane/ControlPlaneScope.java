package io.openshiftagent.controlplane;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.openshiftagent.api.bootstrap.v1alpha2.OpenshiftAssistedConfig;
import io.openshiftagent.api.bootstrap.v1alpha2.OpenshiftAssistedConfigSpec;
import io.openshiftagent.api.bootstrap.v1alpha2.OpenshiftAssistedConfigTemplate;
import io.openshiftagent.api.common.ContractVersionedObjectReference;
import io.openshiftagent.api.controlplane.v1alpha3.OpenshiftAssistedControlPlane;
import io.openshiftagent.api.external.ExternalKinds;
import io.openshiftagent.api.external.assisted.AgentClusterInstall;
import io.openshiftagent.api.external.capi.Cluster;
import io.openshiftagent.api.external.capi.Machine;
import io.openshiftagent.api.external.capi.MachineDeployment;
import io.openshiftagent.api.external.hive.ClusterDeployment;
import io.openshiftagent.api.external.hive.ClusterImageSet;
import io.openshiftagent.controlplane.cluster.Kubeconfig;
import io.openshiftagent.controlplane.etcd.EtcdReads;
import io.openshiftagent.controlplane.etcd.EtcdReport;
import io.openshiftagent.controlplane.machines.InfrastructureTemplates;
import io.openshiftagent.controlplane.workload.WorkloadClients;
import io.openshiftagent.provider.contract.InstallerStates;
import io.openshiftagent.provider.contract.ObjectNames;
import io.openshiftagent.provider.reconcile.Metadata;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * What one reconcile of a control plane knows, and the only place it reads: the control plane, its
 * Cluster, its Machines with their configs, the cluster's MachineDeployments (and the config
 * templates they name) and the assisted-service objects, all from the caches; and, read from the
 * API server only when a step asks (their kinds are not watched), the infrastructure template and
 * machines, the ClusterImageSet, ConfigMaps and Secrets (the pull secret, the mirrors) and a
 * MachineDeployment's bootstrap config template. Each of those is read at most once per reconcile.
 *
 * <p>Over 350 lines: it is the one place a control-plane reconcile reads, so every read is here,
 * each a short method.
 */
public final class ControlPlaneScope implements AutoCloseable {
  private final KubernetesClient client;
  private final InfrastructureTemplates infrastructure;
  private final OpenshiftAssistedControlPlane cp;
  private final Cluster cluster;
  private final List<Machine> machines;
  private final Map<String, OpenshiftAssistedConfig> configs;
  private final List<MachineDeployment> machineDeployments;
  private final List<OpenshiftAssistedConfigTemplate> workerConfigTemplates;
  private final Optional<ClusterDeployment> clusterDeployment;
  private Optional<AgentClusterInstall> clusterInstall;
  private final Set<String> deletionsUnseen;

  /** Concurrent: the writes made in the background while the infrastructure is awaited read too. */
  private final Map<String, Optional<?>> reads = new ConcurrentHashMap<>();

  private KubernetesClient workload;
  private String knownKubeconfig;
  private EtcdReport etcdReport;
  private Set<String> workloadNodes;

  /**
   * @param deletionsUnseen UIDs of Machines this process deleted whose deletion the cache does not
   *     show yet
   */
  public ControlPlaneScope(
      KubernetesClient client,
      InfrastructureTemplates infrastructure,
      OpenshiftAssistedControlPlane cp,
      Cluster cluster,
      List<Machine> machines,
      Map<String, OpenshiftAssistedConfig> configs,
      List<MachineDeployment> machineDeployments,
      List<OpenshiftAssistedConfigTemplate> workerConfigTemplates,
      Optional<ClusterDeployment> clusterDeployment,
      Optional<AgentClusterInstall> clusterInstall,
      Set<String> deletionsUnseen) {
    this.client = client;
    this.infrastructure = infrastructure;
    this.cp = cp;
    this.cluster = cluster;
    this.machines = machines;
    this.configs = configs;
    this.machineDeployments = machineDeployments;
    this.workerConfigTemplates = workerConfigTemplates;
    this.clusterDeployment = clusterDeployment;
    this.clusterInstall = clusterInstall;
    this.deletionsUnseen = deletionsUnseen;
  }

  public OpenshiftAssistedControlPlane cp() {
    return cp;
  }

  public Cluster cluster() {
    return cluster;
  }

  /** The control plane's Machines, by name. */
  public List<Machine> machines() {
    return machines;
  }

  /** Our configs of the control plane, by name. */
  public Map<String, OpenshiftAssistedConfig> configs() {
    return configs;
  }

  public List<MachineDeployment> machineDeployments() {
    return machineDeployments;
  }

  /**
   * The {@code cpuArchitecture}s of every config of the cluster: the control plane's, and those of
   * the templates its MachineDeployments make workers from (unset: x86_64, the CRD's default).
   */
  public List<String> cpuArchitectures() {
    List<String> architectures = new ArrayList<>();
    architectures.add(architecture(cp.getSpec().openshiftAssistedConfigSpec));
    for (OpenshiftAssistedConfigTemplate template : workerConfigTemplates) {
      var spec = template.getSpec();
      architectures.add(
          architecture(spec == null || spec.template == null ? null : spec.template.spec));
    }
    return architectures;
  }

  private static String architecture(OpenshiftAssistedConfigSpec spec) {
    return spec == null || spec.cpuArchitecture == null ? "x86_64" : spec.cpuArchitecture;
  }

  public Optional<ClusterDeployment> clusterDeployment() {
    return clusterDeployment;
  }

  public Optional<AgentClusterInstall> clusterInstall() {
    return clusterInstall;
  }

  /**
   * The AgentClusterInstall this reconcile created: the phases after it, and the status, know it
   * exists before the cache does.
   */
  public void created(AgentClusterInstall install) {
    if (clusterInstall.isEmpty()) {
      clusterInstall = Optional.of(install);
    }
  }

  public String namespace() {
    return cp.getMetadata().getNamespace();
  }

  public String clusterName() {
    return cluster.getMetadata().getName();
  }

  /**
   * The names of the Machines being deleted: as the cache shows them, and those this process
   * deleted before the cache caught up (waiting for their events, never listing live).
   */
  public List<String> deletingMachines() {
    return machines.stream()
        .filter(m -> Metadata.isDeleting(m) || deletionsUnseen.contains(m.getMetadata().getUid()))
        .map(Metadata::name)
        .toList();
  }

  /** The Cluster API control-plane labels, on every Machine, config and clone we create. */
  public Map<String, String> controlPlaneLabels() {
    Map<String, String> labels = new LinkedHashMap<>(ownLabels());
    labels.put(ExternalKinds.CONTROL_PLANE_LABEL, "");
    labels.put(ExternalKinds.CONTROL_PLANE_NAME_LABEL, Names.controlPlaneLabelValue(cp));
    return labels;
  }

  /**
   * The labels of everything this provider makes for the control plane: the cluster's name, and the
   * control plane's Cluster API watch-filter label, so that a replica sharded by it ({@code
   * --watch-filter}) sees what it made.
   */
  public Map<String, String> ownLabels() {
    Map<String, String> labels = new LinkedHashMap<>();
    labels.put(ExternalKinds.CLUSTER_NAME_LABEL, clusterName());
    String shard = Metadata.label(cp, ExternalKinds.WATCH_FILTER_LABEL);
    if (shard != null) {
      labels.put(ExternalKinds.WATCH_FILTER_LABEL, shard);
    }
    return labels;
  }

  /** The label selector of the control-plane Machines, for status.selector. */
  public String selector() {
    return ExternalKinds.CLUSTER_NAME_LABEL
        + "="
        + clusterName()
        + ","
        + ExternalKinds.CONTROL_PLANE_LABEL
        + ","
        + ExternalKinds.CONTROL_PLANE_NAME_LABEL
        + "="
        + Names.controlPlaneLabelValue(cp);
  }

  /** assisted-service's installation state, "" while there is none. */
  public String installerState() {
    return clusterInstall.map(InstallerStates::of).orElse("");
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

  // ---- read from the API server, once, when asked ----

  /**
   * The infrastructure template to clone, or null when it does not exist; throws when its kind
   * cannot be read (no CRD, or one without the Cluster API contract label).
   */
  public GenericKubernetesResource infrastructureTemplate() {
    ContractVersionedObjectReference ref =
        cp.getSpec().machineTemplate.effectiveInfrastructureRef();
    return infrastructure.get(ref, namespace());
  }

  /**
   * The annotations of a Machine's infrastructure machine (what UpToDate reads), or null when it
   * cannot be read; each machine's are read once per process, they never change.
   */
  public Map<String, String> infrastructureMachineAnnotations(
      ContractVersionedObjectReference ref) {
    return infrastructure.annotationsOrNull(ref, namespace());
  }

  /**
   * Whether a Machine of that name exists, read now: our Machine cache sees only control-plane
   * Machines, and one stripped of its label must not pass for missing.
   */
  public boolean machineExists(String name) {
    return read(
            "Machine/" + name,
            () -> client.resources(Machine.class).inNamespace(namespace()).withName(name).get())
        .isPresent();
  }

  /**
   * The annotations of a MachineDeployment's OpenshiftAssistedConfigTemplate, from the watched
   * templates (empty: none, or not made yet).
   */
  public Map<String, String> bootstrapTemplateAnnotations(MachineDeployment md) {
    ContractVersionedObjectReference ref =
        md.getSpec() == null
                || md.getSpec().template == null
                || md.getSpec().template.spec == null
                || md.getSpec().template.spec.bootstrap == null
            ? null
            : md.getSpec().template.spec.bootstrap.configRef;
    if (ref == null || !OpenshiftAssistedConfigTemplate.class.getSimpleName().equals(ref.kind)) {
      return Map.of();
    }
    return workerConfigTemplates.stream()
        .filter(t -> t.getMetadata().getName().equals(ref.name))
        .findFirst()
        .map(t -> t.getMetadata().getAnnotations())
        .orElse(Map.of());
  }

  public Optional<ClusterImageSet> clusterImageSet(String name) {
    return read(
        "ClusterImageSet/" + name,
        () -> client.resources(ClusterImageSet.class).withName(name).get());
  }

  /**
   * The Secret {@code spec.config.pullSecretRef} names, read when first asked: empty when none is
   * named or it does not exist ({@link #pullSecretName()} tells which).
   */
  public Optional<Secret> pullSecret() {
    String name = pullSecretName();
    return name == null ? Optional.empty() : secret(name);
  }

  /** The name {@code spec.config.pullSecretRef} gives, or null. */
  public String pullSecretName() {
    var ref = cp.getSpec().config == null ? null : cp.getSpec().config.pullSecretRef;
    return ref == null ? null : ref.name;
  }

  /**
   * The ConfigMap {@code spec.config.imageRegistryRef} names (mirrors and their CA), read when
   * first asked: empty when none is named or it does not exist ({@link
   * #imageRegistryConfigName()}).
   */
  public Optional<ConfigMap> imageRegistryConfig() {
    String name = imageRegistryConfigName();
    return name == null ? Optional.empty() : configMap(name);
  }

  /** The name {@code spec.config.imageRegistryRef} gives, or null. */
  public String imageRegistryConfigName() {
    var ref = cp.getSpec().config == null ? null : cp.getSpec().config.imageRegistryRef;
    return ref == null ? null : ref.name;
  }

  public Optional<ConfigMap> configMap(String name) {
    if (!ObjectNames.isObjectName(name)) {
      return Optional.empty();
    }
    return read(
        "ConfigMap/" + name,
        () -> client.configMaps().inNamespace(namespace()).withName(name).get());
  }

  public Optional<Secret> secret(String name) {
    if (!ObjectNames.isObjectName(name)) {
      return Optional.empty();
    }
    return read(
        "Secret/" + name, () -> client.secrets().inNamespace(namespace()).withName(name).get());
  }

  // ---- the installed cluster, through the published kubeconfig, read once when asked ----

  /**
   * A client of the installed cluster (for the writes there too); throws when the kubeconfig is not
   * published. Closed with the scope.
   */
  public KubernetesClient workload() {
    if (workload == null) {
      String kubeconfig =
          Optional.ofNullable(knownKubeconfig)
              .or(() -> Kubeconfig.read(this))
              .orElseThrow(
                  () ->
                      new IllegalStateException(
                          "Secret "
                              + Names.kubeconfigSecret(clusterName())
                              + " holds no kubeconfig of the installed cluster"));
      workload = WorkloadClients.connect(kubeconfig);
    }
    return workload;
  }

  /**
   * The published kubeconfig as the caller just copied or compared it: the installed cluster is
   * reached without reading it again.
   */
  public void knownKubeconfig(String kubeconfig) {
    this.knownKubeconfig = kubeconfig;
  }

  /** What the installed cluster's etcd operator reports; throws when it cannot be read. */
  public EtcdReport etcdReport() {
    if (etcdReport == null) {
      etcdReport = EtcdReads.report(workload());
    }
    return etcdReport;
  }

  /** The names of the installed cluster's Nodes; throws when they cannot be read. */
  public Set<String> workloadNodeNames() {
    if (workloadNodes == null) {
      workloadNodes = EtcdReads.nodeNames(workload());
    }
    return workloadNodes;
  }

  @Override
  public void close() {
    if (workload != null) {
      workload.close();
    }
  }

  @SuppressWarnings("unchecked")
  private <T> Optional<T> read(String key, Supplier<T> get) {
    return (Optional<T>) reads.computeIfAbsent(key, k -> Optional.ofNullable(get.get()));
  }
}
