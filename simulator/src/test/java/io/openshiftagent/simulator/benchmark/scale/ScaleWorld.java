package io.openshiftagent.simulator.benchmark.scale;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.openshiftagent.api.external.ExternalKinds;
import io.openshiftagent.simulator.ChildProcesses;
import io.openshiftagent.simulator.ProviderServiceAccount;
import io.openshiftagent.simulator.World;
import io.openshiftagent.testsupport.KubeApiServerEnvironment;
import io.openshiftagent.testsupport.ProviderJar;
import io.openshiftagent.testsupport.ProviderProcess;
import io.openshiftagent.testsupport.ReleaseRegistry;
import io.openshiftagent.testsupport.TestPaths;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What the scale benchmark runs: the real hub API server (all CRDs, an audit log), the world's
 * release registry, our two providers from their jars (as their ServiceAccounts, in the chart's
 * default limits), one real API server shared by the installed clusters behind {@link
 * WorkloadGateway}, and the stand-ins of Cluster API, CAPM3, the baremetal-operator,
 * assisted-service and the installed clusters, all in this JVM.
 *
 * <p>With shards, each provider runs one replica per shard, each with {@code --watch-filter} of its
 * shard (pod name {@code <provider>-<shard>}).
 */
final class ScaleWorld implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(ScaleWorld.class);
  private static final Duration PROVIDER_START = Duration.ofSeconds(120);

  final KubeApiServerEnvironment hub;
  final WorkloadGateway gateway;
  private final Path workDir;
  private final Map<ProviderJar, Map<String, ProviderProcess>> providers =
      new EnumMap<>(ProviderJar.class);
  private final Map<ProviderJar, Map<String, Duration>> readyAfter =
      new EnumMap<>(ProviderJar.class);
  private final List<StandIn> standIns = new ArrayList<>();
  private final Deque<AutoCloseable> running = new ArrayDeque<>();

  private ScaleWorld(KubeApiServerEnvironment hub, WorkloadGateway gateway, Path workDir) {
    this.hub = hub;
    this.gateway = gateway;
    this.workDir = workDir;
  }

  /**
   * Starts it all on {@code hub}; the providers last, and returns once they are ready.
   *
   * @param shards the watch-filter value of each replica; a single empty one: one replica of each
   *     provider, over everything
   */
  static ScaleWorld start(
      KubeApiServerEnvironment hub, Path workDir, Pace pace, List<Optional<String>> shards)
      throws Exception {
    ChildProcesses.stopAllWhenTheJvmExits();
    KubeApiServerEnvironment installed =
        KubeApiServerEnvironment.startIndependent(List.of(TestPaths.workloadCrds()));
    WorkloadGateway gateway;
    try {
      gateway = WorkloadGateway.start(installed.client());
    } catch (Exception e) {
      installed.close();
      throw e;
    }
    labelContracts(hub.client());
    ScaleWorld world = new ScaleWorld(hub, gateway, workDir);
    world.running.push(installed);
    world.running.push(gateway);
    try {
      world.startStandIns(installed, pace);
      world.startProviders(shards);
    } catch (Exception | Error e) {
      world.close();
      throw e;
    }
    return world;
  }

  /**
   * The Cluster API contract labels CAPM3's release puts on its CRDs (clusterctl installs them so):
   * the control plane reads which version of the infrastructure template implements the contract.
   */
  private static void labelContracts(KubernetesClient hub) {
    for (var crd : hub.apiextensions().v1().customResourceDefinitions().list().getItems()) {
      if (crd.getSpec().getGroup().equals(ExternalKinds.INFRASTRUCTURE_GROUP)) {
        hub.apiextensions()
            .v1()
            .customResourceDefinitions()
            .withName(crd.getMetadata().getName())
            .edit(
                c -> {
                  if (c.getMetadata().getLabels() == null) {
                    c.getMetadata().setLabels(new java.util.HashMap<>());
                  }
                  c.getMetadata().getLabels().put("cluster.x-k8s.io/v1beta1", "v1beta1");
                  c.getMetadata().getLabels().put("cluster.x-k8s.io/v1beta2", "v1beta2");
                  return c;
                });
      }
    }
  }

  private void startStandIns(KubeApiServerEnvironment installed, Pace pace) {
    standIns.add(
        new ClusterApiStandIn(
            client(ClusterApiStandIn.NAME),
            installed.newClient(agent(ClusterApiStandIn.NAME)),
            pace));
    standIns.add(
        new Capm3StandIn(
            client(Capm3StandIn.NAME), installed.newClient(agent(Capm3StandIn.NAME)), pace));
    standIns.add(new BareMetalOperatorStandIn(client(BareMetalOperatorStandIn.NAME), pace));
    standIns.add(
        new AssistedServiceStandIn(client(AssistedServiceStandIn.NAME), pace, gateway::kubeconfig));
    standIns.add(
        new InstalledClustersStandIn(
            client(InstalledClustersStandIn.NAME),
            installed.newClient(agent(InstalledClustersStandIn.NAME)),
            pace));
    for (StandIn standIn : standIns) {
      standIn.start();
      running.push(standIn);
    }
    LOG.info("stand-ins started");
  }

  private KubernetesClient client(String standIn) {
    return hub.newClient(agent(standIn));
  }

  private static String agent(String standIn) {
    return StandIn.USER_AGENT_PREFIX + standIn;
  }

  /**
   * Both providers' replicas at once, as their Deployments start; then waits until all are ready.
   */
  private void startProviders(List<Optional<String>> shards) throws InterruptedException {
    for (ProviderJar jar : ProviderJar.values()) {
      ProviderServiceAccount account = ProviderServiceAccount.install(hub.client(), jar);
      Map<String, ProviderProcess> replicas = new LinkedHashMap<>();
      for (Optional<String> shard : shards) {
        String pod = shard.map(s -> jar.command + "-" + s).orElse(jar.command);
        Path dir = workDir.resolve(pod);
        ProviderProcess.Builder builder =
            ProviderProcess.builder(jar, account.kubeconfig(hub.kubeConfigYaml()), dir)
                .env("JAVA_TOOL_OPTIONS", jar.imageJavaToolOptions() + " " + World.CONTAINER_LIMITS)
                .env("POD_NAME", pod)
                .jvmOption("-Xlog:gc*:file=" + dir.resolve("gc.log") + ":uptime")
                .flag("--leader-elect=false");
        shard.ifPresent(s -> builder.flag("--watch-filter=" + s));
        if (jar == ProviderJar.CONTROLPLANE) {
          builder.env("REGISTRY_CA_BUNDLE_FILE", ReleaseRegistry.shared().caFile().toString());
        }
        ProviderProcess process = builder.start();
        running.push(process);
        replicas.put(pod, process);
      }
      providers.put(jar, replicas);
    }
    for (ProviderJar jar : ProviderJar.values()) {
      Map<String, Duration> ready = new LinkedHashMap<>();
      for (Map.Entry<String, ProviderProcess> replica : providers.get(jar).entrySet()) {
        ready.put(replica.getKey(), replica.getValue().awaitReady(PROVIDER_START));
      }
      readyAfter.put(jar, ready);
    }
  }

  /** The replicas of a provider, by pod name. */
  Map<String, ProviderProcess> replicas(ProviderJar jar) {
    return providers.get(jar);
  }

  /** The first (with one shard, the only) replica of a provider. */
  ProviderProcess provider(ProviderJar jar) {
    return providers.get(jar).values().iterator().next();
  }

  /** How long each replica took from its start to ready, at its last start. */
  Map<String, Duration> readyAfterStart(ProviderJar jar) {
    return readyAfter.get(jar);
  }

  /**
   * Stops every replica of both providers (SIGTERM, as a rollout does) and starts them again at
   * once; returns once all are ready.
   */
  void restartProviders() throws Exception {
    for (ProviderJar jar : ProviderJar.values()) {
      for (ProviderProcess replica : providers.get(jar).values()) {
        if (!replica.terminate(Duration.ofSeconds(15))) {
          replica.kill();
        }
      }
    }
    for (ProviderJar jar : ProviderJar.values()) {
      for (ProviderProcess replica : providers.get(jar).values()) {
        replica.restart();
      }
    }
    for (ProviderJar jar : ProviderJar.values()) {
      for (Map.Entry<String, ProviderProcess> replica : providers.get(jar).entrySet()) {
        readyAfter.get(jar).put(replica.getKey(), replica.getValue().awaitReady(PROVIDER_START));
      }
    }
  }

  @Override
  public void close() {
    while (!running.isEmpty()) {
      try {
        running.pop().close();
      } catch (Exception e) {
        LOG.warn("could not stop part of the scale world", e);
      }
    }
  }
}
