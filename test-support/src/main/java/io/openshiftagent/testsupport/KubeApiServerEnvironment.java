package io.openshiftagent.testsupport;

import io.fabric8.kubeapitest.KubeAPIServer;
import io.fabric8.kubeapitest.KubeAPIServerConfig;
import io.fabric8.kubeapitest.KubeAPIServerConfigBuilder;
import io.fabric8.kubeapitest.KubeAPITestException;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A real kube-apiserver and etcd with every CRD the providers touch. Start it once per test JVM
 * through {@link #shared()}; it stops when the JVM exits.
 */
public final class KubeApiServerEnvironment implements ApiServer, AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(KubeApiServerEnvironment.class);
  private static KubeApiServerEnvironment shared;
  private static RuntimeException sharedStartFailure;

  private final KubeAPIServer server;
  private final String kubeConfigYaml;
  private final KubernetesClient client;
  private final List<CustomResourceDefinition> installedCrds = new ArrayList<>();
  private final Path auditLog;
  private final AtomicBoolean closed = new AtomicBoolean();

  private KubeApiServerEnvironment(List<String> extraApiServerFlags) {
    requirePrepared(TestPaths.kubeBinaries(), TestPaths.upstreamCrds());
    KubeAPIServerConfigBuilder config =
        KubeAPIServerConfigBuilder.anAPIServerConfig()
            .withTestDir(TestPaths.kubeApiTestDir().toString())
            .withApiServerVersion(TestPaths.KUBERNETES_VERSION)
            .withOfflineMode(true)
            .withStartupTimeout(120_000);
    Path audit = null;
    for (int i = 0; i + 1 < extraApiServerFlags.size(); i += 2) {
      config.withApiServerFlag(extraApiServerFlags.get(i), extraApiServerFlags.get(i + 1));
      if (extraApiServerFlags.get(i).equals("--audit-log-path")) {
        audit = Path.of(extraApiServerFlags.get(i + 1));
      }
    }
    auditLog = audit;
    long started = System.nanoTime();
    server = startWithFreshPorts(config.build());
    kubeConfigYaml = server.getKubeConfigYaml();
    client = newClient();
    LOG.info(
        "kube-apiserver {} ready in {} ms",
        TestPaths.KUBERNETES_VERSION,
        (System.nanoTime() - started) / 1_000_000);
  }

  /**
   * kube-api-test picks its API server's and etcd's ports itself, in the kernel's ephemeral range,
   * where another process's connection can take one before the server binds it; the server then
   * exits at once. Such a start is tried again on new ports, twice at most.
   */
  private static KubeAPIServer startWithFreshPorts(KubeAPIServerConfig config) {
    for (int attempt = 1; ; attempt++) {
      KubeAPIServer started = new KubeAPIServer(config);
      try {
        started.start();
        return started;
      } catch (KubeAPITestException e) {
        try {
          started.stop();
        } catch (RuntimeException alreadyStopped) {
          e.addSuppressed(alreadyStopped);
        }
        if (attempt == 3) {
          throw e;
        }
        LOG.warn(
            "kube-apiserver did not start (attempt {} of 3), starting it again: {}",
            attempt,
            e.getMessage());
      }
    }
  }

  /**
   * The environment shared by all tests of this JVM, with all CRDs installed and the
   * owner-reference permission check OpenShift enables. Its audit log (every request, Metadata
   * level) is {@code target/kube-apiserver/audit.log} under the working directory (the module's,
   * under Maven), started afresh.
   */
  public static synchronized KubeApiServerEnvironment shared() {
    if (sharedStartFailure != null) {
      throw sharedStartFailure;
    }
    if (shared == null) {
      KubeApiServerEnvironment env = null;
      try {
        env = new KubeApiServerEnvironment(hubFlags(Path.of("target", "kube-apiserver")));
        env.installedCrds.addAll(CrdInstaller.installFrom(env.client, TestPaths.hubCrds()));
      } catch (RuntimeException | IOException e) {
        // Fail every later test the same way instead of starting one server per test.
        if (env != null) {
          env.close();
        }
        sharedStartFailure =
            e instanceof RuntimeException r
                ? r
                : new UncheckedIOException(e.getMessage(), (IOException) e);
        throw sharedStartFailure;
      }
      Runtime.getRuntime().addShutdownHook(new Thread(env::close, "kube-apiserver-stop"));
      shared = env;
    }
    return shared;
  }

  /**
   * Starts a hub like {@link #shared()}, with its audit log at {@code dir/audit.log} (started
   * afresh); the caller closes it (it is also stopped when the JVM exits).
   */
  public static KubeApiServerEnvironment startHub(Path dir) {
    try {
      return startHub(hubFlags(dir));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * A hub's flags: every request audited (Metadata level) to {@code dir/audit.log}, the
   * owner-reference permission check OpenShift enables, and the aggregation layer's front proxy
   * (its certificates in {@code dir/front-proxy/}).
   */
  static List<String> hubFlags(Path dir) throws IOException {
    Path audit = dir.resolve("audit.log").toAbsolutePath();
    Files.deleteIfExists(audit);
    List<String> flags = new ArrayList<>(AuditLog.apiServerFlags(audit));
    // As OpenShift does: setting an owner reference that blocks the owner's deletion needs update
    // on the owner's finalizers (what a provider running as its ServiceAccount is granted for it is
    // then checked; cluster-admin clients are not affected).
    flags.addAll(List.of("--enable-admission-plugins", "OwnerReferencesPermissionEnforcement"));
    // The aggregation layer, which assisted-service's admission server is registered with.
    flags.addAll(AggregationLayer.apiServerFlags(dir.resolve("front-proxy")));
    return flags;
  }

  /**
   * Starts another, independent kube-apiserver and etcd with only the CRDs under {@code crdDirs}
   * (for example a workload cluster next to the management cluster). The caller closes it; it is
   * also stopped when the JVM exits.
   */
  public static KubeApiServerEnvironment startIndependent(List<Path> crdDirs) {
    return startIndependent(crdDirs, List.of());
  }

  /**
   * Like {@link #startIndependent(List)}, with extra kube-apiserver flags (name, value, name,
   * value...), e.g. {@link AuditLog#apiServerFlags}.
   */
  public static KubeApiServerEnvironment startIndependent(
      List<Path> crdDirs, List<String> extraApiServerFlags) {
    KubeApiServerEnvironment env = new KubeApiServerEnvironment(extraApiServerFlags);
    try {
      env.installedCrds.addAll(CrdInstaller.installFrom(env.client, crdDirs));
    } catch (RuntimeException e) {
      env.close();
      throw e;
    }
    Runtime.getRuntime().addShutdownHook(new Thread(env::close, "kube-apiserver-stop"));
    return env;
  }

  /**
   * Starts another management cluster like {@link #shared()} (our CRDs and the upstream ones), with
   * extra kube-apiserver flags; the caller closes it.
   */
  public static KubeApiServerEnvironment startHub(List<String> extraApiServerFlags) {
    return startIndependent(TestPaths.hubCrds(), extraApiServerFlags);
  }

  @Override
  public KubernetesClient client() {
    return client;
  }

  @Override
  public String kubeConfigYaml() {
    return kubeConfigYaml;
  }

  @Override
  public Optional<Path> auditLog() {
    return Optional.ofNullable(auditLog);
  }

  @Override
  public List<CustomResourceDefinition> installedCrds() {
    return List.copyOf(installedCrds);
  }

  /**
   * Fails with what to run when the hack/ scripts have not prepared the binaries or the upstream
   * CRDs.
   */
  static void requirePrepared(Path kubeBinaries, Path upstream) {
    List<String> missing = new ArrayList<>();
    for (String binary : List.of("etcd", "kube-apiserver", "kubectl")) {
      Path path = kubeBinaries.resolve(binary);
      if (!Files.isExecutable(path)) {
        missing.add(path + " (run hack/build-kube-binaries.sh)");
      }
    }
    if (!Files.isRegularFile(upstream.resolve(".complete"))) {
      missing.add(upstream + " (run hack/fetch-upstream-crds.sh)");
    }
    if (!missing.isEmpty()) {
      throw new IllegalStateException(
          "The tests need a real kube-apiserver and the upstream CRDs, and these are missing:\n  "
              + String.join("\n  ", missing)
              + "\nRun ./hack/test.sh, which prepares them (the first run builds Kubernetes from source).");
    }
  }

  /** Stops the server; later calls (the JVM-exit hook after an explicit close) do nothing. */
  @Override
  public void close() {
    if (closed.compareAndSet(false, true)) {
      client.close();
      server.stop();
    }
  }
}
