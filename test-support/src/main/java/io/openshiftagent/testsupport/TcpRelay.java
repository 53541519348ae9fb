package io.openshiftagent.testsupport;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * A TCP relay on loopback to a server's port, which a test cuts (new connections refused, open ones
 * closed) and restores on the same port: a network fault between the clients given the relay's
 * address and that one server, while everyone else still reaches it. Bytes pass unchanged, so TLS
 * is end to end (a certificate for 127.0.0.1 holds for any port).
 */
public final class TcpRelay implements AutoCloseable {
  private static final InetAddress LOOPBACK = InetAddress.getLoopbackAddress();

  private final int targetPort;
  private final int port;
  private final Set<Socket> open = ConcurrentHashMap.newKeySet();
  private final ExecutorService threads =
      Executors.newCachedThreadPool(
          r -> {
            Thread thread = new Thread(r, "tcp-relay");
            thread.setDaemon(true);
            return thread;
          });
  private ServerSocket listener;
  private Future<?> acceptor;

  private TcpRelay(int targetPort) {
    this.targetPort = targetPort;
    this.port = FreePorts.next();
  }

  /** A relay to 127.0.0.1:{@code targetPort}, open. */
  public static TcpRelay to(int targetPort) {
    TcpRelay relay = new TcpRelay(targetPort);
    relay.restore();
    return relay;
  }

  /** The port clients connect to, on 127.0.0.1. */
  public int port() {
    return port;
  }

  /** Refuses new connections and closes the open ones. */
  public synchronized void cut() {
    if (listener != null) {
      closeQuietly(listener);
      listener = null;
      // A thread blocked in accept() keeps the socket listening until the call returns: without
      // this wait, a connection made just after cut() was still accepted (12 % of tries on a
      // loaded machine).
      awaitQuietly(acceptor);
    }
    open.forEach(TcpRelay::closeQuietly);
    open.clear();
  }

  /** Accepts connections again, on the same port. */
  public synchronized void restore() {
    if (listener != null) {
      return;
    }
    try {
      ServerSocket socket = new ServerSocket();
      socket.setReuseAddress(true);
      socket.bind(new InetSocketAddress(LOOPBACK, port));
      listener = socket;
      acceptor = threads.submit(() -> accept(socket));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot listen on 127.0.0.1:" + port, e);
    }
  }

  @Override
  public void close() {
    cut();
    threads.shutdownNow();
  }

  private void accept(ServerSocket socket) {
    while (!socket.isClosed()) {
      Socket client;
      try {
        client = socket.accept();
      } catch (IOException closed) {
        return;
      }
      try {
        Socket server = new Socket(LOOPBACK, targetPort);
        open.add(client);
        open.add(server);
        threads.execute(() -> pipe(client, server));
        threads.execute(() -> pipe(server, client));
      } catch (IOException serverDown) {
        closeQuietly(client);
      }
    }
  }

  /** Copies one direction until either side closes, then closes both. */
  private void pipe(Socket from, Socket to) {
    try {
      from.getInputStream().transferTo(to.getOutputStream());
    } catch (IOException closed) {
      // one side went: the other follows
    } finally {
      closeQuietly(from);
      closeQuietly(to);
      open.remove(from);
      open.remove(to);
    }
  }

  private static void awaitQuietly(Future<?> task) {
    try {
      task.get();
    } catch (ExecutionException | InterruptedException e) {
      if (e instanceof InterruptedException) {
        Thread.currentThread().interrupt();
      }
    }
  }

  private static void closeQuietly(AutoCloseable closeable) {
    try {
      closeable.close();
    } catch (Exception alreadyClosed) {
      // nothing left to release
    }
  }
}
