package io.openshiftagent.controlplane;

import static io.openshiftagent.provider.testing.TestWorld.eventually;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Condition;
import io.javaoperatorsdk.operator.Operator;
import io.openshiftagent.api.controlplane.v1alpha3.OpenshiftAssistedControlPlane;
import io.openshiftagent.controlplane.release.ReleaseImage;
import io.openshiftagent.provider.testing.TestWorld;
import io.openshiftagent.testsupport.KubeApiServerEnvironment;
import io.openshiftagent.testsupport.ReleaseRegistry;
import io.openshiftagent.testsupport.WithKubeApiServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A control plane that awaits its infrastructure looks its release up in the background: the
 * reconcile that the provisioned infrastructure brings does not queue behind a registry.
 */
@WithKubeApiServer
class ReleaseLookupAheadTest {
  private static KubeApiServerEnvironment env;
  private static Operator operator;

  @BeforeAll
  static void start() {
    env = KubeApiServerEnvironment.shared();
    operator = Fixtures.startProvider(env);
  }

  @AfterAll
  static void stop() {
    operator.stop();
  }

  @Test
  void theMachinesAreMadeBeforeTheRegistryAnswersAndTheInstallFollowsTheAnswer() throws Exception {
    try (GatedProxy registry = GatedProxy.to(Fixtures.releases().host())) {
      TestWorld c = Fixtures.templated(env, "ahead").capi.createCluster("cp", false, true, false);
      c.createPullSecret(
          Fixtures.PULL_SECRET,
          Fixtures.releases()
              .dockerConfigJson()
              .replace(Fixtures.releases().host(), registry.host()));
      OpenshiftAssistedControlPlane cp = Fixtures.controlPlane(c.ns, "cp", 3);
      cp.getMetadata()
          .getAnnotations()
          .put(
              ReleaseImage.REPOSITORY_OVERRIDE_ANNOTATION,
              registry.host() + "/" + ReleaseRegistry.OCP_REPOSITORY);
      c.providers.createControlPlane(cp);

      // The lookup has reached the registry, which holds it unanswered (for less than the
      // provider's 10 s per answer, up to the gate's opening below). While the control plane
      // waits for its infrastructure, a release being asked for is no news of its own.
      eventually(() -> assertThat(registry.held()).isPositive());

      c.capi.setInfrastructureProvisioned();
      eventually(() -> assertThat(c.machines()).hasSize(3));
      assertThat(registry.held()).isPositive();
      Condition resolving = c.awaitCondition("cp", "ReleaseImageResolved", "Resolving");
      assertThat(resolving.getStatus()).isEqualTo("False");
      assertThat(resolving.getMessage()).contains(registry.host());
      assertThat(c.clusterInstall("cp")).isNull();

      // The answer brings the next reconcile: the release, then what names it.
      registry.open();
      c.awaitCondition("cp", "ReleaseImageResolved", "Resolved");
      eventually(() -> assertThat(c.clusterInstall("cp")).isNotNull());
      assertThat(c.clusterInstall("cp").getSpec().imageSetRef.getName()).isEqualTo(c.ns + ".cp");
      assertThat(c.controlPlane("cp").getStatus().releaseImage.image)
          .startsWith(registry.host() + "/" + ReleaseRegistry.OCP_REPOSITORY + "@sha256:");
    }
  }

  /**
   * A TCP proxy to a registry that holds every connection, unanswered, until {@link #open}; then
   * passes the bytes through both ways (TLS included: the registry's certificate names 127.0.0.1).
   */
  static final class GatedProxy implements AutoCloseable {
    private final ServerSocket server;
    private final String target;
    private final CountDownLatch gate = new CountDownLatch(1);
    private final AtomicInteger held = new AtomicInteger();
    private final List<Socket> sockets = new CopyOnWriteArrayList<>();

    private GatedProxy(String target) throws IOException {
      this.target = target;
      this.server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
      Thread acceptor = new Thread(this::accept, "gated-registry");
      acceptor.setDaemon(true);
      acceptor.start();
    }

    static GatedProxy to(String hostAndPort) throws IOException {
      return new GatedProxy(hostAndPort);
    }

    String host() {
      return "127.0.0.1:" + server.getLocalPort();
    }

    /** Connections accepted while the gate was shut. */
    int held() {
      return held.get();
    }

    void open() {
      gate.countDown();
    }

    private void accept() {
      try {
        while (true) {
          Socket client = server.accept();
          sockets.add(client);
          if (gate.getCount() > 0) {
            held.incrementAndGet();
          }
          Thread pass = new Thread(() -> pass(client), "gated-registry-connection");
          pass.setDaemon(true);
          pass.start();
        }
      } catch (IOException closed) {
        // the test is over
      }
    }

    private void pass(Socket client) {
      try {
        gate.await();
        int colon = target.lastIndexOf(':');
        Socket upstream =
            new Socket(target.substring(0, colon), Integer.parseInt(target.substring(colon + 1)));
        sockets.add(upstream);
        Thread back = new Thread(() -> copy(upstream, client), "gated-registry-back");
        back.setDaemon(true);
        back.start();
        copy(client, upstream);
      } catch (IOException | InterruptedException e) {
        // the connection or the test is over
      }
    }

    private static void copy(Socket from, Socket to) {
      try (InputStream in = from.getInputStream()) {
        OutputStream out = to.getOutputStream();
        in.transferTo(out);
        to.shutdownOutput();
      } catch (IOException closed) {
        // one side went away
      }
    }

    @Override
    public void close() throws IOException {
      server.close();
      for (Socket socket : sockets) {
        socket.close();
      }
    }
  }
}
