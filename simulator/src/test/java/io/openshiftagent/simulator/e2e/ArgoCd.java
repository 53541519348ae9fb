package io.openshiftagent.simulator.e2e;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.NonDeletingOperation;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.openshiftagent.testsupport.ChildProcesses;
import io.openshiftagent.testsupport.CrdInstaller;
import io.openshiftagent.testsupport.FreePorts;
import io.openshiftagent.testsupport.TestPaths;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The real Argo CD ({@code hack/build-argocd.sh}) managing the world's hub as its in-cluster
 * destination: its CRDs and base configuration in namespace {@code argocd}, Redis (Debian's {@code
 * redis-server}), the repo server and the application controller as child processes on free
 * 127.0.0.1 ports. No API server and no UI: Applications are created with kubectl and read back
 * from their status, which the controller writes with each resource's health ({@code
 * --persist-resource-health}).
 */
final class ArgoCd implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(ArgoCd.class);
  static final String VERSION = "3.2.11";
  static final String NAMESPACE = "argocd";
  static final String API_VERSION = "argoproj.io/v1alpha1";
  private static final Duration START = Duration.ofSeconds(90);
  private static final HttpClient HTTP =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

  /**
   * The controller's log line for each time it compared an Application with Git and the cluster.
   */
  private static final Pattern COMPARISON =
      Pattern.compile(
          "msg=\"Reconciliation completed\".* application=(\\S+) .*comparison-level=[123] ");

  private final Deque<Process> processes = new ArrayDeque<>();
  private final KubernetesClient hub;
  private final Path workDir;

  /** How the repo server is started, and where it says it is healthy, to start it again. */
  private ProcessBuilder repoServer;

  private Process repoServerProcess;
  private int repoServerMetrics;

  private ArgoCd(KubernetesClient hub, Path workDir) {
    this.hub = hub;
    this.workDir = workDir;
  }

  /**
   * Installs Argo CD's CRDs and base configuration in the hub and starts Redis, the repo server and
   * the application controller; returns once all three answer.
   */
  static ArgoCd start(KubernetesClient hub, String hubKubeconfigYaml, Path workDir)
      throws Exception {
    long started = System.nanoTime();
    Path binary = TestPaths.tool("argocd-v" + VERSION);
    Path manifests = Path.of(binary + "-manifests");
    if (!Files.isDirectory(manifests)) {
      throw new IllegalStateException(manifests + " is missing: run hack/build-argocd.sh");
    }
    CrdInstaller.install(
        hub, CrdInstaller.read(hub, manifests.resolve("crds")), Duration.ofSeconds(60));
    installBaseConfiguration(hub, manifests.resolve("config"));

    ArgoCd argoCd = new ArgoCd(hub, Files.createDirectories(workDir).toAbsolutePath());
    try {
      Path kubeconfig =
          Files.writeString(argoCd.workDir.resolve("hub.kubeconfig"), hubKubeconfigYaml);
      int redis = FreePorts.next();
      argoCd.startRedis(redis);
      int repoServer = FreePorts.next();
      argoCd.repoServerMetrics = FreePorts.next();
      argoCd.repoServer =
          argoCd.builder(
              binary,
              "argocd-repo-server",
              List.of(
                  "--address=127.0.0.1",
                  "--port=" + repoServer,
                  "--metrics-address=127.0.0.1",
                  "--metrics-port=" + argoCd.repoServerMetrics,
                  "--redis=127.0.0.1:" + redis,
                  "--disable-tls"));
      argoCd.repoServerProcess = argoCd.repoServer.start();
      argoCd.processes.push(argoCd.repoServerProcess);
      int controllerMetrics = FreePorts.next();
      argoCd.start(
          argoCd.builder(
              binary,
              "argocd-application-controller",
              List.of(
                  "--kubeconfig=" + kubeconfig,
                  "--namespace=" + NAMESPACE,
                  "--repo-server=127.0.0.1:" + repoServer,
                  "--repo-server-plaintext",
                  "--redis=127.0.0.1:" + redis,
                  "--metrics-port=" + controllerMetrics,
                  "--persist-resource-health",
                  // Compare every Application with Git and the cluster every 5 s (a user's Argo CD:
                  // every 120 s plus up to 60 s of jitter, argocd-cm's timeout.reconciliation and
                  // timeout.reconciliation.jitter). Argo CD recomputes the health of our kinds only
                  // then: Cluster API owns them, and changes of owned objects refresh only the
                  // tree.
                  "--app-resync=5",
                  "--app-resync-jitter=0",
                  "--status-processors=4",
                  "--operation-processors=2")));
      argoCd.awaitHealthy("repo server", argoCd.repoServerMetrics, "/healthz?full=true");
      argoCd.awaitHealthy("application controller", controllerMetrics, "/healthz");
    } catch (Exception | Error e) {
      argoCd.close();
      throw e;
    }
    LOG.info(
        "Argo CD v{} (repo server, application controller, Redis) ready in {} ms; logs in {}",
        VERSION,
        (System.nanoTime() - started) / 1_000_000,
        workDir);
    return argoCd;
  }

  /**
   * What Argo CD's install manifests create before anyone configures it: argocd-cm (with its
   * default resource exclusions), argocd-secret..., and what Argo CD's API server adds when it
   * first starts (this test runs none): the {@code default} AppProject and argocd-secret's {@code
   * server.secretkey}, without which the controller cannot read its settings.
   */
  private static void installBaseConfiguration(KubernetesClient hub, Path config)
      throws IOException {
    hub.namespaces()
        .resource(
            new NamespaceBuilder().withNewMetadata().withName(NAMESPACE).endMetadata().build())
        .createOr(NonDeletingOperation::update);
    try (Stream<Path> files = Files.list(config)) {
      for (Path file : files.sorted().toList()) {
        try (InputStream in = Files.newInputStream(file)) {
          for (HasMetadata object : hub.load(in).items()) {
            object.getMetadata().setNamespace(NAMESPACE);
            hub.resource(object).createOr(NonDeletingOperation::update);
          }
        }
      }
    }
    byte[] key = new byte[32];
    new SecureRandom().nextBytes(key);
    hub.secrets()
        .inNamespace(NAMESPACE)
        .withName("argocd-secret")
        .edit(
            secret -> {
              secret.setStringData(
                  Map.of("server.secretkey", Base64.getEncoder().encodeToString(key)));
              return secret;
            });
    GenericKubernetesResource project =
        Serialization.unmarshal(
            """
            apiVersion: argoproj.io/v1alpha1
            kind: AppProject
            metadata:
              name: default
              namespace: argocd
            spec:
              sourceRepos: ["*"]
              destinations: [{server: "*", namespace: "*"}]
              clusterResourceWhitelist: [{group: "*", kind: "*"}]
            """,
            GenericKubernetesResource.class);
    hub.resource(project).createOr(NonDeletingOperation::update);
  }

  private void startRedis(int port) throws Exception {
    Path dir = Files.createDirectories(workDir.resolve("redis"));
    Process redis =
        new ProcessBuilder(
                "redis-server",
                "--bind",
                "127.0.0.1",
                "--port",
                String.valueOf(port),
                "--dir",
                dir.toString(),
                "--save",
                "",
                "--appendonly",
                "no")
            .redirectErrorStream(true)
            .redirectOutput(workDir.resolve("redis.log").toFile())
            .start();
    processes.push(redis);
    long deadline = System.nanoTime() + START.toNanos();
    while (true) {
      try (Socket socket = new Socket()) {
        socket.connect(new InetSocketAddress("127.0.0.1", port), 500);
        return;
      } catch (IOException notYet) {
        if (!redis.isAlive() || System.nanoTime() > deadline) {
          throw new IllegalStateException(
              "redis-server is not listening on " + port + "; see " + workDir.resolve("redis.log"));
        }
        Thread.sleep(100);
      }
    }
  }

  /**
   * One Argo CD component: the multi-call binary under the component's name, its files (git
   * checkouts, the askpass socket, GnuPG off) in a directory of its own.
   */
  private ProcessBuilder builder(Path binary, String component, List<String> flags)
      throws IOException {
    Path dir = Files.createDirectories(workDir.resolve(component));
    Path tmp = Files.createDirectories(dir.resolve("tmp"));
    List<String> command = new ArrayList<>();
    command.add(binary.toString());
    command.addAll(flags);
    command.add("--logformat=text");
    // Started afresh, appended to across restarts.
    Path log = workDir.resolve(component + ".log");
    Files.deleteIfExists(log);
    ProcessBuilder builder =
        new ProcessBuilder(command)
            .redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
    Map<String, String> env = builder.environment();
    env.put("ARGOCD_BINARY_NAME", component);
    // Argo CD's way to run outside a pod: its in-cluster destination
    // (https://kubernetes.default.svc)
    // is the cluster of $KUBECONFIG, here the hub.
    env.put("ARGOCD_FAKE_IN_CLUSTER", "true");
    env.put("KUBECONFIG", workDir.resolve("hub.kubeconfig").toString());
    env.put("HOME", dir.toString());
    env.put("TMPDIR", tmp.toString());
    env.put("ARGOCD_GPG_ENABLED", "false");
    env.put("ARGOCD_ASK_PASS_SOCK", dir.resolve("askpass.sock").toString());
    env.put(
        "ARGOCD_PLUGINSOCKFILEPATH", Files.createDirectories(dir.resolve("plugins")).toString());
    env.put("ARGOCD_SSH_DATA_PATH", Files.createDirectories(dir.resolve("ssh")).toString());
    env.put("ARGOCD_TLS_DATA_PATH", Files.createDirectories(dir.resolve("tls")).toString());
    return builder;
  }

  private void start(ProcessBuilder builder) throws IOException {
    processes.push(builder.start());
  }

  /** SIGKILLs the repo server, as a node failure or an OOM kill would. */
  void killRepoServer() throws InterruptedException {
    repoServerProcess.destroyForcibly();
    repoServerProcess.waitFor();
    processes.remove(repoServerProcess);
  }

  /** Starts the repo server again, as its Deployment would, and waits until it is healthy. */
  void startRepoServer() throws Exception {
    repoServerProcess = repoServer.start();
    processes.push(repoServerProcess);
    awaitHealthy("repo server", repoServerMetrics, "/healthz?full=true");
  }

  private void awaitHealthy(String component, int port, String path) throws Exception {
    URI uri = URI.create("http://127.0.0.1:" + port + path);
    long deadline = System.nanoTime() + START.toNanos();
    while (System.nanoTime() < deadline) {
      if (processes.stream().anyMatch(p -> !p.isAlive())) {
        throw new IllegalStateException("an Argo CD process exited; see the logs in " + workDir);
      }
      try {
        HttpResponse<Void> response =
            HTTP.send(
                HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(5)).build(),
                HttpResponse.BodyHandlers.discarding());
        if (response.statusCode() == 200) {
          return;
        }
      } catch (IOException notYetListening) {
        // Still starting.
      }
      Thread.sleep(200);
    }
    throw new IllegalStateException(
        "the Argo CD " + component + " is not healthy after " + START + "; see " + workDir);
  }

  /** Starts recording what Argo CD reports about Application {@code name}. */
  ApplicationTimeline watch(String name) {
    return ApplicationTimeline.watch(hub, name, () -> comparisons(name));
  }

  /**
   * How many times the controller compared Application {@code name} with Git and the live objects
   * (its log's "Reconciliation completed" at comparison level 1 to 3; level 0 only refreshes the
   * resource tree).
   */
  int comparisons(String name) {
    try (Stream<String> lines = Files.lines(workDir.resolve("argocd-application-controller.log"))) {
      return (int)
          lines.map(COMPARISON::matcher).filter(m -> m.find() && m.group(1).equals(name)).count();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Stops the controller, the repo server and Redis (SIGTERM, SIGKILL after 10 s). */
  @Override
  public void close() {
    while (!processes.isEmpty()) {
      ChildProcesses.stop(processes.pop(), Duration.ofSeconds(10));
    }
  }
}
