package io.openshiftagent.simulator.assisted;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.io.IOException;
import java.net.http.HttpClient;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * The part of an installation that assisted-installer-controller does from inside the new cluster,
 * over assisted-service's REST API with a cluster token: once a host has rebooted and its Node has
 * joined, its last stages; once every host is done, the ingress CA (which turns the service's
 * kubeconfig-noingress into the admin kubeconfig) and the built-in operators' status, after which
 * the service finalizes the installation.
 *
 * <p>The cluster the service sees is the world's simulated installed cluster (an API server of its
 * own): the service's install ignitions are dummies, and so is the kubeconfig it generated with
 * them, so before the ingress CA is uploaded its {@code kubeconfig-noingress} is replaced by one
 * for that API server. That file write into the service's storage is the one thing done behind its
 * back; the rest is its API.
 */
public final class InstallerController {
  private static final ObjectMapper JSON = Serialization.jsonMapper();

  private final ServiceApi api;
  private final String clusterId;

  /**
   * @param clusterToken a token of the service for this cluster (JWT with claim cluster_id), as the
   *     controller gets from its cluster's secret; here from the AgentClusterInstall's presigned
   *     events URL, which carries the same kind of token
   */
  public InstallerController(
      HttpClient http, String serviceRoot, String clusterId, String clusterToken) {
    this.api =
        new ServiceApi(
            http, serviceRoot, clusterToken, "openshift-agent-simulated-installer-controller");
    this.clusterId = clusterId;
  }

  /** The stages after the reboot, which the controller reports as the Node joins. */
  public static List<String> joinStages(String role, boolean singleNode) {
    if (singleNode) {
      return List.of("Joined", "Done");
    }
    return "worker".equals(role)
        ? List.of("Waiting for ignition", "Configuring", "Joined", "Done")
        : List.of("Configuring", "Joined", "Done");
  }

  /** The cluster as the service has it ({@code GET /v2/clusters/{id}}: status, hosts...). */
  public JsonNode cluster() throws IOException, InterruptedException {
    return JSON.readTree(send("GET", "/clusters/" + clusterId, null));
  }

  /**
   * The stage that follows {@code current} once the host's Node has joined, for its role; empty
   * when {@code current} is not one the controller moves on.
   */
  public static java.util.Optional<String> nextJoinStage(
      String current, String role, boolean singleNode) {
    List<String> stages = joinStages(role, singleNode);
    if ("Rebooting".equals(current)) {
      return java.util.Optional.of(stages.get(0));
    }
    int at = stages.indexOf(current);
    return at < 0 || at + 1 == stages.size()
        ? java.util.Optional.empty()
        : java.util.Optional.of(stages.get(at + 1));
  }

  /** Reports {@code stage} for a host of the cluster. */
  public void hostStage(String infraEnvId, String hostId, String stage)
      throws IOException, InterruptedException {
    send(
        "PUT",
        "/infra-envs/" + infraEnvId + "/hosts/" + hostId + "/progress",
        Map.of("current_stage", stage, "progress_info", ""));
  }

  /**
   * The installation's end, as the controller does it: the admin kubeconfig of {@code kubeconfig}
   * (the installed cluster's API server) in place of the dummy, the ingress CA, then every built-in
   * operator Available.
   *
   * @param serviceWorkDir the service's WORK_DIR (its filesystem storage)
   */
  public void finish(Path serviceWorkDir, String kubeconfig, String ingressCaPem)
      throws IOException, InterruptedException {
    awaitClusterStatus("finalizing", Duration.ofMinutes(3));
    complete(serviceWorkDir, kubeconfig, ingressCaPem);
  }

  /**
   * The installation's end once the service has moved the cluster to {@code finalizing}: the admin
   * kubeconfig, the ingress CA, the operators (see {@link #finish}).
   */
  public void complete(Path serviceWorkDir, String kubeconfig, String ingressCaPem)
      throws IOException, InterruptedException {
    if (!replaceKubeconfig(serviceWorkDir, clusterId, kubeconfig)) {
      throw new IllegalStateException(
          "assisted-service has no kubeconfig-noingress for cluster "
              + clusterId
              + " (the installation did not generate it)");
    }
    send("POST", "/clusters/" + clusterId + "/uploads/ingress-cert", ingressCaPem);
    JsonNode operators =
        JSON.readTree(send("GET", "/clusters/" + clusterId + "/monitored-operators", null));
    for (JsonNode operator : operators) {
      if ("builtin".equals(operator.path("operator_type").asText())) {
        send(
            "PUT",
            "/clusters/" + clusterId + "/monitored-operators",
            Map.of(
                "name", operator.path("name").asText(),
                "status", "available",
                "status_info", "available",
                "version", ""));
      }
    }
  }

  /**
   * Puts {@code kubeconfig} (the installed cluster's API server) in place of the service's dummy
   * {@code kubeconfig-noingress} of {@code clusterId}, once the service has generated it; whether
   * it had.
   */
  public static boolean replaceKubeconfig(Path serviceWorkDir, String clusterId, String kubeconfig)
      throws IOException {
    Path noIngress = serviceWorkDir.resolve(clusterId).resolve("kubeconfig-noingress");
    if (!Files.exists(noIngress)) {
      return false;
    }
    Path temporary = Files.createTempFile(noIngress.getParent(), "kubeconfig-noingress", ".tmp");
    Files.writeString(temporary, embedded(kubeconfig));
    Files.move(temporary, noIngress, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
    return true;
  }

  /**
   * The kubeconfig with its certificate and key files embedded ({@code *-data}), as an installed
   * cluster's admin kubeconfig is: the service reads the CA data to add the ingress CA to it.
   */
  @SuppressWarnings("unchecked")
  static String embedded(String kubeconfig) throws IOException {
    ObjectMapper yaml = Serialization.yamlMapper();
    Map<String, Object> config = yaml.readValue(kubeconfig, Map.class);
    for (Map<String, Object> cluster : (List<Map<String, Object>>) config.get("clusters")) {
      embed((Map<String, Object>) cluster.get("cluster"), "certificate-authority");
    }
    for (Map<String, Object> user : (List<Map<String, Object>>) config.get("users")) {
      embed((Map<String, Object>) user.get("user"), "client-certificate");
      embed((Map<String, Object>) user.get("user"), "client-key");
    }
    return yaml.writeValueAsString(config);
  }

  private static void embed(Map<String, Object> section, String key) throws IOException {
    Object file = section.remove(key);
    if (file != null) {
      section.put(
          key + "-data",
          java.util.Base64.getEncoder()
              .encodeToString(Files.readAllBytes(Path.of(file.toString()))));
    }
  }

  /**
   * As the controller does before the ingress CA: waits until every host is done and the service
   * has moved the cluster on ({@code status} of GET /v2/clusters/{id}).
   */
  private void awaitClusterStatus(String status, Duration timeout)
      throws IOException, InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    String current = "";
    while (System.nanoTime() < deadline) {
      current = JSON.readTree(send("GET", "/clusters/" + clusterId, null)).path("status").asText();
      if (current.equals(status)) {
        return;
      }
      Thread.sleep(500);
    }
    throw new IllegalStateException(
        "cluster " + clusterId + " is " + current + ", not " + status + ", after " + timeout);
  }

  private String send(String method, String path, Object body)
      throws IOException, InterruptedException {
    HttpResponse<String> response = api.send(method, path, body);
    if (response.statusCode() / 100 != 2) {
      throw new IOException(
          method + " " + path + " answered " + response.statusCode() + ": " + response.body());
    }
    return response.body();
  }
}
