package io.openshiftagent.simulator;

import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.NonDeletingOperation;
import io.openshiftagent.simulator.assisted.AssistedServiceAdmission;
import io.openshiftagent.simulator.assisted.AssistedServiceProcess;
import io.openshiftagent.simulator.assisted.DiscoveryAgent;
import io.openshiftagent.simulator.assisted.Machine;
import io.openshiftagent.simulator.assisted.ReleaseCatalog;
import io.openshiftagent.testsupport.ApiServer;
import io.openshiftagent.testsupport.KubeApiServerEnvironment;
import io.openshiftagent.testsupport.ProviderJar;
import io.openshiftagent.testsupport.ProviderProcess;
import io.openshiftagent.testsupport.ReleaseRegistry;
import io.openshiftagent.testsupport.RestartableKubeApiServer;
import io.openshiftagent.testsupport.TcpRelay;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A local world: the hub (real kube-apiserver and etcd with the upstream CRDs, and the real
 * kube-controller-manager's garbage collector and namespace controller), the real Cluster API core
 * manager, the real Metal3 (CAPM3 and the baremetal-operator in its test mode), the real
 * assisted-service on a real PostgreSQL, our two providers started from their runnable jars, the
 * simulated hosts (whose discovery agents speak the service's REST API), and the installed clusters
 * (real kube-apiservers with simulated contents). Each external process is a {@link WorldProcess}
 * it starts and stops; whatever ends the JVM short of SIGKILL, every process it started is stopped
 * ({@link ChildProcesses}).
 *
 * <p>Over 350 lines: the one entry point of the world for the tests, the demo and the benchmark
 * (how it is built, each part's handle, the providers' replicas and ServiceAccounts).
 */
public final class World implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(World.class);
  private static final Duration PROVIDER_START = Duration.ofSeconds(60);

  /**
   * What the JVM would size itself from in the chart's default container (limits: 512Mi memory, 1
   * CPU), added to the image's {@code JAVA_TOOL_OPTIONS}.
   */
  public static final String CONTAINER_LIMITS = "-XX:MaxRAM=512m -XX:ActiveProcessorCount=1";

  /** The user agent of the simulated systems' requests, in the hub's audit log. */
  public static final String SIMULATOR_USER_AGENT = "openshift-agent-simulator";

  /**
   * How the hub's garbage collector (the world's kube-controller-manager) ends its user agent, in
   * the hub's audit log.
   */
  public static final String GARBAGE_COLLECTOR_USER_AGENT =
      KubeControllerManager.GARBAGE_COLLECTOR_USER_AGENT;

  /** Where assisted-service's CA is published (the Go provider's defaults). */
  private static final String ASSISTED_CA_NAMESPACE = "assisted-installer";

  private static final String ASSISTED_CA_SECRET = "assisted-installer-ca";

  /** Which API server plays each installed cluster. */
  public enum Workloads {
    /** One per AgentClusterInstall, started when the installation first needs it: faithful. */
    PER_CLUSTER,
    /**
     * One for every installation, started with the world: cheap, for many clusters. Node names must
     * be unique across clusters, and the ClusterVersion is shared (no upgrades).
     */
    SHARED
  }

  /**
   * How a world is built.
   *
   * @param workDir where the Cluster API manager's and the providers' files and logs go
   * @param workloadPollInterval the control-plane provider's {@code WORKLOAD_POLL_INTERVAL}
   * @param serviceAccounts whether each provider runs as its own ServiceAccount under the RBAC of
   *     {@code config/}, as deployed; else as cluster admin
   * @param leaderElection whether a single replica elects itself leader, as its Deployment does (a
   *     provider restarted after a kill then waits up to the Lease's 15 s for its old Lease)
   * @param providerReplicas how many processes of each provider run; above one they elect their
   *     leader, as the chart's replicas do
   * @param hubOfItsOwn whether the world runs on a hub of its own, started and stopped with it (its
   *     audit log under {@code workDir}), rather than the JVM's shared one: such a world may run
   *     beside other worlds, as nothing of theirs reaches it
   * @param watchedNamespaces empty: the providers watch every namespace; else a namespaced install:
   *     the world creates these namespaces, the providers watch only them ({@code --namespace})
   *     and, as their ServiceAccounts, are granted their namespaced rules only there ({@link
   *     ProviderServiceAccount#install})
   * @param restartableHub whether that hub of its own can be restarted ({@link #restartHub()}): a
   *     {@link RestartableKubeApiServer}, with the same CRDs, flags and audit log
   * @param goProvider a checkout of the Go provider's repository whose pair runs instead of ours
   *     ({@link GoProviders}), or null for ours; its CRDs replace ours, so only on a hub of its
   *     own. It runs as its release installs it, watching every namespace: not with {@code
   *     watchedNamespaces}
   * @param sharedClassData whether the providers load the jar's classes from the archive the test
   *     JVM shares between them ({@link ProviderProcess.Builder#sharedClassData}): they start on
   *     less CPU; the benchmarks measure them as the image runs them, without
   */
  public record Options(
      SimulatedDurations durations,
      Path workDir,
      Workloads workloads,
      Duration workloadPollInterval,
      boolean serviceAccounts,
      boolean leaderElection,
      int providerReplicas,
      boolean hubOfItsOwn,
      List<String> watchedNamespaces,
      boolean restartableHub,
      Path goProvider,
      boolean sharedClassData) {

    /**
     * One API server per installed cluster; the installed clusters looked at every 5 s; each
     * provider as its ServiceAccount, as deployed (an identity with more rights hides mistakes: as
     * cluster admin the bootstrap provider re-created a deleted config,
     * ProviderServiceAccountTest), without leader election.
     */
    public static Options of(SimulatedDurations durations, Path workDir) {
      return new Options(
          durations,
          workDir,
          Workloads.PER_CLUSTER,
          Duration.ofSeconds(5),
          true,
          false,
          1,
          false,
          List.of(),
          false,
          null,
          true);
    }

    public Options withWorkloads(Workloads value) {
      return edit(o -> o.workloads = value);
    }

    public Options withWorkloadPollInterval(Duration value) {
      return edit(o -> o.workloadPollInterval = value);
    }

    public Options withServiceAccounts(boolean value) {
      return edit(o -> o.serviceAccounts = value);
    }

    public Options withLeaderElection(boolean value) {
      return edit(o -> o.leaderElection = value);
    }

    public Options withDurations(SimulatedDurations value) {
      return edit(o -> o.durations = value);
    }

    /** A hub of its own that can be restarted ({@link #restartableHub()}). */
    public Options withRestartableHub() {
      return edit(
          o -> {
            o.hubOfItsOwn = true;
            o.restartableHub = true;
          });
    }

    /** A hub of its own ({@link #hubOfItsOwn()}). */
    public Options withHubOfItsOwn() {
      return edit(o -> o.hubOfItsOwn = true);
    }

    /** A namespaced install watching {@code namespaces} ({@link #watchedNamespaces()}). */
    public Options withWatchedNamespaces(List<String> namespaces) {
      return edit(o -> o.watchedNamespaces = List.copyOf(namespaces));
    }

    /** The Go provider pair built from {@code checkout} instead of ours, on a hub of its own. */
    public Options withGoProvider(Path checkout) {
      return edit(
          o -> {
            o.goProvider = checkout;
            o.hubOfItsOwn = true;
          });
    }

    public Options withSharedClassData(boolean value) {
      return edit(o -> o.sharedClassData = value);
    }

    public Options withProviderReplicas(int value) {
      return edit(o -> o.providerReplicas = value);
    }

    /** These options with some changed: the one place that lists every field. */
    private Options edit(Consumer<Draft> change) {
      Draft draft = new Draft(this);
      change.accept(draft);
      return draft.options();
    }

    /** The fields of {@link Options}, changeable while a copy is made. */
    private static final class Draft {
      SimulatedDurations durations;
      Path workDir;
      Workloads workloads;
      Duration workloadPollInterval;
      boolean serviceAccounts;
      boolean leaderElection;
      int providerReplicas;
      boolean hubOfItsOwn;
      List<String> watchedNamespaces;
      boolean restartableHub;
      Path goProvider;
      boolean sharedClassData;

      Draft(Options from) {
        durations = from.durations;
        workDir = from.workDir;
        workloads = from.workloads;
        workloadPollInterval = from.workloadPollInterval;
        serviceAccounts = from.serviceAccounts;
        leaderElection = from.leaderElection;
        providerReplicas = from.providerReplicas;
        hubOfItsOwn = from.hubOfItsOwn;
        watchedNamespaces = from.watchedNamespaces;
        restartableHub = from.restartableHub;
        goProvider = from.goProvider;
        sharedClassData = from.sharedClassData;
      }

      Options options() {
        return new Options(
            durations,
            workDir,
            workloads,
            workloadPollInterval,
            serviceAccounts,
            leaderElection,
            providerReplicas,
            hubOfItsOwn,
            watchedNamespaces,
            restartableHub,
            goProvider,
            sharedClassData);
      }
    }
  }

  private final Options options;
  private final ApiServer hub;
  private final WorkloadClusters workloads;
  private final UpstreamManager capi;
  private UpstreamManager capm3;
  private BareMetalOperators bareMetalOperators;
  private final Map<ProviderJar, Duration> readyAfter = new EnumMap<>(ProviderJar.class);
  private final Map<ProviderJar, ProviderServiceAccount> serviceAccounts =
      new EnumMap<>(ProviderJar.class);
  private final Map<ProviderJar, Map<String, ProviderProcess>> replicas =
      new EnumMap<>(ProviderJar.class);

  /** Where both providers elect their leaders when they run as cluster admin. */
  private String sharedLeaseNamespace;

  /** Where each provider elects its leader, if it does. */
  private final Map<ProviderJar, String> leaseNamespaces = new EnumMap<>(ProviderJar.class);

  private final Deque<AutoCloseable> running = new ArrayDeque<>();
  private AssistedServiceProcess assistedService;
  private GoProviders goProviders;
  private EtcdOperator etcdOperator;
  private DiscoveryAgents agents;

  private World(Options options, ApiServer hub, WorkloadClusters workloads, UpstreamManager capi) {
    this.options = options;
    this.hub = hub;
    this.workloads = workloads;
    this.capi = capi;
  }

  /** Starts everything, one API server per installed cluster, and returns once it runs. */
  public static World start(SimulatedDurations durations, Path workDir) throws Exception {
    return start(Options.of(durations, workDir));
  }

  /** Starts everything and returns once it runs. */
  public static World start(Options options) throws Exception {
    long started = System.nanoTime();
    ChildProcesses.stopAllWhenTheJvmExits();
    Path hubDir = options.workDir().resolve("kube-apiserver");
    ApiServer hub =
        options.restartableHub()
            ? RestartableKubeApiServer.startRestartableHub(hubDir)
            : options.hubOfItsOwn()
                ? KubeApiServerEnvironment.startHub(hubDir)
                : KubeApiServerEnvironment.shared();
    WorkloadClusters workloads = new WorkloadClusters(options.workloads());
    World world = null;
    // The release registry (its images pushed once per JVM) gets ready while the managers start.
    CompletableFuture<ReleaseRegistry> releases =
        CompletableFuture.supplyAsync(() -> ReleaseRegistry.shared().withPublished());
    try {
      UpstreamManager capi =
          CapiManager.start(hub.client(), hub.kubeConfigYaml(), options.workDir());
      world = new World(options, hub, workloads, capi);
      if (options.hubOfItsOwn()) {
        world.running.push(hub);
      }
      // The garbage collector and namespace controller every hub runs: what owners' deletions leave
      // is collected for real, so the deletion checks excuse nothing.
      world.running.push(KubeControllerManager.start(hub.kubeConfigYaml(), options.workDir()));
      world.running.push(workloads);
      world.running.push(capi);
      world.startMetal3();
      world.startAssistedService(releases.join());
      world.startSimulation();
      world.publishAssistedServiceCa();
      for (String namespace : options.watchedNamespaces()) {
        hub.client()
            .namespaces()
            .resource(
                new NamespaceBuilder().withNewMetadata().withName(namespace).endMetadata().build())
            .create();
      }
      if (options.goProvider() == null) {
        world.startProviders();
      } else {
        world.startGoProviders();
      }
    } catch (Exception | Error e) {
      if (world != null) {
        world.close();
      } else {
        workloads.close();
        if (options.hubOfItsOwn()) {
          hub.close();
        }
      }
      throw e;
    }
    LOG.info("world ready in {} ms", (System.nanoTime() - started) / 1_000_000);
    return world;
  }

  /**
   * CAPM3, as a management cluster runs it, and a baremetal-operator for each namespace where
   * BareMetalHosts appear ({@link BareMetalOperators}).
   */
  private void startMetal3() {
    capm3 = Capm3.start(hub.client(), hub.kubeConfigYaml(), options.workDir());
    running.push(capm3);
    bareMetalOperators =
        new BareMetalOperators(hub.client(), hub.kubeConfigYaml(), options.workDir());
    running.push(bareMetalOperators);
    bareMetalOperators.start();
  }

  /**
   * The baremetal-operator of a namespace, started now (once) unless it runs, as a Metal3 user runs
   * it before creating BareMetalHosts; else it starts as the first host appears there.
   */
  public WorldProcess startBareMetalOperator(String namespace) {
    return bareMetalOperators.start(namespace);
  }

  /**
   * The real assisted-service in kube-api mode against the hub, on its own PostgreSQL, in a
   * namespace of its own (its leader Lease); it reaches each installed cluster's API server (its
   * admin kubeconfig names it) through a bridge into its network namespace.
   */
  private void startAssistedService(ReleaseRegistry releases) throws Exception {
    assistedService =
        AssistedServiceProcess.start(
            options.workDir().resolve("assisted-service"),
            hub.kubeConfigYaml(),
            hub.client(),
            hub.createNamespace("assisted-service"),
            ReleaseCatalog.of(releases));
    running.push(assistedService);
    // Its own admission webhooks, as the operator deploys them beside it: the hub refuses what a
    // real hub refuses (e.g. a changed imageSetRef).
    running.push(
        AssistedServiceAdmission.start(
            options.workDir().resolve("assisted-service-admission"),
            hub.kubeConfigYaml(),
            hub.client(),
            assistedService.namespace()));
    workloads.onStart(server -> workloads.ports(server).forEach(assistedService::reachOutside));
  }

  /**
   * What needs hardware or OpenShift: the lab's network, the hosts, what they run once booted (the
   * discovery agent: {@link HostBoots}), the installer's controller in each new cluster and the
   * installed clusters' contents.
   */
  private void startSimulation() {
    LabNetworks lab = new LabNetworks(hub.newClient(SIMULATOR_USER_AGENT));
    InstalledCluster installed =
        new InstalledCluster(hub.newClient(SIMULATOR_USER_AGENT), workloads, options.durations());
    agents =
        new DiscoveryAgents(
            hub.newClient(SIMULATOR_USER_AGENT),
            lab,
            installed,
            assistedService,
            agentPacing(options.durations()));
    etcdOperator =
        new EtcdOperator(
            hub.newClient(SIMULATOR_USER_AGENT),
            workloads,
            options.workDir().resolve("installed-etcd").toAbsolutePath());
    for (Actor actor :
        List.of(
            lab,
            installed,
            agents,
            new Hosts(hub.newClient(SIMULATOR_USER_AGENT), options.durations(), agents),
            new FixtureNudges(hub.newClient(SIMULATOR_USER_AGENT)),
            new InstallerControllers(
                hub.newClient(SIMULATOR_USER_AGENT),
                workloads,
                assistedService,
                // Ours follow the admin kubeconfig; the Go pair copies it once, as it appears.
                options.goProvider() != null),
            etcdOperator)) {
      actor.start();
      running.push(actor);
    }
  }

  /**
   * The discovery agents' time, compressed as the world's: the service's 60 s between instructions
   * take 1 s, each install stage on a host the simulated installation step.
   */
  private static DiscoveryAgent.Pacing agentPacing(SimulatedDurations durations) {
    return new DiscoveryAgent.Pacing(
        1.0 / 60,
        Duration.ofMillis(250),
        durations.installationStep().compareTo(Duration.ofMillis(50)) > 0
            ? durations.installationStep()
            : Duration.ofMillis(50));
  }

  /**
   * The repositories of the world's release registry, as the manifests' variables {@code
   * RELEASE_REPOSITORY} (OpenShift) and {@code OKD_RELEASE_REPOSITORY}: a manifest whose repository
   * override names them has its release resolved there, as the tests' manifests do.
   */
  public static Map<String, String> releaseRepositories() {
    ReleaseRegistry registry = ReleaseRegistry.shared();
    return Map.of(
        "RELEASE_REPOSITORY", registry.ocpRepository(),
        "OKD_RELEASE_REPOSITORY", registry.okdRepository());
  }

  /**
   * The network every namespace's hosts are cabled to, each namespace a segment of its own: the
   * machine network a cluster's VIPs must sit in ({@link LabNetworks}).
   */
  public static String machineNetwork() {
    return LabNetworks.CIDR;
  }

  /**
   * The hub's mirrors, as a hub with mirrors configures them (its registries.conf, made on
   * OpenShift from its ImageDigestMirrorSets and ImageTagMirrorSets): quay.io's release
   * repositories mirrored to the world's release registry, which holds the releases users name
   * ({@link ReleaseRegistry#withPublished()}). A release named by version alone resolves there.
   */
  static String hubRegistriesConf() {
    StringBuilder conf =
        new StringBuilder("# quay.io's release repositories, mirrored to the world's registry\n");
    for (String repository :
        List.of(ReleaseRegistry.OCP_REPOSITORY, ReleaseRegistry.OKD_REPOSITORY)) {
      conf.append("\n[[registry]]\nlocation = \"quay.io/")
          .append(repository)
          .append("\"\n[[registry.mirror]]\nlocation = \"")
          .append(ReleaseRegistry.shared().host())
          .append('/')
          .append(repository)
          .append("\"\n");
    }
    return conf.toString();
  }

  /** Both jars at once, as their Deployments start; then waits until both are ready. */
  private void startProviders() throws InterruptedException, IOException {
    // DiskImage: the jar downloads discovery ignition from assisted-service's HTTPS API, named by
    // the InfraEnv's URLs, trusting the CA this world published.
    start(ProviderJar.BOOTSTRAP, bootstrapEnvironment());
    // The control plane resolves each release to its digest through the hub's mirrors (or in the
    // repository a manifest's override names), trusting the registry's CA as a hub's trusted CA
    // bundle.
    Path mirrors = options.workDir().resolve("hub-registries.conf");
    Files.createDirectories(options.workDir());
    Files.writeString(mirrors, hubRegistriesConf());
    Map<String, String> controlPlane =
        new HashMap<>(
            Map.of(
                "WORKLOAD_POLL_INTERVAL",
                options.workloadPollInterval().toMillis() + "ms",
                "REGISTRY_CA_BUNDLE_FILE",
                ReleaseRegistry.shared().caFile().toString(),
                "CONTAINERS_REGISTRIES_CONF",
                mirrors.toString()));
    // Cluster API's in-place update hooks, on one address: one replica serves them here (several
    // would each need a port, where a Service spreads the calls in a real cluster).
    InPlaceExtension inPlace =
        options.providerReplicas() == 1 ? InPlaceExtension.prepare(options.workDir()) : null;
    if (inPlace != null) {
      controlPlane.putAll(inPlace.environment());
    }
    start(ProviderJar.CONTROLPLANE, controlPlane);
    for (ProviderJar jar : replicas.keySet()) {
      for (ProviderProcess replica : replicas.get(jar).values()) {
        // The first replica's time is the provider's (the one the benchmark reports).
        readyAfter.putIfAbsent(jar, replica.awaitReady(PROVIDER_START));
      }
      LOG.info(
          "{} ready {} ms after its start (pid {}, log {})",
          jar.command,
          readyAfter.get(jar).toMillis(),
          provider(jar).pid(),
          provider(jar).log());
    }
    if (inPlace != null) {
      inPlace.register(hub.client());
    }
  }

  /**
   * The Go provider pair instead of ours, reaching what ours reach: the hub, assisted-service's
   * REST API (discovery ignition), the release registry (trusting its CA as the system's, as a hub
   * whose registry's CA is in the pods' trust store) and each installed cluster's API server. The
   * bootstrap manager's defaults find assisted-service's CA where {@link #publishAssistedServiceCa}
   * put it.
   */
  private void startGoProviders() {
    if (!options.watchedNamespaces().isEmpty()) {
      throw new IllegalArgumentException(
          "the Go provider pair watches every namespace; a namespaced install is of ours only");
    }
    ReleaseRegistry registry = ReleaseRegistry.shared();
    // With a repository override it names OKD releases <repository>:<version>-<architecture> too
    // ("multi" until its configs name one), where OKD's repository tags them by version alone: the
    // registry gets those tags for the OKD releases the tests name, or the Go pair finds none.
    for (ReleaseRegistry.Release release : registry.catalog()) {
      if (release.version().contains("-okd-") && !registry.published().contains(release)) {
        for (String architecture : List.of("multi", "x86_64")) {
          registry.tag(release, release.version() + "-" + architecture);
        }
      }
    }
    goProviders =
        GoProviders.start(
            hub.client(),
            hub.kubeConfigYaml(),
            options.workDir(),
            options.goProvider(),
            List.of(
                java.net.URI.create(assistedService.restRoot()).getPort(),
                Integer.parseInt(registry.host().substring(registry.host().lastIndexOf(':') + 1))),
            Map.of(
                GoProviders.Manager.CONTROLPLANE,
                Map.of("SSL_CERT_FILE", registry.caFile().toString())));
    running.push(goProviders);
    workloads.onStart(server -> workloads.ports(server).forEach(goProviders::reachOutside));
  }

  /**
   * Our pair, started where the Go pair ran once its Deployments are scaled to 0, as a user
   * installs it when switching (docs/from-the-go-provider.md): our CRDs must be on the hub by then.
   */
  public void startOurProviders() throws InterruptedException, IOException {
    if (goProviders == null || !goProviders.stopped() || !replicas.isEmpty()) {
      throw new IllegalStateException("ours start where the Go pair ran and stopped");
    }
    startProviders();
  }

  /** The Go provider pair, when this world runs it ({@link Options#goProvider()}). */
  public Optional<GoProviders> goProviders() {
    return Optional.ofNullable(goProviders);
  }

  /**
   * Each replica of a provider; the first is the one {@link #provider} returns. As its
   * ServiceAccount, all replicas share its kubeconfig and elect their leader in its namespace.
   */
  private void start(ProviderJar jar, Map<String, String> environment) {
    String kubeconfig = hub.kubeConfigYaml();
    ProviderServiceAccount account = null;
    if (options.serviceAccounts()) {
      account = ProviderServiceAccount.install(hub.client(), jar, options.watchedNamespaces());
      if (jar == ProviderJar.BOOTSTRAP && !options.watchedNamespaces().isEmpty()) {
        // Outside the watched namespaces: a Role on that one Secret, as the chart's ca-bundle Role.
        account.grantSecretRead(hub.client(), ASSISTED_CA_NAMESPACE, ASSISTED_CA_SECRET);
      }
      serviceAccounts.put(jar, account);
      kubeconfig = account.kubeconfig(kubeconfig);
    }
    int count = options.providerReplicas();
    if (count > 1 || options.leaderElection()) {
      leaseNamespaces.put(jar, account != null ? account.namespace() : sharedLeaseNamespace());
    }
    String leases = leaseNamespaces.get(jar);
    Map<String, ProviderProcess> started = new LinkedHashMap<>();
    for (int n = 0; n < count; n++) {
      String pod = count == 1 ? jar.command : jar.command + "-" + n;
      started.put(pod, startReplica(jar, pod, kubeconfig, leases, environment));
    }
    replicas.put(jar, started);
  }

  private String sharedLeaseNamespace() {
    if (sharedLeaseNamespace == null) {
      sharedLeaseNamespace = hub.createNamespace("provider-leases");
    }
    return sharedLeaseNamespace;
  }

  /**
   * One replica elects no leader unless {@link Options#leaderElection()} (a restarted provider
   * would otherwise wait for its old Lease to expire); several, or one with leader election, elect
   * one in {@code leases}, and a replica that exits by itself (a leader that could not renew) is
   * started again as the kubelet restarts a Deployment's container. Each has its pod name,
   * directory and log; the image's JVM options within the chart's container limits; a GC log; the
   * jar's classes from the archive the providers share, unless {@link Options#sharedClassData()} is
   * off.
   */
  private ProviderProcess startReplica(
      ProviderJar jar,
      String pod,
      String kubeconfig,
      String leases,
      Map<String, String> environment) {
    Path dir = options.workDir().resolve(pod);
    ProviderProcess.Builder builder =
        ProviderProcess.builder(jar, kubeconfig, dir)
            .env("JAVA_TOOL_OPTIONS", jar.imageJavaToolOptions() + " " + CONTAINER_LIMITS)
            .env("POD_NAME", pod)
            .jvmOption("-Xlog:gc*:file=" + dir.resolve("gc.log") + ":uptime");
    if (options.sharedClassData()) {
      builder.sharedClassData();
    }
    if (leases == null) {
      builder.flag("--leader-elect=false");
    } else {
      builder.flag("--leader-elect=true").flag("--leader-election-namespace=" + leases);
    }
    if (!options.watchedNamespaces().isEmpty()) {
      builder.flag("--namespace=" + String.join(",", options.watchedNamespaces()));
    }
    environment.forEach(builder::env);
    ProviderProcess process = builder.start();
    if (leases != null) {
      // A leader that cannot renew its Lease halts; its Deployment's kubelet starts it again.
      process.restartWhenItExitsByItself();
    }
    running.push(process);
    return process;
  }

  /**
   * The bootstrap provider's environment: trust assisted-service's CA, published in the Secret
   * where the Go provider's defaults look for it ({@code assisted-installer/assisted-installer-ca},
   * key {@code ca.crt}).
   */
  public Map<String, String> bootstrapEnvironment() {
    return Map.of(
        "ASSISTED_CA_BUNDLE_NAMESPACE", ASSISTED_CA_NAMESPACE,
        "ASSISTED_CA_BUNDLE_NAME", ASSISTED_CA_SECRET);
  }

  private void publishAssistedServiceCa() {
    KubernetesClient client = hub.client();
    client
        .namespaces()
        .resource(
            new NamespaceBuilder()
                .withNewMetadata()
                .withName(ASSISTED_CA_NAMESPACE)
                .endMetadata()
                .build())
        .createOr(NonDeletingOperation::update);
    client
        .resource(
            new SecretBuilder()
                .withNewMetadata()
                .withName(ASSISTED_CA_SECRET)
                .withNamespace(ASSISTED_CA_NAMESPACE)
                .endMetadata()
                .addToStringData("ca.crt", assistedService.caPem())
                .build())
        .createOr(NonDeletingOperation::update);
  }

  /**
   * The real assisted-service of this world (and its PostgreSQL): kill and start it, make its REST
   * port refuse, stop its database (fault tests).
   */
  public AssistedServiceProcess assistedService() {
    return assistedService;
  }

  /**
   * From now on the installer fails on every host of {@code namespace} once it has started: each
   * host's agent reports stage {@code Failed} with {@code reason}, and the real service decides
   * what becomes of the installation (a fault tests inject).
   */
  public void failInstallers(String namespace, String reason) {
    agents.failInstallers(namespace, reason);
  }

  /**
   * While {@code hang} is true, the hosts of {@code namespace} that power on hang before their
   * operating system starts, and boot once it is false again: a hold on one cluster's new hosts
   * that leaves the rest of the world alone (a fault tests inject).
   */
  public void hangBoots(String namespace, boolean hang) {
    agents.hangBoots(namespace, hang);
  }

  /**
   * Stops ({@code false}) or starts again the NTP service of the network of {@code namespace}'s
   * hosts: their discovery agents then report no source synchronized (a fault tests inject).
   */
  public void serveNtp(String namespace, boolean serve) {
    agents.serveNtp(namespace, serve);
  }

  /**
   * From now on the machine of BareMetalHost {@code namespace/host} has {@code faults} wrong with
   * it (a disk too small, no default route): from its boot, or at once if it runs, its discovery
   * agent reports its inventory so. An empty set puts it right, as a user who replaced the disk or
   * fixed the network would (a fault tests inject).
   */
  public void hostFaults(String namespace, String host, Set<Machine.Fault> faults) {
    agents.hostFaults(namespace, host, faults);
  }

  /** The management cluster: a cluster-admin client, shared; do not close it. */
  public KubernetesClient hub() {
    return hub.client();
  }

  public ApiServer hubEnvironment() {
    return hub;
  }

  /**
   * Restarts the hub's kube-apiserver and etcd ({@link RestartableKubeApiServer#restart}) under the
   * running world; returns how long the API was away. Only a world with {@link
   * Options#withRestartableHub()}.
   */
  public Duration restartHub() {
    if (!(hub instanceof RestartableKubeApiServer restartable)) {
      throw new IllegalStateException("this world's hub cannot be restarted: withRestartableHub()");
    }
    return restartable.restart();
  }

  /** The hub's audit log (every request, Metadata level, JSON lines). */
  public Path hubAuditLog() {
    return hub.auditLog().orElseThrow();
  }

  /**
   * The installed cluster, when this world has exactly one (or shares one): a cluster-admin client,
   * shared; do not close it.
   */
  public KubernetesClient workload() {
    List<KubeApiServerEnvironment> started = workloads.started();
    if (started.size() != 1) {
      throw new IllegalStateException(
          started.size() + " installed clusters: name one with workload(namespace, name)");
    }
    return started.get(0).client();
  }

  /**
   * The installed cluster of an AgentClusterInstall (named like its OpenshiftAssistedControlPlane),
   * waiting for its API server if it is starting: a cluster-admin client, shared; do not close it.
   */
  public KubernetesClient workload(String namespace, String clusterInstall) {
    return workloads.of(namespace, clusterInstall).join().client();
  }

  /**
   * The network between the hub and the installed cluster of an AgentClusterInstall, once its API
   * server has started: {@link TcpRelay#cut} makes that server unreachable through the kubeconfig
   * its installation published (to the providers, Cluster API, assisted-service), while {@link
   * #workload(String, String)} still reaches it.
   */
  public TcpRelay linkToInstalledCluster(String namespace, String clusterInstall) {
    return workloads
        .link(namespace, clusterInstall)
        .orElseThrow(
            () ->
                new IllegalStateException(
                    "no installed cluster of " + namespace + "/" + clusterInstall + " yet"));
  }

  /**
   * The members of the real etcd of an installed cluster, by name (their Nodes'), as {@code etcdctl
   * member list} shows them now ({@link EtcdOperator}).
   */
  public List<String> etcdMembers(String namespace, String clusterInstall) {
    return etcdOperator.members(namespace, clusterInstall);
  }

  /** The names of the members etcd removed from an installed cluster so far, in order. */
  public List<String> etcdMembersRemoved(String namespace, String clusterInstall) {
    return etcdOperator.removed(namespace, clusterInstall).stream()
        .map(InstalledEtcd.Member::name)
        .toList();
  }

  /** The IDs (hexadecimal, as etcdctl prints them) of the members etcd removed so far, in order. */
  public List<String> etcdMemberIdsRemoved(String namespace, String clusterInstall) {
    return etcdOperator.removed(namespace, clusterInstall).stream()
        .map(InstalledEtcd.Member::hexId)
        .toList();
  }

  /**
   * Runs the real etcdctl against the running members of an installed cluster's etcd (e.g. {@code
   * member list}); its output. Throws when etcdctl fails.
   */
  public String etcdctl(String namespace, String clusterInstall, String... args) {
    return etcdOperator.etcdctl(namespace, clusterInstall, args);
  }

  /**
   * Makes an etcd member of an installed cluster fail (its etcd stopped, its pod not Ready), or run
   * again.
   */
  public void setEtcdMemberDegraded(
      String namespace, String clusterInstall, String member, boolean degraded) {
    etcdOperator.setDegraded(namespace, clusterInstall, member, degraded);
  }

  public Workloads workloadMode() {
    return workloads.mode();
  }

  /**
   * The real upstream managers this world runs: Cluster API, CAPM3, the baremetal-operator of each
   * namespace of hosts.
   */
  public List<WorldProcess> upstreamManagers() {
    List<WorldProcess> managers = new ArrayList<>(List.of(capi.process(), capm3.process()));
    managers.addAll(bareMetalOperators.processes());
    return managers;
  }

  /** The real Cluster API manager (kill and restart it: fault tests). */
  public WorldProcess clusterApi() {
    return capi.process();
  }

  /** The real CAPM3 manager (kill and restart it: fault tests). */
  public WorldProcess capm3() {
    return capm3.process();
  }

  /** The baremetal-operator of a namespace of hosts (kill and restart it: fault tests). */
  public WorldProcess bareMetalOperator(String namespace) {
    return bareMetalOperators
        .of(namespace)
        .orElseThrow(() -> new IllegalStateException("no baremetal-operator in " + namespace));
  }

  /** A provider's (first) process: its pid, its log, its probes. */
  public ProviderProcess provider(ProviderJar jar) {
    if (replicas.isEmpty()) {
      throw new IllegalStateException("this world runs the Go provider pair: see goProviders()");
    }
    return replicas.get(jar).values().iterator().next();
  }

  /** The ServiceAccount a provider runs as, with {@link Options#serviceAccounts()}. */
  public ProviderServiceAccount serviceAccount(ProviderJar jar) {
    return Optional.ofNullable(serviceAccounts.get(jar))
        .orElseThrow(() -> new IllegalStateException(jar + " runs as cluster admin"));
  }

  /**
   * Every replica of a provider by pod name ({@code <command>-<n>} when there are several, the name
   * that starts its Lease holder identity).
   */
  public Map<String, ProviderProcess> replicas(ProviderJar jar) {
    return Collections.unmodifiableMap(replicas.get(jar));
  }

  /**
   * Where a provider's replicas elect their leader (with {@link Options#providerReplicas()} above
   * one or {@link Options#leaderElection()}): its ServiceAccount's namespace with {@link
   * Options#serviceAccounts()}, else one namespace for both providers.
   */
  public String leaseNamespace(ProviderJar jar) {
    return Optional.ofNullable(leaseNamespaces.get(jar))
        .orElseThrow(() -> new IllegalStateException(jar + " elects no leader"));
  }

  /** How long each provider took from its process's start to {@code /readyz} answering 200. */
  public Map<ProviderJar, Duration> providersReadyAfterStart() {
    return Map.copyOf(readyAfter);
  }

  /**
   * A provider's (first) process as the fault tests kill and restart it, like the upstream managers
   * ({@link #upstreamManagers()}).
   */
  public WorldProcess process(ProviderJar jar) {
    return new ProviderWorldProcess(this, jar);
  }

  /** SIGKILL: the provider stops at once, mid-reconcile, as a node failure or OOM kill does. */
  public void killProvider(ProviderJar jar) throws InterruptedException {
    provider(jar).kill();
  }

  /**
   * Starts a provider again (killing it first when it still runs) and waits until it is ready;
   * returns how long that took from the new process's start.
   */
  public Duration restartProvider(ProviderJar jar) throws IOException, InterruptedException {
    ProviderProcess process = provider(jar);
    if (process.isAlive()) {
      process.kill();
    }
    process.restart();
    Duration ready = process.awaitReady(PROVIDER_START);
    readyAfter.put(jar, ready);
    return ready;
  }

  /**
   * Stops both providers' processes (each replica given its grace period, as a Deployment's pods
   * are), leaving the rest of the world running.
   */
  public void stopProviders() {
    replicas.values().forEach(pods -> pods.values().forEach(ProviderProcess::close));
  }

  /**
   * Stops everything this world started, last started first: a hub of its own last; the shared hub
   * keeps running.
   */
  @Override
  public synchronized void close() {
    while (!running.isEmpty()) {
      try {
        running.pop().close();
      } catch (Exception e) {
        LOG.warn("could not stop part of the world", e);
      }
    }
  }
}
