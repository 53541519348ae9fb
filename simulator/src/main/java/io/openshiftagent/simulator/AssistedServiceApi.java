package io.openshiftagent.simulator;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.openshiftagent.testsupport.TestPki;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The part of assisted-service's REST API that our providers call, over HTTPS on 127.0.0.1 with a
 * certificate from a throwaway CA: {@code GET
 * /api/assisted-install/v2/infra-envs/{id}/downloads/files?file_name=discovery.ign&api_key=...}
 * answers the InfraEnv's discovery ignition. The api_key is what assisted-service presigns into the
 * URLs of the InfraEnv status: a token scoped to that InfraEnv (here an HMAC of its id); a missing
 * or wrong one is refused with 401, as the real service does.
 *
 * <p>Trouble can be injected per namespace of the InfraEnvs ({@link #fail}): every download of
 * theirs is then answered slowly, with 503 or with garbage until {@link #recover}. Every download
 * is recorded ({@link #downloads}), so a test can see how often a client tries.
 */
final class AssistedServiceApi implements AutoCloseable {
  static final String REST_ROOT = "/api/assisted-install";

  /** Longer than the client's read timeout (30 s by default). */
  static final Duration SLOW_ANSWER = Duration.ofSeconds(35);

  private static final Pattern DOWNLOAD =
      Pattern.compile("^" + REST_ROOT + "/v2/infra-envs/([^/]+)/downloads/files$");

  private final KubernetesClient hub;
  private final HttpsServer server;

  /** Slow answers hold a thread each; the others must not wait behind them. */
  private final ExecutorService executor = Executors.newCachedThreadPool();

  private final Map<String, AssistedServiceTrouble.Fault> faults = new ConcurrentHashMap<>();
  private final List<AssistedServiceTrouble.Download> downloads = new CopyOnWriteArrayList<>();
  private final AtomicInteger garbageServed = new AtomicInteger();
  private final String caPem;
  private final byte[] tokenKey = new byte[32];

  /**
   * @param hub where the InfraEnvs and their pull secrets are read
   */
  AssistedServiceApi(KubernetesClient hub) throws Exception {
    this.hub = hub;
    TestPki pki = TestPki.newCertificateAuthority("simulated-assisted-service-ca");
    caPem = pki.caPem();
    new SecureRandom().nextBytes(tokenKey);
    server = HttpsServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.setHttpsConfigurator(new HttpsConfigurator(pki.serverContextFor127001()));
    server.setExecutor(executor);
    server.createContext(REST_ROOT + "/", this::answer);
    server.start();
  }

  /** The PEM certificate of the CA that signed the server's certificate. */
  String caPem() {
    return caPem;
  }

  /** {@code https://127.0.0.1:<port>}: the service root, as the agents and our providers see it. */
  String root() {
    return "https://127.0.0.1:" + server.getAddress().getPort();
  }

  /** The presigned URL of {@code status.bootArtifacts.discoveryIgnitionURL}. */
  String discoveryIgnitionUrl(String infraEnvId) {
    return root()
        + REST_ROOT
        + "/v2/infra-envs/"
        + infraEnvId
        + "/downloads/files?file_name=discovery.ign&api_key="
        + token(infraEnvId);
  }

  /** The presigned URL of {@code status.debugInfo.eventsURL}. */
  String eventsUrl(String infraEnvId) {
    return root()
        + REST_ROOT
        + "/v2/events?infra_env_id="
        + infraEnvId
        + "&api_key="
        + token(infraEnvId);
  }

  private String token(String infraEnvId) {
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(tokenKey, "HmacSHA256"));
      return Base64.getUrlEncoder()
          .withoutPadding()
          .encodeToString(mac.doFinal(infraEnvId.getBytes(StandardCharsets.UTF_8)));
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
  }

  private void answer(HttpExchange exchange) throws IOException {
    try (exchange) {
      Matcher download = DOWNLOAD.matcher(exchange.getRequestURI().getRawPath());
      Map<String, String> query = query(exchange.getRequestURI().getRawQuery());
      if (!"GET".equals(exchange.getRequestMethod()) || !download.matches()) {
        send(exchange, 404, "");
        return;
      }
      String id = download.group(1);
      if (!MessageDigest.isEqual(
          token(id).getBytes(StandardCharsets.UTF_8),
          query.getOrDefault("api_key", "").getBytes(StandardCharsets.UTF_8))) {
        send(exchange, 401, "{\"code\":\"401\",\"reason\":\"Unauthorized\"}");
        return;
      }
      if (!"discovery.ign".equals(query.get("file_name"))) {
        send(exchange, 400, "{\"code\":\"400\",\"reason\":\"invalid file_name\"}");
        return;
      }
      GenericKubernetesResource infraEnv = infraEnv(id);
      if (infraEnv == null) {
        send(exchange, 404, "{\"code\":\"404\",\"reason\":\"infra env not found\"}");
        return;
      }
      String namespace = infraEnv.getMetadata().getNamespace();
      AssistedServiceTrouble.Fault fault = faults.get(namespace);
      downloads.add(new AssistedServiceTrouble.Download(namespace, id, Instant.now(), fault));
      String ignition =
          DiscoveryIgnition.render(
              id,
              root(),
              Fields.string(infraEnv, "spec", "sshAuthorizedKey"),
              pullSecret(infraEnv));
      if (fault == null) {
        send(exchange, 200, ignition);
      } else {
        answerWith(fault, exchange, ignition);
      }
    }
  }

  private void answerWith(
      AssistedServiceTrouble.Fault fault, HttpExchange exchange, String ignition)
      throws IOException {
    switch (fault) {
      case SLOW -> {
        try {
          Thread.sleep(SLOW_ANSWER.toMillis());
          send(exchange, 200, ignition);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        } catch (IOException clientGaveUp) {
          // Expected: the client timed out long ago.
        }
      }
      case SERVER_ERROR ->
          send(
              exchange,
              503,
              "application/json",
              "{\"code\":\"503\",\"reason\":\"the database is not available\"}");
      case GARBAGE -> {
        // In turn, what a proxy or a service in a bad state answers with 200.
        switch (garbageServed.getAndIncrement() % 3) {
          case 0 ->
              send(
                  exchange,
                  200,
                  "upstream connect error or disconnect/reset before headers."
                      + " reset reason: connection termination");
          case 1 -> send(exchange, 200, ignition.substring(0, ignition.length() / 2));
          default ->
              send(
                  exchange,
                  200,
                  "text/html; charset=utf-8",
                  "<!DOCTYPE html><html><body><h1>Sign in</h1><form method=\"post\"></form>"
                      + "</body></html>");
        }
      }
    }
  }

  /** From now on, every download of an InfraEnv in {@code namespace} meets {@code fault}. */
  void fail(String namespace, AssistedServiceTrouble.Fault fault) {
    faults.put(namespace, fault);
  }

  /** Downloads of the InfraEnvs in {@code namespace} are answered normally again. */
  void recover(String namespace) {
    faults.remove(namespace);
  }

  /** Every download of an InfraEnv in {@code namespace} so far, in the order they arrived. */
  List<AssistedServiceTrouble.Download> downloads(String namespace) {
    return downloads.stream().filter(d -> d.namespace().equals(namespace)).toList();
  }

  /** The InfraEnv whose assisted-service id (here: its UID) is {@code id}. */
  private GenericKubernetesResource infraEnv(String id) {
    return hub
        .genericKubernetesResources(ApiVersions.AGENT_INSTALL, "InfraEnv")
        .inAnyNamespace()
        .list()
        .getItems()
        .stream()
        .filter(i -> id.equals(i.getMetadata().getUid()))
        .findFirst()
        .orElse(null);
  }

  private String pullSecret(GenericKubernetesResource infraEnv) {
    String name = Fields.string(infraEnv, "spec", "pullSecretRef", "name");
    Secret secret =
        name == null
            ? null
            : hub.secrets().inNamespace(infraEnv.getMetadata().getNamespace()).withName(name).get();
    String encoded =
        secret == null || secret.getData() == null
            ? null
            : secret.getData().get(".dockerconfigjson");
    return encoded == null
        ? null
        : new String(Base64.getDecoder().decode(encoded), StandardCharsets.UTF_8);
  }

  /** As assisted-service serves files: {@code application/octet-stream}. */
  private static void send(HttpExchange exchange, int status, String body) throws IOException {
    send(exchange, status, "application/octet-stream", body);
  }

  private static void send(HttpExchange exchange, int status, String contentType, String body)
      throws IOException {
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    exchange.getResponseHeaders().set("Content-Type", contentType);
    exchange.sendResponseHeaders(status, bytes.length == 0 ? -1 : bytes.length);
    try (OutputStream out = exchange.getResponseBody()) {
      out.write(bytes);
    }
  }

  private static Map<String, String> query(String rawQuery) {
    Map<String, String> parameters = new HashMap<>();
    if (rawQuery != null) {
      for (String pair : rawQuery.split("&")) {
        int equals = pair.indexOf('=');
        String name = equals < 0 ? pair : pair.substring(0, equals);
        String value = equals < 0 ? "" : pair.substring(equals + 1);
        parameters.putIfAbsent(
            URLDecoder.decode(name, StandardCharsets.UTF_8),
            URLDecoder.decode(value, StandardCharsets.UTF_8));
      }
    }
    return parameters;
  }

  @Override
  public void close() {
    server.stop(0);
    executor.shutdownNow();
  }
}
