package io.openshiftagent.simulator.benchmark.scale;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsParameters;
import com.sun.net.httpserver.HttpsServer;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.http.HttpClient;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.HttpResponse;
import io.openshiftagent.testsupport.TestPki;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Each installed cluster's API server, as its admin kubeconfig names it: one real kube-apiserver
 * shared by every installed cluster, behind this HTTPS gateway that gives each cluster its own view
 * of it. Thousands of API servers cannot run on one machine; one shared server alone would answer
 * each cluster's list of control-plane Nodes with every cluster's Nodes. A cluster is reached at
 * {@code https://127.0.0.1:<port>/clusters/<namespace>/<name>} (a path prefix, as a proxy of many
 * clusters serves them); the gateway asks for a client certificate (as the kube-apiserver does),
 * adds the cluster's label ({@link #CLUSTER_LABEL}) to every list of Nodes, and serves the
 * cluster's ClusterVersion {@code <namespace>.<name>} as {@code version}. Everything else passes
 * through.
 */
final class WorkloadGateway implements AutoCloseable {
  /** The label of the Nodes of one installed cluster in the shared API server. */
  static final String CLUSTER_LABEL = "scale.openshift-agent.io/cluster";

  private static final Pattern PATH = Pattern.compile("^/clusters/([^/]+)/([^/]+)(/.*)$");
  private static final String CLUSTER_VERSION =
      "/apis/config.openshift.io/v1/clusterversions/version";

  private final HttpsServer server;
  private final ExecutorService workers;
  private final HttpClient upstream;
  private final String upstreamUrl;
  private final String caData;
  private final TestPki.PemKeyPair admin;
  private final java.util.concurrent.atomic.AtomicLong nodeLists =
      new java.util.concurrent.atomic.AtomicLong();

  private WorkloadGateway(
      HttpsServer server,
      ExecutorService workers,
      KubernetesClient shared,
      String caPem,
      TestPki.PemKeyPair admin) {
    this.server = server;
    this.workers = workers;
    this.upstream = shared.getHttpClient();
    this.upstreamUrl = shared.getMasterUrl().toString().replaceAll("/$", "");
    this.caData = base64(caPem);
    this.admin = admin;
  }

  /** Serves the installed clusters of {@code shared}, the API server they share. */
  static WorkloadGateway start(KubernetesClient shared) throws Exception {
    TestPki ca = TestPki.newCertificateAuthority("installed clusters");
    HttpsServer server = HttpsServer.create(new InetSocketAddress("127.0.0.1", 0), 512);
    server.setHttpsConfigurator(
        new HttpsConfigurator(ca.serverContextFor127001(true)) {
          @Override
          public void configure(HttpsParameters params) {
            var ssl = getSSLContext().getDefaultSSLParameters();
            ssl.setWantClientAuth(true);
            params.setSSLParameters(ssl);
          }
        });
    ExecutorService workers =
        Executors.newFixedThreadPool(
            8,
            r -> {
              Thread thread = new Thread(r, "workload-gateway");
              thread.setDaemon(true);
              return thread;
            });
    WorkloadGateway gateway =
        new WorkloadGateway(
            server,
            workers,
            shared,
            ca.caPem(),
            ca.pemClientCertificate("admin", "system:masters"));
    server.createContext("/", gateway::handle);
    server.setExecutor(workers);
    server.start();
    return gateway;
  }

  /** How the installed cluster of {@code namespace/name} is told apart in the shared server. */
  static String clusterId(String namespace, String name) {
    return namespace + "." + name;
  }

  /** The admin kubeconfig of the installed cluster of the ClusterDeployment namespace/name. */
  String kubeconfig(String namespace, String name) {
    String server =
        "https://127.0.0.1:"
            + this.server.getAddress().getPort()
            + "/clusters/"
            + namespace
            + "/"
            + name;
    return """
        apiVersion: v1
        kind: Config
        clusters:
        - cluster:
            certificate-authority-data: %s
            server: %s
          name: %s
        contexts:
        - context:
            cluster: %s
            user: admin
          name: admin
        current-context: admin
        preferences: {}
        users:
        - name: admin
          user:
            client-certificate-data: %s
            client-key-data: %s
        """
        .formatted(
            caData, server, name, name, base64(admin.certificate()), base64(admin.privateKey()));
  }

  /**
   * The lists of Nodes served so far: the control plane's look at an installed cluster lists its
   * control-plane Nodes twice (by the {@code control-plane} and the {@code master} role label).
   */
  long nodeLists() {
    return nodeLists.get();
  }

  private void handle(HttpExchange exchange) throws IOException {
    try (exchange) {
      Matcher m = PATH.matcher(exchange.getRequestURI().getRawPath());
      if (!m.matches()) {
        exchange.sendResponseHeaders(404, -1);
        return;
      }
      String id = clusterId(m.group(1), m.group(2));
      String path = m.group(3);
      String query = exchange.getRequestURI().getRawQuery();
      if (path.equals("/api/v1/nodes")) {
        nodeLists.incrementAndGet();
        query = withClusterLabel(query, id);
      } else if (path.startsWith(CLUSTER_VERSION)
          && (path.length() == CLUSTER_VERSION.length()
              || path.charAt(CLUSTER_VERSION.length()) == '/')) {
        path = path.replaceFirst("/version", "/" + id);
      }
      byte[] body;
      try (InputStream in = exchange.getRequestBody()) {
        body = in.readAllBytes();
      }
      String contentType = exchange.getRequestHeaders().getFirst("Content-Type");
      HttpRequest.Builder request =
          upstream
              .newHttpRequestBuilder()
              .uri(upstreamUrl + path + (query == null ? "" : "?" + query));
      String method = exchange.getRequestMethod();
      if (!method.equals("GET")) {
        request.method(
            method,
            contentType == null ? "application/json" : contentType,
            new String(body, StandardCharsets.UTF_8));
      }
      String accept = exchange.getRequestHeaders().getFirst("Accept");
      if (accept != null) {
        request.header("Accept", accept);
      }
      HttpResponse<byte[]> response =
          upstream.sendAsync(request.build(), byte[].class).get(30, TimeUnit.SECONDS);
      byte[] answer = response.body() == null ? new byte[0] : response.body();
      response
          .headers("Content-Type")
          .forEach(v -> exchange.getResponseHeaders().add("Content-Type", v));
      exchange.sendResponseHeaders(response.code(), answer.length == 0 ? -1 : answer.length);
      if (answer.length > 0) {
        try (OutputStream out = exchange.getResponseBody()) {
          out.write(answer);
        }
      }
    } catch (Exception e) {
      exchange.sendResponseHeaders(502, -1);
    }
  }

  /** The query with the cluster's label added to its label selector (or as the selector). */
  static String withClusterLabel(String query, String id) {
    List<String> parameters = new ArrayList<>();
    String selector = CLUSTER_LABEL + "=" + id;
    if (query != null) {
      for (String parameter : query.split("&")) {
        if (parameter.startsWith("labelSelector=")) {
          String current =
              URLDecoder.decode(
                  parameter.substring("labelSelector=".length()), StandardCharsets.UTF_8);
          selector = current.isEmpty() ? selector : current + "," + selector;
        } else if (!parameter.isEmpty()) {
          parameters.add(parameter);
        }
      }
    }
    parameters.add("labelSelector=" + URLEncoder.encode(selector, StandardCharsets.UTF_8));
    return String.join("&", parameters);
  }

  private static String base64(String text) {
    return Base64.getEncoder().encodeToString(text.getBytes(StandardCharsets.UTF_8));
  }

  @Override
  public void close() {
    server.stop(0);
    workers.shutdownNow();
  }
}
