package io.openshiftagent.registry;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import io.openshiftagent.testsupport.Crane;
import io.openshiftagent.testsupport.FreePorts;
import io.openshiftagent.testsupport.OciRegistry;
import io.openshiftagent.testsupport.TestPki;
import io.openshiftagent.tls.TrustedCertificates;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An {@code insecure = true} mirror that serves plain HTTP is asked anonymously, never with the
 * pull secret's credentials: against real distribution registries without TLS (one anonymous, one
 * with htpasswd users), and against servers that record every {@code Authorization} header they
 * receive.
 */
class ReleaseDigestsPlainHttpTest {
  private static final String USER = "mirrorer";
  private static final String PASSWORD = "mirror-password-in-the-clear";
  private static final String BASIC =
      "Basic "
          + Base64.getEncoder()
              .encodeToString((USER + ":" + PASSWORD).getBytes(StandardCharsets.UTF_8));
  private static final String RELEASE = "/ocp/release:4.20.0-x86_64";

  @TempDir static Path dir;
  static OciRegistry anonymous;
  static OciRegistry guarded;
  static TestPki ca;
  static String digest;
  static final ReleaseDigests RESOLVER =
      new ReleaseDigests(
          new RegistryLookup(Duration.ofSeconds(5), "openshift-agent-tests"), Clock.systemUTC());

  @BeforeAll
  static void registries() throws Exception {
    ca = TestPki.newCertificateAuthority("plain http tests");
    anonymous = OciRegistry.startPlainHttp(dir.resolve("anonymous"), Map.of());
    guarded = OciRegistry.startPlainHttp(dir.resolve("guarded"), Map.of(USER, PASSWORD));
    Crane crane = new Crane(dir.resolve("crane"), anonymous, guarded);
    digest =
        crane.pushRelease(anonymous.host() + "/ocp/release", "4.20.0-x86_64", "amd64", "1.33.2");
    crane.run("copy", anonymous.host() + RELEASE, guarded.host() + RELEASE);
  }

  @AfterAll
  static void stop() throws Exception {
    anonymous.close();
    guarded.close();
  }

  @Test
  void anInsecureMirrorOverPlainHttpAnswersAnonymously() {
    ReleaseDigests.Resolved resolved =
        (ReleaseDigests.Resolved) throughInsecureMirror(anonymous.host(), PullSecret.none());

    assertThat(resolved.image().digest()).isEqualTo(digest);
    assertThat(resolved.answeredBy().toString()).isEqualTo(anonymous.host() + RELEASE);
  }

  @Test
  void aPlainHttpMirrorThatWantsCredentialsIsUnauthorizedSayingTheyWereWithheld() {
    ReleaseDigests.Unresolved unresolved =
        (ReleaseDigests.Unresolved)
            throughInsecureMirror(guarded.host(), credentialsFor(guarded.host()));

    assertThat(unresolved.reason()).isEqualTo(Reasons.REGISTRY_UNAUTHORIZED);
    assertThat(unresolved.message())
        .contains("mirror " + guarded.host())
        .contains("credentials for " + guarded.host() + " were withheld because it is plain HTTP")
        .doesNotContain("with the pull secret's credentials")
        .doesNotContain(PASSWORD);
    System.out.println("RegistryUnauthorized over plain HTTP: " + unresolved.message());
  }

  @Test
  void aBasicChallengeOverPlainHttpGetsNoCredentials() throws Exception {
    try (PlainHttpServer mirror =
        new PlainHttpServer(auth -> challenge(401, "Basic realm=\"plain\""))) {
      ReleaseDigests.Unresolved unresolved =
          (ReleaseDigests.Unresolved)
              throughInsecureMirror(mirror.host(), credentialsFor(mirror.host()));

      assertThat(unresolved.message()).contains("were withheld because it is plain HTTP");
      assertThat(mirror.received()).isNotEmpty().containsOnly("none");
    }
  }

  @Test
  void aBearerChallengeOverPlainHttpFetchesOnlyAnAnonymousToken() throws Exception {
    List<String> atTokenService = new CopyOnWriteArrayList<>();
    HttpsServer tokens = HttpsServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    tokens.setHttpsConfigurator(new HttpsConfigurator(ca.serverContextFor127001()));
    tokens.createContext(
        "/token",
        recording(atTokenService, auth -> new Answer(200, Map.of(), "{\"token\":\"anonymous\"}")));
    tokens.start();
    String realm = "https://127.0.0.1:" + tokens.getAddress().getPort() + "/token";
    try (PlainHttpServer mirror =
        new PlainHttpServer(
            auth -> challenge(401, "Bearer realm=\"" + realm + "\",service=\"plain\""))) {
      ReleaseDigests.Unresolved unresolved =
          (ReleaseDigests.Unresolved)
              throughInsecureMirror(mirror.host(), credentialsFor(mirror.host()));

      assertThat(unresolved.reason()).isEqualTo(Reasons.REGISTRY_UNAUTHORIZED);
      assertThat(unresolved.message()).contains("were withheld because it is plain HTTP");
      assertThat(mirror.received()).containsExactly("none", "Bearer anonymous");
    } finally {
      tokens.stop(0);
    }
    assertThat(atTokenService).containsExactly("none");
  }

  @Test
  void aRedirectFromTlsToPlainHttpDropsTheCredentials() throws Exception {
    PlainHttpServer plain = new PlainHttpServer(auth -> challenge(401, "Basic realm=\"plain\""));
    String elsewhere = "http://" + plain.host() + "/v2/ocp/moved";
    List<String> atTls = new CopyOnWriteArrayList<>();
    HttpsServer registry = HttpsServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    registry.setHttpsConfigurator(new HttpsConfigurator(ca.serverContextFor127001()));
    registry.createContext(
        "/",
        recording(
            atTls,
            auth ->
                auth.equals("none")
                    ? challenge(401, "Basic realm=\"tls\"")
                    : new Answer(307, Map.of("Location", elsewhere), "")));
    registry.start();
    String host = "127.0.0.1:" + registry.getAddress().getPort();
    try {
      ReleaseDigests.Unresolved unresolved =
          (ReleaseDigests.Unresolved)
              RESOLVER.resolve(
                  new ReleaseDigests.Request(
                      ImageReference.parse(host + RELEASE),
                      Set.of("amd64"),
                      credentialsFor(host),
                      RegistriesConf.EMPTY,
                      TrustedCertificates.withBundles(List.of(ca.caPem()))));

      assertThat(unresolved.reason()).isEqualTo(Reasons.REGISTRY_UNAUTHORIZED);
    } finally {
      registry.stop(0);
      plain.close();
    }
    assertThat(atTls).containsExactly("none", BASIC); // over verified TLS the credential goes
    assertThat(plain.received()).containsExactly("none");
  }

  /**
   * The release from an unreachable source, which registries.conf mirrors to an insecure mirror.
   */
  private static ReleaseDigests.Resolution throughInsecureMirror(String mirror, PullSecret secret) {
    String source = "127.0.0.1:" + FreePorts.next();
    RegistriesConf conf =
        RegistriesConf.parse(
            "[[registry]]\nlocation = \""
                + source
                + "/ocp\"\n[[registry.mirror]]\nlocation = \""
                + mirror
                + "/ocp\"\ninsecure = true\n");
    return RESOLVER.resolve(
        new ReleaseDigests.Request(
            ImageReference.parse(source + RELEASE),
            Set.of("amd64"),
            secret,
            conf,
            TrustedCertificates.jvmDefaults()));
  }

  private static PullSecret credentialsFor(String host) {
    return PullSecret.parse(
        OciRegistry.dockerConfigJson(host, Map.of(USER, PASSWORD))
            .getBytes(StandardCharsets.UTF_8));
  }

  private record Answer(int status, Map<String, String> headers, String body) {}

  private static Answer challenge(int status, String wwwAuthenticate) {
    return new Answer(status, Map.of("WWW-Authenticate", wwwAuthenticate), "");
  }

  /** Records each request's Authorization header ("none" without one), then answers. */
  private static com.sun.net.httpserver.HttpHandler recording(
      List<String> received, Function<String, Answer> answer) {
    return exchange -> {
      String auth = exchange.getRequestHeaders().getFirst("Authorization");
      received.add(auth == null ? "none" : auth);
      respond(exchange, answer.apply(auth == null ? "none" : auth));
    };
  }

  /**
   * A plain-HTTP server on loopback that records each request's Authorization header ("none"
   * without one) and answers. Written on a socket, not with the JDK's HttpServer: like Go's server
   * (the registry's), it answers a TLS handshake with 400 at once, where the JDK's waits for a
   * request line until the client times out, so the lookup's try of TLS fails as against a real
   * plain-HTTP registry.
   */
  private static final class PlainHttpServer implements AutoCloseable {
    private final ServerSocket socket;
    private final List<String> received = new CopyOnWriteArrayList<>();
    private final Thread thread;

    PlainHttpServer(Function<String, Answer> answer) throws IOException {
      socket = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
      thread =
          new Thread(
              () -> {
                while (!socket.isClosed()) {
                  try (Socket client = socket.accept()) {
                    serve(client, answer);
                  } catch (IOException e) {
                    // closed, or a client that went away
                  }
                }
              },
              "plain-http-server");
      thread.setDaemon(true);
      thread.start();
    }

    String host() {
      return "127.0.0.1:" + socket.getLocalPort();
    }

    List<String> received() {
      return received;
    }

    private void serve(Socket client, Function<String, Answer> answer) throws IOException {
      client.setSoTimeout(5000);
      InputStream in = client.getInputStream();
      OutputStream out = client.getOutputStream();
      int first = in.read();
      if (first == -1) {
        return;
      }
      if (first != 0x16) { // not a TLS handshake record
        String head = (char) first + readHead(in);
        String auth = "none";
        for (String line : head.split("\r\n")) {
          int colon = line.indexOf(':');
          if (colon > 0 && line.substring(0, colon).trim().equalsIgnoreCase("Authorization")) {
            auth = line.substring(colon + 1).trim();
          }
        }
        received.add(auth);
        Answer a = answer.apply(auth);
        StringBuilder response =
            new StringBuilder("HTTP/1.1 ").append(a.status()).append(" Answer\r\n");
        a.headers().forEach((k, v) -> response.append(k).append(": ").append(v).append("\r\n"));
        byte[] body = a.body().getBytes(StandardCharsets.UTF_8);
        response
            .append("Content-Length: ")
            .append(body.length)
            .append("\r\nConnection: close\r\n\r\n");
        out.write(response.toString().getBytes(StandardCharsets.UTF_8));
        out.write(body);
      } else {
        out.write(
            "HTTP/1.0 400 Bad Request\r\nConnection: close\r\n\r\n"
                .getBytes(StandardCharsets.UTF_8));
      }
      out.flush();
    }

    private static String readHead(InputStream in) throws IOException {
      StringBuilder head = new StringBuilder();
      int c;
      while ((c = in.read()) != -1) {
        head.append((char) c);
        if (head.length() >= 4 && head.substring(head.length() - 4).equals("\r\n\r\n")) {
          break;
        }
      }
      return head.toString();
    }

    @Override
    public void close() throws IOException {
      socket.close();
    }
  }

  private static void respond(HttpExchange exchange, Answer answer) throws IOException {
    answer.headers().forEach((k, v) -> exchange.getResponseHeaders().add(k, v));
    byte[] body = answer.body().getBytes(StandardCharsets.UTF_8);
    exchange.sendResponseHeaders(answer.status(), body.length == 0 ? -1 : body.length);
    if (body.length > 0) {
      exchange.getResponseBody().write(body);
    }
    exchange.close();
  }
}
