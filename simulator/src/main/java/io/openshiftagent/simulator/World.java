package io.openshiftagent.simulator;

import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.NonDeletingOperation;
import io.javaoperatorsdk.operator.Operator;
import io.openshiftagent.bootstrap.BootstrapProvider;
import io.openshiftagent.bootstrap.BootstrapProviderMain;
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
import java.util.Map;
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
  private static final String ASSISTED_CA_NAMESPACE = "assisted-installer";
  private static final String ASSISTED_CA_SECRET = "assisted-installer-ca";

  private final Deque<AutoCloseable> running = new ArrayDeque<>();
  private AssistedService assistedService;

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
      world.publishAssistedServiceCa();
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
    assistedService = new AssistedService(hub.newClient(), durations, workload.kubeConfigYaml());
    for (Actor actor :
        List.of(
            new Metal3(hub.newClient(), durations),
            new Hosts(hub.newClient(), durations),
            assistedService,
            new InstalledCluster(hub.newClient(), workload.newClient(), durations))) {
      actor.start();
      running.push(actor);
    }
  }

  private void startProviders() {
    KubernetesClient bootstrapClient = hub.newClient();
    Operator bootstrap = ProviderOperator.create(bootstrapClient, o -> {});
    BootstrapProvider.register(
        bootstrap,
        bootstrapClient,
        BootstrapProviderMain.discoveryIgnitionSource(bootstrapClient, bootstrapEnvironment()),
        "world",
        ControllerScope.EVERYTHING);
    bootstrap.start();
    running.push(bootstrap::stop);

    Operator controlPlane = ControlPlaneProvider.create(hub.newClient(), WORKLOAD_POLL);
    controlPlane.start();
    running.push(controlPlane::stop);
  }

  /**
   * The bootstrap provider's environment: trust the simulated assisted-service's CA, published in
   * the Secret where the Go provider's defaults look for it ({@code
   * assisted-installer/assisted-installer-ca}, key {@code ca.crt}).
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
