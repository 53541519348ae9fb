package io.openshiftagent.simulator;

import io.openshiftagent.testsupport.KubeApiServerEnvironment;
import io.openshiftagent.testsupport.TcpRelay;
import io.openshiftagent.testsupport.TestPaths;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The API servers of the installed clusters, one per AgentClusterInstall, each a real
 * kube-apiserver and etcd with OpenShift's ClusterVersion CRD, started in the background when the
 * installation first needs it; or, in {@link World.Workloads#SHARED} mode, one for all of them.
 *
 * <p>The kubeconfig the installation publishes names each server through a link of its own ({@link
 * TcpRelay}): a test cuts it to make the installed cluster unreachable from the hub (the providers,
 * Cluster API, assisted-service), while the test's own client still reaches the server.
 */
final class WorkloadClusters implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(WorkloadClusters.class);

  /**
   * The installed clusters' API server flags. The kubelets ({@link KwokKubelet}) serve on loopback:
   * reach them by the InternalIP. An installed cluster has a handful of clients, so the server
   * keeps no watch cache, runs no priority-and-fairness controller and maintains no endpoints for
   * its own Service: that halves what each mostly idle server costs (about 0.8 s of CPU a minute
   * instead of 1.5 s, docs/testing.md) while the API the providers and Cluster API use is the same.
   */
  static final List<String> API_SERVER_FLAGS =
      List.of(
          "--kubelet-preferred-address-types",
          "InternalIP",
          "--watch-cache=false",
          "--enable-priority-and-fairness=false",
          "--endpoint-reconciler-type=none",
          "--etcd-count-metric-poll-period=0");

  private final World.Workloads mode;
  private final Map<String, CompletableFuture<KubeApiServerEnvironment>> byInstall =
      new ConcurrentHashMap<>();

  /** Starts one server at a time: they are slow to start, and the machine is small. */
  private final ExecutorService starter =
      Executors.newSingleThreadExecutor(r -> new Thread(r, "sim-workload-starter"));

  private final CompletableFuture<KubeApiServerEnvironment> shared;
  private final List<Consumer<KubeApiServerEnvironment>> onStart = new ArrayList<>();
  private final List<KubeApiServerEnvironment> startedServers = new ArrayList<>();
  private final Map<KubeApiServerEnvironment, TcpRelay> links = new ConcurrentHashMap<>();
  private volatile boolean closed;

  WorkloadClusters(World.Workloads mode) {
    this.mode = mode;
    this.shared = mode == World.Workloads.SHARED ? startServer("every installation") : null;
  }

  /**
   * Calls {@code action} with each server once it has started (now, for those already started),
   * before anything else may use it.
   */
  synchronized void onStart(Consumer<KubeApiServerEnvironment> action) {
    onStart.add(action);
    startedServers.forEach(action);
  }

  /** The API server of the cluster this AgentClusterInstall installs, started on first call. */
  CompletableFuture<KubeApiServerEnvironment> of(String namespace, String clusterInstall) {
    if (shared != null) {
      return shared;
    }
    return byInstall.computeIfAbsent(
        namespace + "/" + clusterInstall, key -> startServer("AgentClusterInstall " + key));
  }

  /** The API server of the cluster this AgentClusterInstall installs, if it has started. */
  Optional<KubeApiServerEnvironment> ifStarted(String namespace, String clusterInstall) {
    CompletableFuture<KubeApiServerEnvironment> server =
        shared != null ? shared : byInstall.get(namespace + "/" + clusterInstall);
    return server != null && server.isDone() && !server.isCompletedExceptionally()
        ? Optional.of(server.join())
        : Optional.empty();
  }

  /** The servers started so far. */
  List<KubeApiServerEnvironment> started() {
    List<KubeApiServerEnvironment> servers = new ArrayList<>();
    for (CompletableFuture<KubeApiServerEnvironment> server :
        shared != null ? List.of(shared) : List.copyOf(byInstall.values())) {
      if (server.isDone() && !server.isCompletedExceptionally()) {
        servers.add(server.join());
      }
    }
    return servers;
  }

  World.Workloads mode() {
    return mode;
  }

  /**
   * The link between the hub and the API server of the cluster this AgentClusterInstall installs,
   * once that server has started.
   */
  Optional<TcpRelay> link(String namespace, String clusterInstall) {
    return ifStarted(namespace, clusterInstall).map(links::get);
  }

  /** The server's kubeconfig as the installation publishes it: through its link. */
  String publishedKubeconfig(KubeApiServerEnvironment server) {
    return server
        .kubeConfigYaml()
        .replaceAll(
            "(server:\\s*\"?https://127\\.0\\.0\\.1:)" + port(server) + "\\b",
            "$1" + links.get(server).port());
  }

  /**
   * The ports a process in a network of its own must reach for this server: its own, its link's.
   */
  List<Integer> ports(KubeApiServerEnvironment server) {
    return List.of(port(server), links.get(server).port());
  }

  private static int port(KubeApiServerEnvironment server) {
    return server.client().getMasterUrl().getPort();
  }

  private CompletableFuture<KubeApiServerEnvironment> startServer(String forWhat) {
    return CompletableFuture.supplyAsync(
        () -> {
          if (closed) {
            throw new IllegalStateException("the world is closing");
          }
          long started = System.nanoTime();
          KubeApiServerEnvironment server =
              KubeApiServerEnvironment.startIndependent(
                  List.of(TestPaths.workloadCrds()), API_SERVER_FLAGS);
          links.put(server, TcpRelay.to(port(server)));
          synchronized (this) {
            startedServers.add(server);
            onStart.forEach(action -> action.accept(server));
          }
          LOG.info(
              "workload API server for {} ready in {} ms",
              forWhat,
              (System.nanoTime() - started) / 1_000_000);
          return server;
        },
        starter);
  }

  /** Stops every server started, waiting for one that is starting. */
  @Override
  public void close() {
    closed = true;
    starter.shutdown();
    List<CompletableFuture<KubeApiServerEnvironment>> all = new ArrayList<>(byInstall.values());
    if (shared != null) {
      all.add(shared);
    }
    for (CompletableFuture<KubeApiServerEnvironment> server : all) {
      try {
        Optional.ofNullable(links.get(server.join())).ifPresent(TcpRelay::close);
        server.join().close();
      } catch (RuntimeException failedToStart) {
        LOG.debug("a workload API server had not started: {}", failedToStart.getMessage());
      }
    }
  }
}
