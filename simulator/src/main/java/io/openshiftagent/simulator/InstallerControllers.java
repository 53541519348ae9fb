package io.openshiftagent.simulator;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.openshiftagent.simulator.assisted.AssistedServiceProcess;
import io.openshiftagent.simulator.assisted.InstallerController;
import io.openshiftagent.testsupport.KubeApiServerEnvironment;
import io.openshiftagent.testsupport.TestPki;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Plays assisted-installer-controller, which the installation starts inside each new cluster: it
 * follows the installation over the real assisted-service's REST API with the cluster's token, and
 * the new cluster's Nodes. A host that rebooted into the installed system and whose Node is Ready
 * gets the labels asked for on it and its last stages ({@link InstallerController#joinStages});
 * once every host is done and the service finalizes, the controller hands over the installed
 * cluster's admin kubeconfig and ingress CA and reports the built-in operators available, after
 * which the service completes the installation. Day-2 hosts are followed by the service itself.
 *
 * <p>The controller looks every {@value #TICK_MILLIS} ms (the real one every few seconds), on the
 * installation's lane; it stops once the installation is complete or gone.
 */
final class InstallerControllers extends Actor {
  static final long TICK_MILLIS = 500;
  private static final Duration TICK = Duration.ofMillis(TICK_MILLIS);

  private final WorkloadClusters workloads;
  private final AssistedServiceProcess service;
  private final HttpClient http;

  /** The installations whose controller runs: {@code <namespace>/<name> <cluster id>}. */
  private final Set<String> running = ConcurrentHashMap.newKeySet();

  /**
   * Whether the service's kubeconfig names the installed cluster's API server from the start, as a
   * real one does (openshift-install writes it for {@code api.<cluster>.<domain>}); else it is the
   * service's dummy until the installation's end.
   */
  private final boolean kubeconfigFromTheStart;

  /** The installations whose kubeconfig is being put in place from the start. */
  private final Set<String> early = ConcurrentHashMap.newKeySet();

  InstallerControllers(
      KubernetesClient client,
      WorkloadClusters workloads,
      AssistedServiceProcess service,
      boolean kubeconfigFromTheStart) {
    super(client);
    this.workloads = workloads;
    this.service = service;
    this.kubeconfigFromTheStart = kubeconfigFromTheStart;
    this.http =
        HttpClient.newBuilder()
            .sslContext(service.trustingCa())
            .connectTimeout(Duration.ofSeconds(5))
            .build();
  }

  @Override
  void start() {
    watch(ApiVersions.HIVE_EXTENSION, "AgentClusterInstall", this::startWhenInstalling);
  }

  private void startWhenInstalling(GenericKubernetesResource install) {
    String state = Fields.string(install, "status", "debugInfo", "state");
    String events = Fields.string(install, "status", "debugInfo", "eventsURL");
    if (kubeconfigFromTheStart && events != null) {
      kubeconfigFromTheStart(install, query(events).get("cluster_id"));
    }
    if (!"installing".equals(state) && !"finalizing".equals(state) || events == null) {
      return;
    }
    // .../v2/events?cluster_id=<id>&api_key=<token>: the cluster and a token for it.
    Map<String, String> query = query(events);
    String clusterId = query.get("cluster_id");
    String token = query.get("api_key");
    if (clusterId == null || token == null) {
      log.warn("AgentClusterInstall {}: no cluster id and token in its events URL", key(install));
      return;
    }
    if (running.add(key(install) + " " + clusterId)) {
      log.info("installer controller of {} (cluster {}) started", key(install), clusterId);
      Run run =
          new Run(
              namespace(install),
              name(install),
              new InstallerController(http, service.restRoot(), clusterId, token));
      act(run::look);
    }
  }

  /**
   * Starts the installed cluster's API server as soon as the installation exists, and puts its
   * kubeconfig in place of the service's dummy as soon as the service generates that (while it
   * prepares the installation, before it makes the admin kubeconfig Secret of it).
   */
  private void kubeconfigFromTheStart(GenericKubernetesResource install, String clusterId) {
    if (clusterId == null || !early.add(key(install) + " " + clusterId)) {
      return;
    }
    String namespace = namespace(install);
    String name = name(install);
    when(
        workloads.of(namespace, name),
        server -> replaceWhenGenerated(namespace, name, clusterId, server));
  }

  private void replaceWhenGenerated(
      String namespace, String name, String clusterId, KubeApiServerEnvironment server) {
    if (cached(ApiVersions.HIVE_EXTENSION, "AgentClusterInstall", namespace, name) == null) {
      return;
    }
    try {
      if (InstallerController.replaceKubeconfig(
          service.workDir(), clusterId, workloads.publishedKubeconfig(server))) {
        log.info(
            "{}/{}: the installed cluster's kubeconfig in place from the start", namespace, name);
        return;
      }
    } catch (IOException e) {
      log.warn("{}/{}: cannot put the kubeconfig in place: {}", namespace, name, e.toString());
    }
    after(Duration.ofMillis(50), () -> replaceWhenGenerated(namespace, name, clusterId, server));
  }

  private static Map<String, String> query(String url) {
    String raw = URI.create(url).getRawQuery();
    Map<String, String> parameters = new java.util.HashMap<>();
    for (String pair : raw == null ? new String[0] : raw.split("&")) {
      int eq = pair.indexOf('=');
      if (eq > 0) {
        parameters.put(
            pair.substring(0, eq),
            java.net.URLDecoder.decode(
                pair.substring(eq + 1), java.nio.charset.StandardCharsets.UTF_8));
      }
    }
    return parameters;
  }

  /** One installation's controller. */
  private final class Run {
    private final String namespace;
    private final String name;
    private final InstallerController controller;
    private String lastProblem = "";

    Run(String namespace, String name, InstallerController controller) {
      this.namespace = namespace;
      this.name = name;
      this.controller = controller;
    }

    void look() {
      if (cached(ApiVersions.HIVE_EXTENSION, "AgentClusterInstall", namespace, name) == null) {
        return; // deleted: the cluster is gone
      }
      Optional<KubeApiServerEnvironment> workload = workloads.ifStarted(namespace, name);
      try {
        if (workload.isPresent() && lookOnce(workload.get())) {
          log.info("installer controller of {}/{}: the installation is complete", namespace, name);
          return;
        }
      } catch (IOException e) {
        // The service is down or refuses: the real controller retries too.
        if (!e.toString().equals(lastProblem)) {
          log.info("installer controller of {}/{}: {}", namespace, name, e.toString());
        }
        lastProblem = e.toString();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
      after(TICK, this::look);
    }

    /** Whether the controller's work is done. */
    private boolean lookOnce(KubeApiServerEnvironment workload)
        throws IOException, InterruptedException {
      JsonNode cluster = controller.cluster();
      String status = cluster.path("status").asText();
      if (Set.of("installed", "adding-hosts", "error", "cancelled").contains(status)) {
        return true;
      }
      boolean singleNode = "None".equals(cluster.path("high_availability_mode").asText());
      boolean allDone = true;
      for (JsonNode host : cluster.path("hosts")) {
        String stage = host.path("progress").path("current_stage").asText();
        if (!"Done".equals(stage)) {
          allDone = false;
          joined(workload.client(), host, stage, singleNode);
        }
      }
      if (allDone && "finalizing".equals(status)) {
        controller.complete(
            service.workDir(), workloads.publishedKubeconfig(workload), ingressCa());
        return true;
      }
      return false;
    }

    /** The CA of the new cluster's default ingress certificate. */
    private String ingressCa() {
      try {
        return TestPki.newCertificateAuthority("ingress-" + name).caPem();
      } catch (Exception e) {
        throw new IllegalStateException("cannot make an ingress CA", e);
      }
    }

    /** A host whose Node is Ready gets its labels and moves on one stage. */
    private void joined(KubernetesClient workload, JsonNode host, String stage, boolean singleNode)
        throws IOException, InterruptedException {
      String role = host.path("role").asText();
      Optional<String> next = InstallerController.nextJoinStage(stage, role, singleNode);
      if (next.isEmpty()) {
        return;
      }
      Node node = workload.nodes().withName(host.path("requested_hostname").asText()).get();
      if (node == null || !DiscoveryAgents.ready(node)) {
        return;
      }
      String labels = host.path("node_labels").asText("");
      if (!labels.isBlank() && !labels.equals("{}")) {
        workload
            .nodes()
            .withName(node.getMetadata().getName())
            .patch(
                PatchContext.of(PatchType.JSON_MERGE),
                Serialization.asJson(
                    Map.of(
                        "metadata",
                        Map.of(
                            "labels", Serialization.jsonMapper().readValue(labels, Map.class)))));
      }
      controller.hostStage(
          host.path("infra_env_id").asText(), host.path("id").asText(), next.get());
    }
  }
}
