package io.openshiftagent.testsupport;

import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A kube-apiserver and its etcd that can be stopped and started again, as a real control plane is
 * restarted: the same data directory, ports, certificates and service-account key every time, so
 * kubeconfigs and clients made before a restart work after it. Same binaries and the same kind of
 * flags as {@link KubeApiServerEnvironment} (fabric8 kube-api-test), which cannot restart: its stop
 * deletes etcd's data and its start picks new ports.
 *
 * <p>The caller closes it, which deletes etcd's data and the keys (the logs stay); it is also
 * stopped when the JVM exits.
 *
 * <p>Over 350 lines: etcd and the API server are started, stopped and checked together, with the
 * certificates both need; they are one restartable unit.
 */
public final class RestartableKubeApiServer implements ApiServer, AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(RestartableKubeApiServer.class);
  private static final Duration STARTUP = Duration.ofSeconds(120);

  /**
   * How long a SIGTERM may take before SIGKILL. kube-apiserver drains its requests first; under a
   * whole world's watches it did not exit within 60 s, and a longer drain shows nothing more than a
   * longer outage.
   */
  private static final Duration GRACE = Duration.ofSeconds(15);

  private final Path dir;
  private final Path pki;
  private final Path etcdData;
  private final List<String> extraApiServerFlags;
  private final int etcdPort = FreePorts.next();
  private final int etcdPeerPort = FreePorts.next();
  private final int port = FreePorts.next();
  private final HttpClient http;
  private final String kubeConfigYaml;
  private final KubernetesClient client;
  private final List<CustomResourceDefinition> installedCrds = new CopyOnWriteArrayList<>();
  private final AtomicBoolean closed = new AtomicBoolean();
  private Process etcd;
  private Process apiServer;

  private RestartableKubeApiServer(Path dir, List<String> extraApiServerFlags) throws Exception {
    this.dir = dir.toAbsolutePath();
    this.pki = Files.createDirectories(this.dir.resolve("pki"));
    this.etcdData = this.dir.resolve("etcd");
    this.extraApiServerFlags = List.copyOf(extraApiServerFlags);
    TestPki ca = TestPki.newCertificateAuthority("kube-apiserver-ca");
    TestPki.PemKeyPair serving = ca.pemServerCertificateFor127001("kube-apiserver");
    TestPki.PemKeyPair admin = ca.pemClientCertificate("openshift-agent-tests", "system:masters");
    Files.writeString(pki.resolve("ca.crt"), ca.caPem());
    Files.writeString(pki.resolve("apiserver.crt"), serving.certificate());
    Files.writeString(pki.resolve("apiserver.key"), serving.privateKey());
    TestPki.PemKeys serviceAccounts = TestPki.newPemKeys();
    Files.writeString(pki.resolve("service-account.pub"), serviceAccounts.publicKey());
    Files.writeString(pki.resolve("service-account.key"), serviceAccounts.privateKey());
    // HTTP/1.1: the JDK's HTTP/2 client gets GOAWAY from the kube-apiserver for these probes.
    http =
        HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .sslContext(ca.clientContext())
            .build();
    kubeConfigYaml = kubeconfig(ca.caPem(), admin);
    client = newClient();
  }

  /**
   * Starts etcd and a kube-apiserver with no CRDs and waits until it is ready.
   *
   * @param dir where etcd's data, the certificates and the two logs go; made if missing, and must
   *     not hold etcd data already
   * @param extraApiServerFlags more kube-apiserver flags as name, value, name, value... (for
   *     example an audit log)
   */
  public static RestartableKubeApiServer start(Path dir, List<String> extraApiServerFlags) {
    KubeApiServerEnvironment.requirePrepared(TestPaths.kubeBinaries(), TestPaths.upstreamCrds());
    if (Files.exists(dir.resolve("etcd"))) {
      throw new IllegalStateException(
          dir.resolve("etcd") + " exists: start from a fresh directory");
    }
    RestartableKubeApiServer server;
    try {
      server = new RestartableKubeApiServer(dir, extraApiServerFlags);
    } catch (Exception e) {
      throw new IllegalStateException("cannot prepare the certificates in " + dir, e);
    }
    Runtime.getRuntime().addShutdownHook(new Thread(server::close, "kube-apiserver-stop"));
    try {
      long started = System.nanoTime();
      server.startEtcd();
      server.startApiServer();
      LOG.info(
          "restartable kube-apiserver {} on port {} ready in {} ms ({})",
          TestPaths.KUBERNETES_VERSION,
          server.port,
          millisSince(started),
          server.dir);
    } catch (RuntimeException e) {
      server.close();
      throw e;
    }
    return server;
  }

  /** Like {@link #start}, with every CRD of a management cluster ({@link TestPaths#hubCrds()}). */
  public static RestartableKubeApiServer startHub(Path dir, List<String> extraApiServerFlags) {
    RestartableKubeApiServer server = start(dir, extraApiServerFlags);
    try {
      server.installCrds(TestPaths.hubCrds());
    } catch (RuntimeException e) {
      server.close();
      throw e;
    }
    return server;
  }

  /**
   * A management cluster like {@link KubeApiServerEnvironment#startHub(Path)}'s (every CRD, the
   * audit log at {@code dir/audit.log}, the owner-reference permission check) that can be
   * restarted; etcd's data of an earlier run in {@code dir} is deleted first.
   */
  public static RestartableKubeApiServer startRestartableHub(Path dir) {
    try {
      TestPaths.deleteRecursively(dir.resolve("etcd"));
      return startHub(dir, KubeApiServerEnvironment.hubFlags(dir));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Where the audit log goes, when a flag names it. */
  @Override
  public Optional<Path> auditLog() {
    int flag = extraApiServerFlags.indexOf("--audit-log-path");
    return flag < 0 || flag + 1 >= extraApiServerFlags.size()
        ? Optional.empty()
        : Optional.of(Path.of(extraApiServerFlags.get(flag + 1)));
  }

  /** Installs every CRD under the directories and waits until each is Established. */
  public void installCrds(List<Path> crdDirs) {
    installedCrds.addAll(CrdInstaller.installFrom(client, crdDirs));
  }

  /**
   * Stops the kube-apiserver and etcd (SIGTERM, as a reboot or an upgrade of the control plane
   * does), starts them again on the same data and ports, and waits until the API server is ready.
   *
   * @return how long the API server was away: from its SIGTERM to ready again
   */
  public synchronized Duration restart() {
    long started = System.nanoTime();
    stopApiServer();
    stopEtcd();
    startEtcd();
    startApiServer();
    Duration away = Duration.ofNanos(System.nanoTime() - started);
    LOG.info("kube-apiserver and etcd restarted: the API was away for {} ms", away.toMillis());
    return away;
  }

  /** SIGTERM to the kube-apiserver, then waits until it has exited; etcd keeps running. */
  public synchronized void stopApiServer() {
    stop(apiServer, "kube-apiserver");
    apiServer = null;
  }

  /** Starts the kube-apiserver again (etcd must run) and waits until {@code /readyz} is ok. */
  public synchronized void startApiServer() {
    if (apiServer != null && apiServer.isAlive()) {
      throw new IllegalStateException("kube-apiserver is running");
    }
    long started = System.nanoTime();
    List<String> command = new ArrayList<>(List.of(binary("kube-apiserver").toString()));
    command.addAll(
        List.of(
            "--etcd-servers=http://127.0.0.1:" + etcdPort,
            "--bind-address=127.0.0.1",
            "--secure-port=" + port,
            "--cert-dir=" + pki,
            "--tls-cert-file=" + pki.resolve("apiserver.crt"),
            "--tls-private-key-file=" + pki.resolve("apiserver.key"),
            "--client-ca-file=" + pki.resolve("ca.crt"),
            "--authorization-mode=RBAC",
            "--service-account-issuer=https://localhost",
            "--service-account-key-file=" + pki.resolve("service-account.pub"),
            "--service-account-signing-key-file=" + pki.resolve("service-account.key"),
            "--disable-admission-plugins=ServiceAccount",
            "--service-cluster-ip-range=10.0.0.0/24",
            "--allow-privileged=true"));
    for (int i = 0; i + 1 < extraApiServerFlags.size(); i += 2) {
      command.add(extraApiServerFlags.get(i) + "=" + extraApiServerFlags.get(i + 1));
    }
    apiServer = launch(command, "kube-apiserver");
    awaitReady(apiServer, "kube-apiserver", URI.create("https://127.0.0.1:" + port + "/readyz"));
    LOG.info("kube-apiserver ready in {} ms", millisSince(started));
  }

  private void startEtcd() {
    long started = System.nanoTime();
    String clientUrl = "http://127.0.0.1:" + etcdPort;
    String peer = "http://127.0.0.1:" + etcdPeerPort;
    etcd =
        launch(
            List.of(
                binary("etcd").toString(),
                "--data-dir=" + etcdData,
                "--listen-client-urls=" + clientUrl,
                "--advertise-client-urls=" + clientUrl,
                "--listen-peer-urls=" + peer,
                "--initial-advertise-peer-urls=" + peer,
                "--initial-cluster=default=" + peer),
            "etcd");
    awaitReady(etcd, "etcd", URI.create(clientUrl + "/health"));
    LOG.info("etcd ready in {} ms", millisSince(started));
  }

  private void stopEtcd() {
    stop(etcd, "etcd");
    etcd = null;
  }

  private Process launch(List<String> command, String name) {
    try {
      return new ProcessBuilder(command)
          .redirectErrorStream(true)
          .redirectOutput(ProcessBuilder.Redirect.appendTo(log(name).toFile()))
          .start();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot start " + command.get(0), e);
    }
  }

  /** Polls {@code url} until it answers 200, failing early when the process exits. */
  private void awaitReady(Process process, String name, URI url) {
    long deadline = System.nanoTime() + STARTUP.toNanos();
    while (System.nanoTime() < deadline) {
      if (!process.isAlive()) {
        throw new IllegalStateException(
            name + " exited with " + process.exitValue() + "; the end of its log:\n" + tail(name));
      }
      try {
        HttpResponse<Void> response =
            http.send(
                HttpRequest.newBuilder(url).timeout(Duration.ofSeconds(2)).build(),
                HttpResponse.BodyHandlers.discarding());
        if (response.statusCode() == 200) {
          return;
        }
      } catch (IOException notYetServing) {
        // Still starting.
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted waiting for " + name, e);
      }
      sleep(100);
    }
    throw new IllegalStateException(
        name + " not ready after " + STARTUP + "; the end of its log:\n" + tail(name));
  }

  private String tail(String name) {
    try {
      List<String> lines = Files.readAllLines(log(name));
      return String.join("\n", lines.subList(Math.max(0, lines.size() - 20), lines.size()));
    } catch (IOException e) {
      return "(cannot read " + log(name) + ")";
    }
  }

  private static void stop(Process process, String name) {
    if (process == null || !process.isAlive()) {
      return;
    }
    long started = System.nanoTime();
    process.destroy();
    try {
      if (!process.waitFor(GRACE.toMillis(), TimeUnit.MILLISECONDS)) {
        LOG.warn("{} did not stop within {} of SIGTERM: killing it", name, GRACE);
        process.destroyForcibly().waitFor();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      process.destroyForcibly();
    }
    LOG.info("{} stopped in {} ms", name, millisSince(started));
  }

  /** A kubeconfig with everything inline: the CA, and a cluster-admin client certificate. */
  private String kubeconfig(String caPem, TestPki.PemKeyPair admin) {
    return """
        apiVersion: v1
        kind: Config
        clusters:
        - name: hub
          cluster:
            server: https://127.0.0.1:%d
            certificate-authority-data: %s
        users:
        - name: admin
          user:
            client-certificate-data: %s
            client-key-data: %s
        contexts:
        - name: hub
          context:
            cluster: hub
            user: admin
            namespace: default
        current-context: hub
        """
        .formatted(port, base64(caPem), base64(admin.certificate()), base64(admin.privateKey()));
  }

  @Override
  public String kubeConfigYaml() {
    return kubeConfigYaml;
  }

  @Override
  public KubernetesClient client() {
    return client;
  }

  @Override
  public List<CustomResourceDefinition> installedCrds() {
    return List.copyOf(installedCrds);
  }

  /** {@code https://127.0.0.1:<port>}, the same after every restart. */
  public String url() {
    return "https://127.0.0.1:" + port;
  }

  /** The log of {@code kube-apiserver} or {@code etcd}, appended to across restarts. */
  public Path log(String process) {
    return dir.resolve(process + ".log");
  }

  /**
   * Stops both and deletes etcd's data and the keys; later calls (the JVM-exit hook after an
   * explicit close) do nothing.
   */
  @Override
  public synchronized void close() {
    if (!closed.compareAndSet(false, true)) {
      return;
    }
    client.close();
    stopApiServer();
    stopEtcd();
    deleteRecursively(etcdData);
    deleteRecursively(pki);
  }

  private static void deleteRecursively(Path path) {
    try {
      TestPaths.deleteRecursively(path);
    } catch (IOException e) {
      LOG.warn("could not delete {}: {}", path, e.getMessage());
    }
  }

  private static Path binary(String name) {
    return TestPaths.kubeBinaries().resolve(name);
  }

  private static String base64(String text) {
    return Base64.getEncoder().encodeToString(text.getBytes(StandardCharsets.UTF_8));
  }

  private static long millisSince(long nanos) {
    return (System.nanoTime() - nanos) / 1_000_000;
  }

  private static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }
}
