package io.openshiftagent.simulator.assisted;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.NonDeletingOperation;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.openshiftagent.testsupport.FreePorts;
import io.openshiftagent.testsupport.RestartableProcess;
import io.openshiftagent.testsupport.TestPki;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * assisted-service's own admission server ({@code cmd/webadmission} of the service's module, built
 * by {@code hack/build-assisted-service.sh}), registered with the hub as the infrastructure
 * operator registers it: an aggregated API ({@code APIService
 * v1.admission.agentinstall.openshift.io}) and the operator's webhook configurations, which name
 * the hub's own {@code default/kubernetes} Service at the aggregated API's paths. So the hub calls
 * itself for each AgentClusterInstall, InfraEnv and Agent write, and its aggregator proxies the
 * review to this server with the front proxy's client certificate ({@code AggregationLayer}); the
 * server authenticates and authorizes it by delegation to the hub (the {@code
 * extension-apiserver-authentication} ConfigMap, TokenReview, SubjectAccessReview), as in a
 * cluster.
 *
 * <p>One difference from the operator's deployment: its Service is an {@code ExternalName} of
 * 127.0.0.1 with the server's port in the APIService, not a ClusterIP selecting pods, because the
 * world has no pods and no kube-proxy. The serving certificate (a throwaway CA's, the APIService's
 * {@code caBundle}) names the Service as the aggregator checks it.
 */
public final class AssistedServiceAdmission implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(AssistedServiceAdmission.class);
  static final String NAME = "agentinstalladmission";
  static final String GROUP = "admission.agentinstall.openshift.io";
  private static final Duration READY = Duration.ofSeconds(90);

  private final KubernetesClient hub;
  private final Server server;
  private final List<HasMetadata> registered = new ArrayList<>();

  private AssistedServiceAdmission(KubernetesClient hub, Server server) {
    this.hub = hub;
    this.server = server;
  }

  /** The binary hack/build-assisted-service.sh builds beside the service. */
  public static Path binary() {
    return AssistedServiceProcess.home().resolve("assisted-service-admission");
  }

  /**
   * Starts the server in {@code dir} against the hub, registers it and returns once the hub reports
   * its APIService available.
   *
   * @param namespace the service's namespace, where the operator puts the admission Service
   */
  public static AssistedServiceAdmission start(
      Path dir, String hubKubeconfig, KubernetesClient hub, String namespace) {
    if (!Files.isExecutable(binary())) {
      throw new IllegalStateException(
          binary() + " is missing: run hack/build-assisted-service.sh (or hack/test.sh)");
    }
    long started = System.nanoTime();
    Server server;
    String caBundle;
    try {
      Path home = dir.toAbsolutePath();
      Files.createDirectories(home);
      Path kubeconfig = Files.writeString(home.resolve("hub.kubeconfig"), hubKubeconfig);
      TestPki ca = TestPki.newCertificateAuthority(NAME + "-ca");
      TestPki.PemKeyPair serving =
          ca.pemServerCertificate(NAME, List.of(NAME + "." + namespace + ".svc"));
      Path cert = Files.writeString(home.resolve("tls.crt"), serving.certificate());
      Path key = Files.writeString(home.resolve("tls.key"), serving.privateKey());
      caBundle = Base64.getEncoder().encodeToString(ca.caPem().getBytes(StandardCharsets.UTF_8));
      int port = FreePorts.next();
      // The operator's container command, and the hub named where a pod has in-cluster config.
      List<String> command =
          List.of(
              binary().toString(),
              "--secure-port=" + port,
              "--bind-address=127.0.0.1",
              "--audit-log-path=-",
              "--tls-cert-file=" + cert,
              "--tls-private-key-file=" + key,
              "--kubeconfig=" + kubeconfig,
              "--authentication-kubeconfig=" + kubeconfig,
              "--authorization-kubeconfig=" + kubeconfig);
      server = new Server(command, home.resolve(NAME + ".log"), port, ca);
      server.launch();
    } catch (Exception e) {
      throw new IllegalStateException("cannot start assisted-service's admission server", e);
    }
    AssistedServiceAdmission admission = new AssistedServiceAdmission(hub, server);
    try {
      server.awaitReady(READY);
      admission.register(namespace, server.healthPort(), caBundle);
      admission.awaitAvailable();
      LOG.info(
          "assisted-service's admission server available in {} ms (pid {}, log {})",
          (System.nanoTime() - started) / 1_000_000,
          server.pid(),
          server.log());
      return admission;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      admission.close();
      throw new IllegalStateException("interrupted starting assisted-service's admission", e);
    } catch (RuntimeException | Error e) {
      admission.close();
      throw e;
    }
  }

  /** The server's log: each review it refuses, in its words. */
  public Path log() {
    return server.log();
  }

  /**
   * The Service, the APIService and the operator's four webhook configurations (failure policy
   * Fail, its rules and paths; the agent classifications' hook is served but the operator registers
   * none).
   */
  private void register(String namespace, int port, String caBundle) {
    apply(
        """
        apiVersion: v1
        kind: Service
        metadata: {name: %s, namespace: %s, labels: {app: %s}}
        spec: {type: ExternalName, externalName: 127.0.0.1, ports: [{name: %s, port: %d}]}
        """
            .formatted(NAME, namespace, NAME, NAME, port));
    apply(
        """
        apiVersion: apiregistration.k8s.io/v1
        kind: APIService
        metadata: {name: v1.%s}
        spec:
          group: %s
          version: v1
          groupPriorityMinimum: 1000
          versionPriority: 15
          service: {name: %s, namespace: %s, port: %d}
          caBundle: %s
        """
            .formatted(GROUP, GROUP, NAME, namespace, port, caBundle));
    webhook(
        "Validating",
        "agentclusterinstallvalidators",
        "extensions.hive.openshift.io",
        "agentclusterinstalls",
        "[CREATE, UPDATE]");
    webhook(
        "Mutating",
        "agentclusterinstallmutators",
        "extensions.hive.openshift.io",
        "agentclusterinstalls",
        "[CREATE, UPDATE]");
    webhook(
        "Validating",
        "infraenvvalidators",
        "agent-install.openshift.io",
        "infraenvs",
        "[CREATE, UPDATE]");
    webhook("Validating", "agentvalidators", "agent-install.openshift.io", "agents", "[UPDATE]");
  }

  private void webhook(
      String kind, String resource, String group, String admitted, String operations) {
    apply(
        """
        apiVersion: admissionregistration.k8s.io/v1
        kind: %sWebhookConfiguration
        metadata: {name: %s.%s}
        webhooks:
        - name: %s.%s
          failurePolicy: Fail
          sideEffects: None
          admissionReviewVersions: [v1]
          clientConfig:
            service: {namespace: default, name: kubernetes, path: /apis/%s/v1/%s}
          rules:
          - operations: %s
            apiGroups: [%s]
            apiVersions: [v1beta1]
            resources: [%s]
        """
            .formatted(
                kind,
                resource,
                GROUP,
                resource,
                GROUP,
                GROUP,
                resource,
                operations,
                group,
                admitted));
  }

  private void apply(String yaml) {
    HasMetadata object = Serialization.unmarshal(yaml);
    registered.add(hub.resource(object).createOr(NonDeletingOperation::update));
  }

  /** Waits (a watch) until the hub's aggregator reports the APIService {@code Available}. */
  private void awaitAvailable() {
    hub.genericKubernetesResources("apiregistration.k8s.io/v1", "APIService")
        .withName("v1." + GROUP)
        .waitUntilCondition(
            s -> s != null && "True".equals(availability(s)), READY.toSeconds(), TimeUnit.SECONDS);
  }

  @SuppressWarnings("unchecked")
  private static String availability(GenericKubernetesResource apiService) {
    Object status = apiService.getAdditionalProperties().get("status");
    if (!(status instanceof Map<?, ?> map) || !(map.get("conditions") instanceof List<?> list)) {
      return null;
    }
    return list.stream()
        .map(c -> (Map<String, Object>) c)
        .filter(c -> "Available".equals(c.get("type")))
        .map(c -> String.valueOf(c.get("status")))
        .findFirst()
        .orElse(null);
  }

  /**
   * Removes the webhook configurations first (with failure policy Fail they must not outlive the
   * server), then the APIService and Service, then stops the server. Best effort: the hub may be
   * stopping too.
   */
  @Override
  public void close() {
    for (int i = registered.size() - 1; i >= 0; i--) {
      try {
        hub.resource(registered.get(i)).delete();
      } catch (RuntimeException e) {
        LOG.warn(
            "could not remove {}: {}", registered.get(i).getMetadata().getName(), e.getMessage());
      }
    }
    registered.clear();
    server.close();
  }

  /** The process; ready when {@code /readyz} answers over HTTPS, checked with the server's CA. */
  private static final class Server extends RestartableProcess {
    private final HttpClient https;

    Server(List<String> command, Path log, int port, TestPki ca) throws Exception {
      super(NAME, command, Map.of(), log, port);
      // HTTP/1.1: over HTTP/2 a Go server answers the JDK client's first request with GOAWAY.
      https =
          HttpClient.newBuilder()
              .version(HttpClient.Version.HTTP_1_1)
              .connectTimeout(Duration.ofSeconds(2))
              .sslContext(ca.clientContext())
              .build();
    }

    /** Made callable from the enclosing class (its package's). */
    @Override
    protected void launch() throws IOException {
      super.launch();
    }

    @Override
    public int status(String path) {
      return statusOf(https, URI.create("https://127.0.0.1:" + healthPort() + path));
    }
  }
}
