package io.openshiftagent.provider.runtime;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A TCP proxy to a local port that can be cut as a network partition cuts a link: from then on it
 * still accepts connections and reads what is sent, but forwards nothing either way, so that
 * requests hang until their client gives up (no connection refused, no reset).
 */
final class PartitionProxy implements AutoCloseable {
  private final ServerSocket server;
  private final int targetPort;
  private final List<Socket> sockets = new CopyOnWriteArrayList<>();
  private volatile boolean cut;

  private PartitionProxy(ServerSocket server, int targetPort) {
    this.server = server;
    this.targetPort = targetPort;
  }

  static PartitionProxy start(int targetPort) throws IOException {
    PartitionProxy proxy =
        new PartitionProxy(new ServerSocket(0, 50, InetAddress.getLoopbackAddress()), targetPort);
    daemon(proxy::acceptLoop);
    return proxy;
  }

  int port() {
    return server.getLocalPort();
  }

  void cut() {
    cut = true;
  }

  private void acceptLoop() {
    while (!server.isClosed()) {
      try {
        Socket client = server.accept();
        sockets.add(client);
        if (cut) {
          daemon(() -> pump(client, null));
          continue;
        }
        Socket upstream = new Socket(InetAddress.getLoopbackAddress(), targetPort);
        sockets.add(upstream);
        daemon(() -> pump(client, upstream));
        daemon(() -> pump(upstream, client));
      } catch (IOException closed) {
        return;
      }
    }
  }

  /** Copies {@code from} to {@code to} until the link is cut; then reads and drops. */
  private void pump(Socket from, Socket to) {
    byte[] buffer = new byte[16384];
    try (InputStream in = from.getInputStream()) {
      OutputStream out = to == null ? null : to.getOutputStream();
      int n;
      while ((n = in.read(buffer)) >= 0) {
        if (!cut && out != null) {
          out.write(buffer, 0, n);
          out.flush();
        }
      }
    } catch (IOException closed) {
      // either side went away
    }
  }

  private static void daemon(Runnable task) {
    Thread thread = new Thread(task, "partition-proxy");
    thread.setDaemon(true);
    thread.start();
  }

  @Override
  public void close() throws IOException {
    server.close();
    for (Socket socket : sockets) {
      socket.close();
    }
  }
}
