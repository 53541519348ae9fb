// Over 350 lines: the service's whole environment is set here, in one place, beside its start,
// supervision and faults.
package io.openshiftagent.simulator.assisted;

import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.NonDeletingOperation;
import io.openshiftagent.testsupport.TestPaths;
import io.openshiftagent.testsupport.TestPki;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The real assisted-service ({@code hack/build-assisted-service.sh}) in kube-api mode against a
 * hub, as the infrastructure operator deploys it: its controllers reconcile InfraEnvs, Agents,
 * ClusterDeployments and AgentClusterInstalls; its REST API serves the agents and the discovery
 * ignition over HTTPS (certificate from a throwaway CA) with local authentication (tokens signed
 * with an EC key of its own: presigned {@code api_key} URLs, agents' {@code X-Secret-Key}); its
 * database is a real PostgreSQL ({@link Postgres}). Install ignitions are the service's dummy ones
 * ({@code DUMMY_IGNITION}: no openshift-install here); {@code oc} is {@link OcStandIn}.
 *
 * <p>It runs in {@link PrivateNamespaces}: its fixed ports (controller-runtime's metrics on :8080,
 * the REST port) and the ServiceAccount namespace file its leader election reads are its own, so
 * that several services run on one machine. Its REST API is published on a free 127.0.0.1 port
 * ({@link #restRoot()}); it reaches the hub (and whatever {@link #reachOutside} names) over
 * loopback bridges and PostgreSQL over its Unix socket.
 *
 * <p>Faults for tests: {@link #kill} (SIGKILL) and {@link #start} again; {@link #refuseRest} and
 * {@link #acceptRest}; {@link #postgres()} can be stopped and started.
 *
 * <p>When the service exits by itself (it exits when its controllers lose their leader Lease, which
 * a loaded machine makes happen: a renewal late by 10 s), it is started again after {@link
 * #RESTART_DELAY}, as its Deployment's pod would be restarted.
 */
public final class AssistedServiceProcess implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(AssistedServiceProcess.class);

  /** hack/lib.sh: ASSISTED_SERVICE_MODULE's version and NMSTATE_VERSION. */
  static final String VERSION = "v1.0.10-0.20250430094626-07e5c4388c55";

  static final String NMSTATE_VERSION = "2.2.62";

  /** Inside its network namespace: the service's own port. */
  static final int REST_PORT = 8090;

  private static final Duration START = Duration.ofSeconds(180);

  /** How long an exited service stays down before it is started again (a pod's restart). */
  static final Duration RESTART_DELAY = Duration.ofSeconds(2);

  private final Path dir;
  private final String namespace;
  private final Postgres postgres;
  private final PrivateNamespaces namespaces;
  private final Map<String, String> environment;
  private final int restPort;
  private final String caPem;
  private final SSLContext trustingCa;
  private final Path log;
  private Process process;
  private Duration lastStart;

  /** Whether the service is stopped on purpose ({@link #kill}, {@link #close}): no restart. */
  private boolean stopped;

  private int restarts;

  private AssistedServiceProcess(
      Path dir,
      String namespace,
      Postgres postgres,
      PrivateNamespaces namespaces,
      Map<String, String> environment,
      int restPort,
      TestPki ca)
      throws Exception {
    this.dir = dir;
    this.namespace = namespace;
    this.postgres = postgres;
    this.namespaces = namespaces;
    this.environment = environment;
    this.restPort = restPort;
    this.caPem = ca.caPem();
    this.trustingCa = ca.clientContext();
    this.log = dir.resolve("assisted-service.log");
  }

  /** Where hack/build-assisted-service.sh puts the service, its CRDs and its data files. */
  public static Path home() {
    String cache = System.getenv("OPENSHIFT_AGENT_CACHE");
    Path root =
        cache != null && !cache.isBlank()
            ? Path.of(cache)
            : Path.of(System.getProperty("user.home"), ".cache", "openshift-agent");
    return root.resolve("assisted-service").resolve(VERSION + "-nmstate-" + NMSTATE_VERSION);
  }

  /**
   * The CRDs the built service ships: its own ({@code assisted-service/}), Hive's ({@code hive/})
   * and the Metal3 ones it watches ({@code metal3/}).
   */
  public static Path crds() {
    return home().resolve("crds");
  }

  /**
   * Starts PostgreSQL and the service against the hub of {@code hubKubeconfig} and waits until its
   * REST API answers {@code /ready}.
   *
   * @param hub a cluster-admin client of that hub (the service's namespace is created with it)
   * @param namespace the service's own namespace (its leader-election Lease): one per service on a
   *     hub, so that a service never waits for another's Lease
   * @param releases the release images the ClusterImageSets will name
   */
  public static AssistedServiceProcess start(
      Path relativeOrAbsoluteDir,
      String hubKubeconfig,
      KubernetesClient hub,
      String namespace,
      ReleaseCatalog releases)
      throws Exception {
    // Absolute: entering the mount namespace (nsenter) moves the working directory to its root.
    Path dir = relativeOrAbsoluteDir.toAbsolutePath();
    Path binary = home().resolve("assisted-service");
    if (!Files.isExecutable(binary)) {
      throw new IllegalStateException(
          binary + " is missing: run hack/build-assisted-service.sh (or hack/test.sh)");
    }
    // A fresh service: nothing of an earlier world's database and files.
    TestPaths.deleteRecursively(dir);
    Files.createDirectories(dir);
    hub.namespaces()
        .resource(
            new NamespaceBuilder().withNewMetadata().withName(namespace).endMetadata().build())
        .createOr(NonDeletingOperation::update);
    Postgres postgres = Postgres.start(dir.resolve("postgres"));
    PrivateNamespaces namespaces = null;
    AssistedServiceProcess service = null;
    try {
      Path run = dir.resolve("run");
      Path serviceAccount = run.resolve("secrets/kubernetes.io/serviceaccount");
      Files.createDirectories(serviceAccount);
      Files.writeString(serviceAccount.resolve("namespace"), namespace);
      namespaces = PrivateNamespaces.create(run, dir.resolve("bridges.log"));
      namespaces.reachOutside(
          URI.create(Config.fromKubeconfig(hubKubeconfig).getMasterUrl()).getPort());
      int restPort = namespaces.publish(REST_PORT);

      TestPki pki = TestPki.newCertificateAuthority("assisted-service-ca");
      TestPki.PemKeyPair serving = pki.pemServerCertificateFor127001("assisted-service");
      Path tls = Files.createDirectories(dir.resolve("tls"));
      Files.writeString(tls.resolve("tls.crt"), serving.certificate());
      Files.writeString(tls.resolve("tls.key"), serving.privateKey());
      Files.writeString(tls.resolve("ca.crt"), pki.caPem());
      Files.writeString(dir.resolve("hub.kubeconfig"), hubKubeconfig);
      TestPki.PemKeys tokenKeys = TestPki.newPemKeys();
      Path ocBin = OcStandIn.install(dir, releases);

      Map<String, String> env = new LinkedHashMap<>();
      env.put("PATH", ocBin + ":" + System.getenv("PATH"));
      env.put("KUBECONFIG", dir.resolve("hub.kubeconfig").toString());
      env.put("ENABLE_KUBE_API", "true");
      env.put("NAMESPACE", namespace);
      env.put("DEPLOY_TARGET", "onprem");
      env.put("DB_HOST", postgres.socketDirectory().toString());
      env.put("DB_PORT", Integer.toString(postgres.port()));
      env.put("DB_USER", Postgres.USER);
      env.put("DB_PASS", "unused-trust-authentication");
      env.put("DB_NAME", Postgres.DATABASE);
      env.put("STORAGE", "filesystem");
      env.put("WORK_DIR", Files.createDirectories(dir.resolve("data")).toString());
      env.put("DUMMY_IGNITION", "true");
      env.put("AUTH_TYPE", "local");
      env.put("EC_PUBLIC_KEY_PEM", tokenKeys.publicKey());
      env.put("EC_PRIVATE_KEY_PEM", tokenKeys.privateKey());
      env.put("SERVE_HTTPS", "true");
      env.put("HTTPS_CERT_FILE", tls.resolve("tls.crt").toString());
      env.put("HTTPS_KEY_FILE", tls.resolve("tls.key").toString());
      env.put("SERVICE_CA_CERT_PATH", tls.resolve("ca.crt").toString());
      env.put("SERVICE_BASE_URL", "https://127.0.0.1:" + restPort);
      env.put("IMAGE_SERVICE_BASE_URL", "https://assisted-image-service.simulator.invalid");
      env.put("RELEASE_IMAGES", releases.releaseImagesJson());
      env.put("OS_IMAGES", releases.osImagesJson());
      env.put(
          "HW_VALIDATOR_REQUIREMENTS",
          Files.readString(home().resolve("default_hw_requirements.json")));
      // What the infrastructure operator sets (unauthenticatedRegistries of its AgentServiceConfig
      // controller): release images there need no auth in the pull secret. The world's release
      // registry is one (anonymous pulls, as from quay.io's public release repositories).
      env.put(
          "PUBLIC_CONTAINER_REGISTRIES",
          String.join(",", releases.registries("quay.io", "registry.ci.openshift.org")));
      env.put("ENABLE_DATA_COLLECTION", "false");
      env.put("HOST_MONITOR_INTERVAL", "2s");
      env.put("CLUSTER_MONITOR_INTERVAL", "2s");
      // How often the Agent controller looks at a day-2 host's Node in the installed cluster (1m),
      // compressed as the world's other waits.
      env.put("APPROVE_CSRS_REQUEUE_DURATION", "2s");
      env.put("LOG_LEVEL", "info");
      service =
          new AssistedServiceProcess(dir, namespace, postgres, namespaces, env, restPort, pki);
      service.start();
      return service;
    } catch (Exception | Error e) {
      if (service != null) {
        service.close();
      } else {
        if (namespaces != null) {
          namespaces.close();
        }
        postgres.close();
      }
      throw e;
    }
  }

  /** Starts the service (again, after {@link #kill}) and waits until {@code /ready} answers. */
  public synchronized void start() throws IOException, InterruptedException {
    if (process != null && process.isAlive()) {
      return;
    }
    long started = System.nanoTime();
    ProcessBuilder builder =
        new ProcessBuilder(
                namespaces.inside(
                    List.of(
                        home().resolve("assisted-service").toString(), "--port", "" + REST_PORT)))
            .redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
    builder.environment().clear();
    builder.environment().putAll(environment);
    process = builder.start();
    stopped = false;
    Process running = process;
    running.onExit().thenRun(() -> restartUnlessStopped(running));
    awaitReady();
    lastStart = Duration.ofNanos(System.nanoTime() - started);
    LOG.info(
        "assisted-service {} ready in {} ms at {} (pid {}, log {})",
        VERSION,
        lastStart.toMillis(),
        restRoot(),
        process.pid(),
        log);
  }

  private void restartUnlessStopped(Process exited) {
    synchronized (this) {
      if (stopped || exited != process) {
        return;
      }
      restarts++;
    }
    LOG.warn(
        "assisted-service exited with {} (see {}); starting it again in {}, as its pod would be",
        exited.exitValue(),
        log,
        RESTART_DELAY);
    try {
      Thread.sleep(RESTART_DELAY.toMillis());
      synchronized (this) {
        if (!stopped) {
          start();
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (IOException | RuntimeException e) {
      LOG.error("assisted-service could not be started again; see {}", log, e);
    }
  }

  /** How often the service exited by itself and was started again. */
  public synchronized int restarts() {
    return restarts;
  }

  private void awaitReady() throws IOException, InterruptedException {
    HttpClient http =
        HttpClient.newBuilder()
            .sslContext(trustingCa)
            .connectTimeout(Duration.ofSeconds(2))
            .build();
    URI ready = URI.create(restRoot() + "/ready");
    long deadline = System.nanoTime() + START.toNanos();
    while (System.nanoTime() < deadline) {
      if (!process.isAlive()) {
        throw new IllegalStateException(
            "assisted-service exited with " + process.exitValue() + "; see " + log);
      }
      try {
        HttpResponse<Void> response =
            http.send(
                HttpRequest.newBuilder(ready).timeout(Duration.ofSeconds(2)).build(),
                HttpResponse.BodyHandlers.discarding());
        if (response.statusCode() == 200) {
          return;
        }
      } catch (IOException notYetListening) {
        // Migrating its database, or starting.
      }
      Thread.sleep(200);
    }
    throw new IllegalStateException(
        "assisted-service is not ready after " + START + "; see " + log);
  }

  /** SIGKILL: the service stops at once, as when its pod is killed. */
  public synchronized void kill() throws InterruptedException {
    stopped = true;
    if (process != null && process.isAlive()) {
      process.destroyForcibly().waitFor();
    }
  }

  public synchronized boolean isRunning() {
    return process != null && process.isAlive();
  }

  /** The REST API's port refuses connections (the service keeps running behind it). */
  public void refuseRest() throws InterruptedException {
    namespaces.refuse(REST_PORT);
  }

  /** The REST API's port accepts connections again. */
  public void acceptRest() {
    namespaces.accept(REST_PORT);
  }

  /**
   * The service can reach 127.0.0.1:{@code port} (for example an installed cluster's API server,
   * named in the admin kubeconfig it is given).
   */
  public void reachOutside(int port) {
    namespaces.reachOutside(port);
  }

  /** {@code https://127.0.0.1:<port>}: the service's root, as agents and our providers see it. */
  public String restRoot() {
    return "https://127.0.0.1:" + restPort;
  }

  /** The PEM certificate of the CA that signed the REST API's certificate. */
  public String caPem() {
    return caPem;
  }

  /** A TLS context that trusts the REST API's CA (only). */
  public SSLContext trustingCa() {
    return trustingCa;
  }

  public String namespace() {
    return namespace;
  }

  public Postgres postgres() {
    return postgres;
  }

  /** The service's WORK_DIR: its files per cluster ({@code <cluster id>/kubeconfig-noingress}). */
  public Path workDir() {
    return Path.of(environment.get("WORK_DIR"));
  }

  public Path log() {
    return log;
  }

  /** How long the last {@link #start} took, from the process's start to {@code /ready}. */
  public Duration lastStart() {
    return lastStart;
  }

  /** Every {@code oc} call the service made so far (their arguments). */
  public List<String> ocCalls() {
    return OcStandIn.calls(dir);
  }

  @Override
  public synchronized void close() {
    stopped = true;
    if (process != null && process.isAlive()) {
      process.destroy();
      try {
        if (!process.waitFor(10, TimeUnit.SECONDS)) {
          process.destroyForcibly().waitFor();
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        process.destroyForcibly();
      }
    }
    namespaces.close();
    postgres.close();
  }
}
