package io.openshiftagent.testsupport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * A real echo server behind the relay: reached, cut (refused, open connection closed), restored.
 */
class TcpRelayTest {

  @Test
  void relaysUntilCutAndAgainOnceRestoredOnTheSamePort() throws Exception {
    try (ServerSocket echo = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        TcpRelay relay = TcpRelay.to(echo.getLocalPort())) {
      Thread server = new Thread(() -> serveEcho(echo), "echo");
      server.setDaemon(true);
      server.start();

      try (Socket before = connect(relay)) {
        assertThat(roundTrip(before, "hello")).isEqualTo("hello");
        relay.cut();
        assertThat(before.getInputStream().read()).as("the open connection, closed").isEqualTo(-1);
      }
      assertThatThrownBy(() -> connect(relay)).isInstanceOf(ConnectException.class);

      relay.restore();
      try (Socket after = connect(relay)) {
        assertThat(roundTrip(after, "again")).isEqualTo("again");
      }
    }
  }

  private static Socket connect(TcpRelay relay) throws IOException {
    return new Socket(InetAddress.getLoopbackAddress(), relay.port());
  }

  private static String roundTrip(Socket socket, String line) throws IOException {
    new PrintWriter(socket.getOutputStream(), true, StandardCharsets.UTF_8).println(line);
    return new BufferedReader(
            new InputStreamReader(socket.getInputStream(), StandardCharsets.UTF_8))
        .readLine();
  }

  private static void serveEcho(ServerSocket echo) {
    while (!echo.isClosed()) {
      try {
        Socket socket = echo.accept();
        Thread copy = new Thread(() -> copy(socket), "echo-connection");
        copy.setDaemon(true);
        copy.start();
      } catch (IOException closed) {
        return;
      }
    }
  }

  private static void copy(Socket socket) {
    try (socket) {
      socket.getInputStream().transferTo(socket.getOutputStream());
    } catch (IOException closed) {
      // the client went
    }
  }
}
