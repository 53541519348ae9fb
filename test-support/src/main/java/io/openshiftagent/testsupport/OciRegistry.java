package io.openshiftagent.testsupport;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.Base64;
import java.util.HexFormat;
import java.util.Map;
import java.util.stream.Collectors;
import org.bouncycastle.crypto.generators.OpenBSDBCrypt;

/**
 * The real CNCF distribution registry ({@code hack/build-registry-tools.sh}) as a child process on
 * loopback: a free port, TLS with a certificate for 127.0.0.1 from a test CA, htpasswd users (or
 * anonymous access), storage in a directory of its own. {@link #host()} is what image references
 * name ({@code 127.0.0.1:PORT}).
 */
public final class OciRegistry implements AutoCloseable {
  private final Process process;
  private final int port;
  private final Path dir;
  private final TestPki ca;
  private final Map<String, String> users;

  private OciRegistry(Process process, int port, Path dir, TestPki ca, Map<String, String> users) {
    this.process = process;
    this.port = port;
    this.dir = dir;
    this.ca = ca;
    this.users = users;
  }

  /**
   * Starts a registry in {@code dir} whose certificate {@code ca} signs.
   *
   * @param users user name → password; empty for anonymous pulls and pushes
   */
  public static OciRegistry start(Path dir, TestPki ca, Map<String, String> users)
      throws Exception {
    return start(dir, ca, users, null);
  }

  /**
   * Starts a registry in {@code dir} that serves plain HTTP, as a registries.conf {@code insecure =
   * true} mirror may: no TLS, {@link #ca()} is null.
   *
   * @param users user name → password; empty for anonymous pulls and pushes
   */
  public static OciRegistry startPlainHttp(Path dir, Map<String, String> users) throws Exception {
    return start(dir, null, users, null);
  }

  /**
   * Starts a registry in {@code dir} that authenticates with bearer tokens from {@code tokens}
   * (whose users are the ones crane and the tests log in as).
   */
  public static OciRegistry startWithTokens(
      Path dir, TestPki ca, TokenService tokens, Map<String, String> users) throws Exception {
    return start(dir, ca, users, tokens);
  }

  private static OciRegistry start(
      Path dir, TestPki ca, Map<String, String> users, TokenService tokens) throws Exception {
    Files.createDirectories(dir.resolve("storage"));
    int port = FreePorts.next();
    StringBuilder config =
        new StringBuilder()
            .append("version: 0.1\n")
            .append("log:\n  level: warn\n  accesslog:\n    disabled: true\n")
            .append("storage:\n  filesystem:\n    rootdirectory: ")
            .append(dir.resolve("storage"))
            .append("\n  delete:\n    enabled: true\n")
            .append("http:\n  addr: 127.0.0.1:")
            .append(port)
            .append("\n  secret: ")
            .append(HexFormat.of().formatHex(SecureRandom.getSeed(16)))
            .append("\n");
    if (ca != null) {
      TestPki.PemKeyPair tls = ca.pemServerCertificateFor127001("oci registry");
      Files.writeString(dir.resolve("tls.crt"), tls.certificate() + ca.caPem());
      Files.writeString(dir.resolve("tls.key"), tls.privateKey());
      config
          .append("  tls:\n    certificate: ")
          .append(dir.resolve("tls.crt"))
          .append("\n    key: ")
          .append(dir.resolve("tls.key"))
          .append("\n");
    }
    if (tokens != null) {
      Files.writeString(dir.resolve("token-signer.crt"), tokens.signerPem());
      config
          .append("auth:\n  token:\n    realm: ")
          .append(tokens.realm())
          .append("\n    service: ")
          .append(TokenService.SERVICE)
          .append("\n    issuer: ")
          .append(TokenService.ISSUER)
          .append("\n    rootcertbundle: ")
          .append(dir.resolve("token-signer.crt"))
          .append("\n");
    } else if (!users.isEmpty()) {
      Files.writeString(dir.resolve("htpasswd"), htpasswd(users));
      config
          .append("auth:\n  htpasswd:\n    realm: openshift-agent-tests\n    path: ")
          .append(dir.resolve("htpasswd"))
          .append("\n");
    }
    Files.writeString(dir.resolve("config.yml"), config);
    Process process =
        new ProcessBuilder(
                TestPaths.tool("registry").toString(),
                "serve",
                dir.resolve("config.yml").toString())
            .redirectErrorStream(true)
            .redirectOutput(dir.resolve("registry.log").toFile())
            .start();
    OciRegistry registry = new OciRegistry(process, port, dir, ca, Map.copyOf(users));
    registry.awaitServing();
    return registry;
  }

  /** {@code 127.0.0.1:PORT}: the registry part of image references. */
  public String host() {
    return "127.0.0.1:" + port;
  }

  public int port() {
    return port;
  }

  /** The CA that signs its certificate; null for a plain-HTTP registry. */
  public TestPki ca() {
    return ca;
  }

  /** A {@code .dockerconfigjson} with every user's credentials for this registry (the first). */
  public String dockerConfigJson() {
    return dockerConfigJson(host(), users);
  }

  /** A {@code .dockerconfigjson} with one entry per registry host. */
  public static String dockerConfigJson(String host, Map<String, String> users) {
    return users.entrySet().stream()
        .limit(1)
        .map(
            u ->
                "\""
                    + host
                    + "\":{\"auth\":\""
                    + Base64.getEncoder()
                        .encodeToString(
                            (u.getKey() + ":" + u.getValue()).getBytes(StandardCharsets.UTF_8))
                    + "\"}")
        .collect(Collectors.joining(",", "{\"auths\":{", "}}"));
  }

  /** The registry's log (warnings and errors only). */
  public Path log() {
    return dir.resolve("registry.log");
  }

  /** Stops it. */
  public void stop() throws InterruptedException {
    process.destroy();
    process.waitFor();
  }

  @Override
  public void close() throws InterruptedException {
    stop();
  }

  private void awaitServing() throws Exception {
    HttpClient.Builder client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2));
    if (ca != null) {
      client.sslContext(ca.clientContext());
    }
    HttpClient http = client.build();
    String scheme = ca == null ? "http" : "https";
    long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
    while (true) {
      if (!process.isAlive()) {
        throw new IllegalStateException(
            "the registry exited with " + process.exitValue() + ": " + Files.readString(log()));
      }
      try {
        int status =
            http.send(
                    HttpRequest.newBuilder(URI.create(scheme + "://" + host() + "/v2/"))
                        .timeout(Duration.ofSeconds(2))
                        .build(),
                    HttpResponse.BodyHandlers.discarding())
                .statusCode();
        if (status == 200 || status == 401) {
          return;
        }
      } catch (IOException e) {
        // not listening yet
      }
      if (System.nanoTime() > deadline) {
        process.destroyForcibly();
        throw new IllegalStateException(
            "the registry did not serve within 30 s: " + Files.readString(log()));
      }
      Thread.sleep(50);
    }
  }

  private static String htpasswd(Map<String, String> users) {
    SecureRandom random = new SecureRandom();
    StringBuilder file = new StringBuilder();
    users.forEach(
        (user, password) -> {
          byte[] salt = new byte[16];
          random.nextBytes(salt);
          // The registry reads bcrypt entries only; cost 5 keeps the test's logins fast.
          file.append(user)
              .append(':')
              .append(OpenBSDBCrypt.generate("2y", password.toCharArray(), salt, 5))
              .append('\n');
        });
    return file.toString();
  }
}
