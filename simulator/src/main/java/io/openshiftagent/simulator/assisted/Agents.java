package io.openshiftagent.simulator.assisted;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.openshiftagent.testsupport.TestPki;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.net.ssl.SSLContext;

/**
 * Runs the discovery agents of a world's machines: one small scheduler for all of them (agents wait
 * far more than they work) and one HTTP client per service CA. Also plays the part of
 * assisted-image-service a booting machine needs: a live ISO's URL names its InfraEnv (and the
 * token to fetch with), and the ISO's ignition is that InfraEnv's discovery ignition, which the
 * image service fetches from assisted-service's REST API; here the machine fetches it the same way.
 */
public final class Agents implements AutoCloseable {
  /** {@code <image service>/byapikey/<token>/<version>/<arch>/<file>.iso} or {@code byid}. */
  private static final Pattern ISO =
      Pattern.compile("/(byapikey|byid|bytoken)/([^/]+)/[^/]+/[^/]+/[^/?]+\\.iso(?:\\?(.*))?$");

  private final ScheduledExecutorService scheduler;
  private final DiscoveryAgent.Pacing pacing;
  private final Map<String, HttpClient> clients = new ConcurrentHashMap<>();

  public Agents(DiscoveryAgent.Pacing pacing) {
    AtomicInteger threads = new AtomicInteger();
    this.scheduler =
        Executors.newScheduledThreadPool(
            4,
            r -> {
              Thread thread = new Thread(r, "discovery-agents-" + threads.incrementAndGet());
              thread.setDaemon(true);
              return thread;
            });
    this.pacing = pacing;
  }

  /**
   * The machine booted a discovery ignition: its agent starts.
   *
   * @param network the segment its NIC is on (the machine is attached to it)
   */
  public DiscoveryAgent boot(
      Machine machine,
      NetworkSegment network,
      AgentIgnition ignition,
      DiscoveryAgent.Installation installation) {
    network.attach(machine);
    DiscoveryAgent agent =
        new DiscoveryAgent(
            machine, network, ignition, client(ignition.caPem()), scheduler, pacing, installation);
    agent.start();
    return agent;
  }

  /**
   * The discovery ignition of the live ISO at {@code isoUrl}, fetched as assisted-image-service
   * does: from {@code serviceRoot}'s REST API, for the InfraEnv the URL names, with the URL's
   * token. Empty when the URL is no ISO of an InfraEnv or the service does not serve it.
   *
   * @param serviceCaPem the CA the image service trusts for assisted-service
   */
  public Optional<String> liveIsoIgnition(String isoUrl, String serviceRoot, String serviceCaPem)
      throws IOException, InterruptedException {
    Matcher iso = ISO.matcher(URI.create(isoUrl).getRawPath() + queryOf(isoUrl));
    if (!iso.find()) {
      return Optional.empty();
    }
    String token =
        iso.group(1).equals("byid") ? queryParameter(iso.group(3), "api_key") : iso.group(2);
    Optional<String> found = infraEnvId(iso);
    if (found.isEmpty()) {
      return Optional.empty();
    }
    String infraEnvId = found.get();
    HttpResponse<String> response =
        new ServiceApi(
                client(serviceCaPem), serviceRoot, null, "openshift-agent-simulated-image-service")
            .send(
                "GET",
                "/infra-envs/"
                    + infraEnvId
                    + "/downloads/files?file_name=discovery.ign"
                    + (token == null
                        ? ""
                        : "&api_key=" + URLEncoder.encode(token, StandardCharsets.UTF_8)),
                null);
    return response.statusCode() == 200 ? Optional.of(response.body()) : Optional.empty();
  }

  /**
   * The service's id of the InfraEnv whose live ISO is at {@code isoUrl} (its {@code
   * status.isoDownloadURL}): the id the discovery agent registers with ({@code --infra-env-id}).
   */
  public static Optional<String> infraEnvId(String isoUrl) {
    Matcher iso = ISO.matcher(URI.create(isoUrl).getRawPath() + queryOf(isoUrl));
    return iso.find() ? infraEnvId(iso) : Optional.empty();
  }

  private static Optional<String> infraEnvId(Matcher iso) {
    return Optional.ofNullable(
        iso.group(1).equals("byid") ? iso.group(2) : claim(iso.group(2), "infra_env_id"));
  }

  private static String queryOf(String url) {
    String query = URI.create(url).getRawQuery();
    return query == null ? "" : "?" + query;
  }

  private static String queryParameter(String query, String name) {
    if (query == null) {
      return null;
    }
    for (String pair : query.split("&")) {
      if (pair.startsWith(name + "=")) {
        return pair.substring(name.length() + 1);
      }
    }
    return null;
  }

  /** A claim of a JWT, read without verifying it (the service verifies). */
  private static String claim(String jwt, String name) {
    String[] parts = jwt.split("\\.");
    if (parts.length != 3) {
      return null;
    }
    try {
      JsonNode claims =
          Serialization.jsonMapper().readTree(Base64.getUrlDecoder().decode(parts[1]));
      return claims.path(name).isTextual() ? claims.path(name).asText() : null;
    } catch (IOException | IllegalArgumentException e) {
      return null;
    }
  }

  private HttpClient client(String caPem) {
    return clients.computeIfAbsent(
        caPem == null ? "" : caPem,
        pem -> {
          HttpClient.Builder builder =
              HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10));
          if (!pem.isEmpty()) {
            builder.sslContext(trusting(pem));
          }
          return builder.build();
        });
  }

  private static SSLContext trusting(String pem) {
    try {
      return TestPki.clientContextTrusting(pem);
    } catch (Exception e) {
      throw new IllegalArgumentException("the service's CA is not a PEM certificate", e);
    }
  }

  @Override
  public void close() {
    scheduler.shutdownNow();
  }
}
