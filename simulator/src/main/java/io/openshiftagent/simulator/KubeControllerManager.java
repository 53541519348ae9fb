package io.openshiftagent.simulator;

import io.openshiftagent.testsupport.FreePorts;
import io.openshiftagent.testsupport.RestartableProcess;
import io.openshiftagent.testsupport.TestPaths;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509ExtendedTrustManager;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The hub's real kube-controller-manager ({@code hack/build-kube-binaries.sh}, the same Kubernetes
 * version as the hub), running the two controllers a hub's deletions rely on: the garbage collector
 * (an object whose owners are all gone is deleted; foreground deletion and {@code
 * blockOwnerDeletion} are honoured) and the namespace controller (a deleted namespace is emptied,
 * then removed). Its directory {@code <workDir>/kube-controller-manager/} holds the hub's
 * kubeconfig, its self-signed serving certificate and its log.
 *
 * <p>It needs nothing else: no service-account credentials (it acts with the hub's kubeconfig, each
 * controller still naming itself in its user agent, e.g. {@code .../generic-garbage-collector} in
 * the hub's audit log), no leader election (one replica). When the hub restarts it reconnects by
 * itself, as it does on a real control plane.
 */
final class KubeControllerManager extends RestartableProcess implements WorldProcess {
  private static final Logger LOG = LoggerFactory.getLogger(KubeControllerManager.class);
  static final String NAME = "kube-controller-manager";
  private static final Duration READY_TIMEOUT = Duration.ofSeconds(90);

  /** The user agent suffix of the garbage collector's requests (its controller client's name). */
  static final String GARBAGE_COLLECTOR_USER_AGENT = "/generic-garbage-collector";

  /**
   * Its own serving certificate is self-signed and made at its start; the probe is to our own child
   * process on loopback, so it does not check it. HTTP/1.1: over HTTP/2 its Go server answers the
   * JDK client's first request with GOAWAY.
   */
  private static final HttpClient HTTPS =
      HttpClient.newBuilder()
          .version(HttpClient.Version.HTTP_1_1)
          .connectTimeout(Duration.ofSeconds(2))
          .sslContext(trustingAnyCertificate())
          .build();

  private volatile boolean launched;

  private KubeControllerManager(List<String> command, Path log, int securePort) throws IOException {
    super(NAME, command, Map.of(), log, securePort);
  }

  /** Starts it against the hub and waits until it serves its health. */
  static KubeControllerManager start(String hubKubeconfigYaml, Path workDir) {
    Path binary = TestPaths.kubeBinaries().resolve(NAME);
    if (!Files.isExecutable(binary)) {
      throw new IllegalStateException(
          binary + " is missing: run hack/build-kube-binaries.sh (or hack/test.sh)");
    }
    Path dir = workDir.resolve(NAME).toAbsolutePath();
    KubeControllerManager manager;
    try {
      Files.createDirectories(dir);
      Path kubeconfig = dir.resolve("hub.kubeconfig");
      Files.writeString(kubeconfig, hubKubeconfigYaml);
      int securePort = FreePorts.next();
      manager =
          new KubeControllerManager(
              List.of(
                  binary.toString(),
                  "--kubeconfig=" + kubeconfig,
                  "--controllers=garbage-collector-controller,namespace-controller",
                  "--use-service-account-credentials=false",
                  "--leader-elect=false",
                  "--bind-address=127.0.0.1",
                  "--secure-port=" + securePort,
                  "--cert-dir=" + dir.resolve("serving-certs"),
                  // A hub's usual verbosity: the garbage collector logs each object it deletes.
                  "--v=2"),
              dir.resolve(NAME + ".log"),
              securePort);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot start " + NAME, e);
    }
    try {
      Duration ready = manager.restart();
      LOG.info(
          "{} ready in {} ms (pid {}, log {})",
          NAME,
          ready.toMillis(),
          manager.pid(),
          manager.log());
      return manager;
    } catch (IOException e) {
      manager.close();
      throw new UncheckedIOException("cannot start " + NAME, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      manager.close();
      throw new IllegalStateException("interrupted waiting for " + NAME, e);
    } catch (RuntimeException | Error e) {
      manager.close();
      throw e;
    }
  }

  /** Stops it, first logging the CPU time it used: what the hub's garbage collection cost. */
  @Override
  public void close() {
    if (launched) {
      LOG.info("{} used {} ms of CPU", NAME, cpuTime().toMillis());
    }
    super.close();
  }

  @Override
  public Duration restart() throws IOException, InterruptedException {
    startWithoutWaiting();
    return awaitReady(READY_TIMEOUT);
  }

  @Override
  public void startWithoutWaiting() throws IOException {
    launch();
    launched = true;
  }

  /**
   * The status of a probe path over HTTPS, its only scheme; it serves {@code /healthz} alone, so
   * readiness ({@code /readyz}) is asked there.
   */
  @Override
  public int status(String path) {
    String served = path.equals("/readyz") ? "/healthz" : path;
    return statusOf(HTTPS, URI.create("https://127.0.0.1:" + healthPort() + served));
  }

  private static SSLContext trustingAnyCertificate() {
    TrustManager any =
        new X509ExtendedTrustManager() {
          @Override
          public void checkClientTrusted(X509Certificate[] chain, String authType) {}

          @Override
          public void checkServerTrusted(X509Certificate[] chain, String authType) {}

          @Override
          public void checkClientTrusted(X509Certificate[] chain, String authType, Socket s) {}

          @Override
          public void checkServerTrusted(X509Certificate[] chain, String authType, Socket s) {}

          @Override
          public void checkClientTrusted(X509Certificate[] chain, String authType, SSLEngine e) {}

          @Override
          public void checkServerTrusted(X509Certificate[] chain, String authType, SSLEngine e) {}

          @Override
          public X509Certificate[] getAcceptedIssuers() {
            return new X509Certificate[0];
          }
        };
    try {
      SSLContext context = SSLContext.getInstance("TLS");
      context.init(null, new TrustManager[] {any}, null);
      return context;
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
  }
}
