package io.openshiftagent.testsupport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real child process (a one-file Java program serving {@code /readyz}) started, found ready,
 * killed and started again with its log appended; one that exits first fails with its log's end.
 */
class RestartableProcessTest {
  private static final String SERVER =
      """
      import com.sun.net.httpserver.HttpServer;
      import java.net.InetSocketAddress;

      class Ready {
        public static void main(String[] args) throws Exception {
          if (args[0].equals("fail")) {
            System.out.println("no port for " + System.getenv("WHO"));
            System.exit(3);
          }
          HttpServer server =
              HttpServer.create(new InetSocketAddress("127.0.0.1", Integer.parseInt(args[0])), 0);
          server.createContext("/readyz", exchange -> {
            exchange.sendResponseHeaders(200, -1);
            exchange.close();
          });
          // Logged before it serves, so that the line is in the log once the test finds it ready.
          System.out.println("serving for " + System.getenv("WHO"));
          server.start();
        }
      }
      """;

  @TempDir Path dir;

  static final class Server extends RestartableProcess {
    Server(Path source, String arg, Path log, int port) throws IOException {
      super(
          "ready-server",
          List.of(
              Path.of(System.getProperty("java.home"), "bin", "java").toString(),
              source.toString(),
              arg),
          Map.of("WHO", "the test"),
          log,
          port);
    }
  }

  @Test
  void startsIsReadyIsKilledAndStartsAgainAppendingToItsLog() throws Exception {
    int port = FreePorts.next();
    Path log = dir.resolve("logs/server.log");
    Files.createDirectories(log.getParent());
    Files.writeString(log, "a previous run\n");
    try (Server server = new Server(source(), Integer.toString(port), log, port)) {
      server.launch();
      assertThat(server.awaitReady(Duration.ofSeconds(60))).isPositive();
      assertThat(server.status("/readyz")).isEqualTo(200);
      assertThat(server.status("/healthz")).isEqualTo(404);
      assertThatThrownBy(server::launch).hasMessageContaining("ready-server still runs");

      server.kill();
      assertThat(server.isAlive()).isFalse();
      assertThat(server.status("/readyz")).isZero();
      server.launch();
      server.awaitReady(Duration.ofSeconds(60));
      assertThat(server.isAlive()).isTrue();
    }
    assertThat(Files.readAllLines(log))
        .containsExactly("serving for the test", "serving for the test");
  }

  @Test
  void aProcessThatExitsBeforeItIsReadyFailsWithTheEndOfItsLog() throws Exception {
    Path log = dir.resolve("fail.log");
    try (Server server = new Server(source(), "fail", log, FreePorts.next())) {
      server.launch();
      assertThatThrownBy(() -> server.awaitReady(Duration.ofSeconds(60)))
          .isInstanceOf(IllegalStateException.class)
          .hasMessageContaining("ready-server exited with 3 before it was ready")
          .hasMessageContaining("--- last lines of " + log)
          .hasMessageContaining("no port for the test");
      assertThat(server.exitValue()).isEqualTo(3);
    }
  }

  @Test
  void oneThatExitsByItselfIsStartedAgainAsTheKubeletWouldButNotOneKilled() throws Exception {
    int port = FreePorts.next();
    try (Server serving =
        new Server(source(), Integer.toString(port), dir.resolve("a.log"), port)) {
      serving.restartWhenItExitsByItself();
      serving.launch();
      serving.awaitReady(Duration.ofSeconds(60));
      serving.kill();
      assertThat(serving.exitsByItself()).isEmpty();
      assertThat(serving.isAlive()).isFalse();
    }

    Path log = dir.resolve("crashing.log");
    try (Server crashing = new Server(source(), "fail", log, FreePorts.next())) {
      crashing.restartWhenItExitsByItself();
      crashing.launch();
      // The first restart comes at once, the next only after the kubelet's back-off of 10 s.
      long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
      while (crashing.exitsByItself().size() < 2 && System.nanoTime() < deadline) {
        Thread.sleep(50);
      }
      assertThat(crashing.exitsByItself()).hasSize(2);
      assertThat(Files.readAllLines(log))
          .containsExactly("no port for the test", "no port for the test");
    }
  }

  private Path source() throws IOException {
    Path source = dir.resolve("Ready.java");
    Files.writeString(source, SERVER);
    return source;
  }
}
