package io.openshiftagent.provider.runtime;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;

/**
 * A TCP proxy to a local port that can be cut as a network partition cuts a link: from then on it
 * still accepts connections and reads what is sent, but forwards nothing either way, so that
 * requests hang until their client gives up (no connection refused, no reset). It can also be
 * slowed: what the server sends then reaches the client that much later, as from a loaded server.
 */
final class PartitionProxy implements AutoCloseable {
  private final ServerSocket server;
  private final int targetPort;
  private final List<Socket> sockets = new CopyOnWriteArrayList<>();
  private volatile boolean cut;
  private volatile long responseDelayNanos;

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

  /** From now on, what the server sends is forwarded {@code delay} after it arrived, in order. */
  void delayResponses(Duration delay) {
    responseDelayNanos = delay.toNanos();
  }

  private void acceptLoop() {
    while (!server.isClosed()) {
      try {
        Socket client = server.accept();
        sockets.add(client);
        if (cut) {
          daemon(() -> pump(client, null, false));
          continue;
        }
        Socket upstream = new Socket(InetAddress.getLoopbackAddress(), targetPort);
        sockets.add(upstream);
        daemon(() -> pump(client, upstream, false));
        daemon(() -> pump(upstream, client, true));
      } catch (IOException closed) {
        return;
      }
    }
  }

  /**
   * Copies {@code from} to {@code to} until the link is cut; then reads and drops. What the server
   * sends ({@code responses}) goes through a queue that holds each chunk for the response delay.
   */
  private void pump(Socket from, Socket to, boolean responses) {
    byte[] buffer = new byte[16384];
    BlockingQueue<Chunk> delayed = new LinkedBlockingQueue<>();
    if (responses) {
      daemon(() -> forwardDelayed(delayed, to));
    }
    try (InputStream in = from.getInputStream()) {
      OutputStream out = to == null ? null : to.getOutputStream();
      int n;
      while ((n = in.read(buffer)) >= 0) {
        if (cut || out == null) {
          continue;
        }
        if (responses) {
          delayed.add(new Chunk(System.nanoTime() + responseDelayNanos, Arrays.copyOf(buffer, n)));
        } else {
          out.write(buffer, 0, n);
          out.flush();
        }
      }
    } catch (IOException closed) {
      // either side went away
    }
  }

  private record Chunk(long dueNanos, byte[] bytes) {}

  private void forwardDelayed(BlockingQueue<Chunk> chunks, Socket to) {
    try {
      OutputStream out = to.getOutputStream();
      while (true) {
        Chunk chunk = chunks.take();
        long wait = chunk.dueNanos() - System.nanoTime();
        if (wait > 0) {
          Thread.sleep(wait / 1_000_000, (int) (wait % 1_000_000));
        }
        if (!cut) {
          out.write(chunk.bytes());
          out.flush();
        }
      }
    } catch (IOException | InterruptedException closed) {
      // the client went away
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
