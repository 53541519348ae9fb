package io.openshiftagent.testsupport;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.security.Signature;
import java.time.Instant;
import java.util.Base64;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

/**
 * A registry token service (the Docker/OCI token authentication flow, as Quay and Docker Hub run
 * it) for a distribution registry started with {@link OciRegistry#startWithTokens}: checks basic
 * credentials and issues ES256 JWTs, signed by its own CA, that grant the asked actions on the
 * asked repository. Users in {@code forbidden} are refused with 403, wrong credentials with 401,
 * and anonymous callers get a token granting nothing.
 */
public final class TokenService implements AutoCloseable {
  public static final String ISSUER = "openshift-agent-test-tokens";
  public static final String SERVICE = "openshift-agent-test-registry";

  private final HttpsServer server;
  private final TestPki signer;
  private final Map<String, String> users;
  private final Set<String> forbidden;

  private TokenService(
      HttpsServer server, TestPki signer, Map<String, String> users, Set<String> forbidden) {
    this.server = server;
    this.signer = signer;
    this.users = users;
    this.forbidden = forbidden;
  }

  /** Serves on a free loopback port, with a certificate {@code tls} signs. */
  public static TokenService start(TestPki tls, Map<String, String> users, Set<String> forbidden)
      throws Exception {
    HttpsServer server =
        HttpsServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.setHttpsConfigurator(new HttpsConfigurator(tls.serverContextFor127001()));
    TokenService service =
        new TokenService(
            server,
            TestPki.newCertificateAuthority("token signer"),
            Map.copyOf(users),
            Set.copyOf(forbidden));
    server.createContext("/token", service::issue);
    server.start();
    return service;
  }

  /** The {@code realm} the registry sends clients to. */
  public String realm() {
    return "https://127.0.0.1:" + server.getAddress().getPort() + "/token";
  }

  /** The PEM certificate the registry trusts token signatures to ({@code rootcertbundle}). */
  public String signerPem() throws Exception {
    return signer.caPem();
  }

  private void issue(HttpExchange exchange) throws IOException {
    try (exchange) {
      String authorization = exchange.getRequestHeaders().getFirst("Authorization");
      String user = null;
      if (authorization != null && authorization.startsWith("Basic ")) {
        String decoded =
            new String(
                Base64.getDecoder().decode(authorization.substring(6)), StandardCharsets.UTF_8);
        int colon = decoded.indexOf(':');
        String name = decoded.substring(0, colon);
        if (!decoded.substring(colon + 1).equals(users.get(name))) {
          exchange.sendResponseHeaders(401, -1);
          return;
        }
        if (forbidden.contains(name)) {
          exchange.sendResponseHeaders(403, -1);
          return;
        }
        user = name;
      }
      String scope = scope(exchange.getRequestURI());
      byte[] body =
          ("{\"token\":\"" + token(user, user == null ? null : scope) + "\"}")
              .getBytes(StandardCharsets.UTF_8);
      exchange.getResponseHeaders().add("Content-Type", "application/json");
      exchange.sendResponseHeaders(200, body.length);
      exchange.getResponseBody().write(body);
    } catch (Exception e) {
      throw new IOException(e);
    }
  }

  /** {@code name:actions} of the {@code repository:name:actions} scope asked for, or null. */
  private static String scope(URI uri) {
    String query = uri.getRawQuery() == null ? "" : uri.getRawQuery();
    for (String parameter : query.split("&")) {
      String decoded = URLDecoder.decode(parameter, StandardCharsets.UTF_8);
      if (decoded.startsWith("scope=repository:")) {
        return decoded.substring("scope=repository:".length());
      }
    }
    return null;
  }

  private String token(String subject, String scope) throws Exception {
    Base64.Encoder url = Base64.getUrlEncoder().withoutPadding();
    String header =
        "{\"typ\":\"JWT\",\"alg\":\"ES256\",\"x5c\":[\""
            + Base64.getEncoder().encodeToString(signer.caCertificate().getEncoded())
            + "\"]}";
    long now = Instant.now().getEpochSecond();
    String access = "[]";
    if (scope != null) {
      int colon = scope.lastIndexOf(':');
      access =
          "[{\"type\":\"repository\",\"name\":\""
              + scope.substring(0, colon)
              + "\",\"actions\":[\""
              + String.join("\",\"", scope.substring(colon + 1).split(","))
              + "\"]}]";
    }
    String claims =
        "{\"iss\":\""
            + ISSUER
            + "\",\"sub\":\""
            + (subject == null ? "" : subject)
            + "\",\"aud\":\""
            + SERVICE
            + "\",\"exp\":"
            + (now + 300)
            + ",\"nbf\":"
            + (now - 10)
            + ",\"iat\":"
            + now
            + ",\"jti\":\""
            + UUID.randomUUID()
            + "\",\"access\":"
            + access
            + "}";
    String signingInput =
        url.encodeToString(header.getBytes(StandardCharsets.UTF_8))
            + "."
            + url.encodeToString(claims.getBytes(StandardCharsets.UTF_8));
    Signature es256 = Signature.getInstance("SHA256withECDSAinP1363Format");
    es256.initSign(signer.caPrivateKey());
    es256.update(signingInput.getBytes(StandardCharsets.US_ASCII));
    return signingInput + "." + url.encodeToString(es256.sign());
  }

  @Override
  public void close() {
    server.stop(0);
  }
}
