package io.openshiftagent.simulator;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.javaoperatorsdk.operator.Operator;
import io.openshiftagent.bootstrap.BootstrapProvider;
import io.openshiftagent.bootstrap.DiscoveryIgnitionSource;
import io.openshiftagent.controlplane.ControlPlaneProvider;
import io.openshiftagent.provider.ControllerScope;
import io.openshiftagent.provider.ProviderOperator;
import io.openshiftagent.testsupport.KubeApiServerEnvironment;
import io.openshiftagent.testsupport.TestPaths;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A local world: the hub (real kube-apiserver and etcd with the upstream CRDs), the real Cluster
 * API core manager, our two providers, the simulated Metal3, hosts and assisted-service, and the
 * installed cluster (a second real kube-apiserver). One installed cluster per world: every
 * installation produces it.
 */
public final class World implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(World.class);

  /** How often the control-plane provider looks at the installed cluster. */
  private static final Duration WORKLOAD_POLL = Duration.ofSeconds(5);

  private final KubeApiServerEnvironment hub;
  private final KubeApiServerEnvironment workload;
  private final CapiManager capi;
  private final Deque<AutoCloseable> running = new ArrayDeque<>();

  private World(KubeApiServerEnvironment hub, KubeApiServerEnvironment workload, CapiManager capi) {
    this.hub = hub;
    this.workload = workload;
    this.capi = capi;
  }

  /**
   * Starts everything and returns once it runs.
   *
   * @param workDir where the Cluster API manager's files and log go
   */
  public static World start(SimulatedDurations durations, Path workDir) throws Exception {
    long started = System.nanoTime();
    KubeApiServerEnvironment hub = KubeApiServerEnvironment.shared();
    KubeApiServerEnvironment workload =
        KubeApiServerEnvironment.startIndependent(List.of(TestPaths.workloadCrds()));
    World world = null;
    try {
      CapiManager capi = CapiManager.start(hub.kubeConfigYaml(), hub.newClient(), workDir);
      world = new World(hub, workload, capi);
      world.running.push(workload);
      world.running.push(capi);
      world.startSimulation(durations);
      world.startProviders();
    } catch (Exception | Error e) {
      if (world != null) {
        world.close();
      } else {
        workload.close();
      }
      throw e;
    }
    LOG.info("world ready in {} ms", (System.nanoTime() - started) / 1_000_000);
    return world;
  }

  private void startSimulation(SimulatedDurations durations) {
    for (Actor actor :
        List.of(
            new Metal3(hub.newClient(), durations),
            new Hosts(hub.newClient(), durations),
            new AssistedService(hub.newClient(), durations, workload.kubeConfigYaml()),
            new InstalledCluster(hub.newClient(), workload.newClient()))) {
      actor.start();
      running.push(actor);
    }
  }

  private void startProviders() {
    KubernetesClient bootstrapClient = hub.newClient();
    Operator bootstrap = ProviderOperator.create(bootstrapClient, o -> {});
    DiscoveryIgnitionSource noDiskImages =
        (url, events) -> {
          throw new DiscoveryIgnitionSource.DownloadException(
              "the simulator does not serve discovery ignition yet (DiskImage)", false, null);
        };
    BootstrapProvider.register(
        bootstrap, bootstrapClient, noDiskImages, "world", ControllerScope.EVERYTHING);
    bootstrap.start();
    running.push(bootstrap::stop);

    Operator controlPlane = ControlPlaneProvider.create(hub.newClient(), WORKLOAD_POLL);
    controlPlane.start();
    running.push(controlPlane::stop);
  }

  /** The management cluster: a cluster-admin client, shared; do not close it. */
  public KubernetesClient hub() {
    return hub.client();
  }

  public KubeApiServerEnvironment hubEnvironment() {
    return hub;
  }

  /** The installed cluster: a cluster-admin client, shared; do not close it. */
  public KubernetesClient workload() {
    return workload.client();
  }

  public Path capiManagerLog() {
    return capi.log();
  }

  /** Stops everything this world started, last started first; the shared hub keeps running. */
  @Override
  public void close() {
    while (!running.isEmpty()) {
      try {
        running.pop().close();
      } catch (Exception e) {
        LOG.warn("could not stop part of the world", e);
      }
    }
  }
}
