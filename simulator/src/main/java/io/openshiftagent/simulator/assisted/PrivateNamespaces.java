package io.openshiftagent.simulator.assisted;

import io.openshiftagent.testsupport.FreePorts;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A private network and mount namespace for one process tree, so that what binds fixed ports
 * (assisted-service's controller-runtime metrics on :8080, its REST port) or reads fixed paths (the
 * ServiceAccount namespace file under /var/run/secrets) can run several times on one machine. Its
 * own loopback only: nothing leaves it but through the bridges below, which join a loopback port
 * inside to one outside through a Unix socket (socat on each side; a Unix socket is a file, seen
 * from both namespaces), so all traffic stays on this machine's loopback.
 *
 * <p>Inside, {@code /run} (and so {@code /var/run}) is a directory of the caller's; the machine's
 * stays untouched. The namespaces live as long as a holder process ({@code sleep infinity} started
 * by {@code unshare}); commands join them with {@code nsenter}.
 */
public final class PrivateNamespaces implements AutoCloseable {
  private static final Duration BRIDGE_READY = Duration.ofSeconds(20);

  private final Process holder;
  private final Path sockets;
  private final Path log;

  /** Outside ports by inside port ({@link #publish}); their outside halves by outside port. */
  private final Map<Integer, Integer> published = new ConcurrentHashMap<>();

  private final Map<Integer, Process> outsideListeners = new ConcurrentHashMap<>();
  private final List<Process> bridges = new ArrayList<>();

  private PrivateNamespaces(Process holder, Path sockets, Path log) {
    this.holder = holder;
    this.sockets = sockets;
    this.log = log;
  }

  /**
   * Creates the namespaces, with loopback up and {@code run} mounted on /run inside.
   *
   * @param log where the bridges' complaints go
   */
  static PrivateNamespaces create(Path run, Path log) throws IOException {
    return create(Map.of(Path.of("/run"), run), log);
  }

  /**
   * Creates the namespaces, with loopback up and each directory of {@code mounts}' values (made if
   * missing) mounted inside on its key (a directory made on this machine if missing: the mount
   * point). Not over the temporary directory: the bridges' sockets are there.
   *
   * @param log where the bridges' complaints go
   */
  public static PrivateNamespaces create(Map<Path, Path> mounts, Path log) throws IOException {
    List<String> command =
        new ArrayList<>(
            List.of("unshare", "--net", "--mount", "--propagation", "private", "--", "sh", "-c"));
    StringBuilder script = new StringBuilder("ip link set lo up");
    List<String> args = new ArrayList<>(List.of("sh"));
    for (Map.Entry<Path, Path> mount : mounts.entrySet()) {
      Files.createDirectories(mount.getValue());
      args.add(mount.getValue().toAbsolutePath().toString());
      args.add(mount.getKey().toString());
      int from = args.size() - 2;
      int to = args.size() - 1;
      script
          .append(" && mkdir -p \"$")
          .append(to)
          .append("\" && mount --bind \"$")
          .append(from)
          .append("\" \"$")
          .append(to)
          .append('"');
    }
    command.add(script.append(" && echo ready && exec sleep infinity").toString());
    command.addAll(args);
    Process holder =
        new ProcessBuilder(command)
            .redirectError(ProcessBuilder.Redirect.appendTo(log.toFile()))
            .start();
    try (BufferedReader out =
        new BufferedReader(
            new InputStreamReader(holder.getInputStream(), StandardCharsets.UTF_8))) {
      String line = out.readLine();
      if (!"ready".equals(line)) {
        holder.destroyForcibly();
        throw new IllegalStateException(
            "cannot create a private network and mount namespace (unshare, ip, mount; root"
                + " needed); see "
                + log);
      }
    }
    // Short: a Unix socket's path must stay under ~100 bytes.
    return new PrivateNamespaces(holder, Files.createTempDirectory("oa-ns-"), log);
  }

  /** {@code command} run inside both namespaces ({@code nsenter} execs it: same pid). */
  public List<String> inside(List<String> command) {
    List<String> wrapped =
        new ArrayList<>(
            List.of("nsenter", "--target", Long.toString(holder.pid()), "--net", "--mount", "--"));
    wrapped.addAll(command);
    return wrapped;
  }

  /** Connections to 127.0.0.1:{@code port} inside reach 127.0.0.1:{@code port} outside. */
  public synchronized void reachOutside(int port) {
    Path socket = sockets.resolve("out-" + port);
    if (Files.exists(socket)) {
      return;
    }
    bridges.add(
        socat(false, "UNIX-LISTEN:" + socket + ",fork,unlink-early", "TCP:127.0.0.1:" + port));
    awaitFile(socket);
    bridges.add(
        socat(
            true,
            "TCP-LISTEN:" + port + ",bind=127.0.0.1,fork,reuseaddr",
            "UNIX-CONNECT:" + socket));
    awaitListening(holder.pid(), port);
  }

  /**
   * Connections to the returned port on 127.0.0.1 outside reach 127.0.0.1:{@code insidePort}
   * inside. The same outside port for the same inside port, also after {@link #refuse}.
   */
  public synchronized int publish(int insidePort) {
    Integer outside = published.get(insidePort);
    if (outside != null) {
      return outside;
    }
    Path socket = sockets.resolve("in-" + insidePort);
    bridges.add(
        socat(true, "UNIX-LISTEN:" + socket + ",fork,unlink-early", "TCP:127.0.0.1:" + insidePort));
    awaitFile(socket);
    int port = FreePorts.next();
    published.put(insidePort, port);
    accept(insidePort);
    return port;
  }

  /**
   * The outside port of {@link #publish}ed {@code insidePort} refuses connections (its listener and
   * every connection through it are gone), as a service whose port is closed.
   */
  synchronized void refuse(int insidePort) throws InterruptedException {
    Process listener = outsideListeners.remove(published.get(insidePort));
    if (listener != null) {
      killGroup(listener);
    }
  }

  /** The outside port of {@code insidePort} accepts connections again. */
  synchronized void accept(int insidePort) {
    int port = published.get(insidePort);
    if (!outsideListeners.containsKey(port)) {
      Process listener =
          socat(
              false,
              "TCP-LISTEN:" + port + ",bind=127.0.0.1,fork,reuseaddr",
              "UNIX-CONNECT:" + sockets.resolve("in-" + insidePort));
      outsideListeners.put(port, listener);
      awaitListening(ProcessHandle.current().pid(), port);
    }
  }

  /**
   * One socat, in a process group of its own ({@code setsid} execs it), so that a kill also takes
   * the children it forked for connections.
   */
  private Process socat(boolean inside, String listen, String connect) {
    List<String> command = List.of("setsid", "socat", listen, connect);
    try {
      return new ProcessBuilder(inside ? inside(command) : command)
          .redirectErrorStream(true)
          .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
          .start();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot start socat (Debian package socat)", e);
    }
  }

  private void awaitFile(Path socket) {
    await(() -> Files.exists(socket), "socket " + socket);
  }

  /** Reads the listening TCP sockets of the network namespace of {@code pid} from /proc. */
  private void awaitListening(long pid, int port) {
    String local = String.format(Locale.ROOT, "0100007F:%04X", port);
    Path table = Path.of("/proc", Long.toString(pid), "net", "tcp");
    await(
        () -> {
          try (Stream<String> lines = Files.lines(table)) {
            return lines
                .map(String::trim)
                .map(l -> l.split("\\s+"))
                .anyMatch(f -> f.length > 3 && f[1].equals(local) && f[3].equals("0A"));
          }
        },
        "a listener on 127.0.0.1:" + port);
  }

  private interface Check {
    boolean done() throws IOException;
  }

  private void await(Check check, String what) {
    long deadline = System.nanoTime() + BRIDGE_READY.toNanos();
    try {
      while (!check.done()) {
        if (System.nanoTime() > deadline) {
          throw new IllegalStateException("no " + what + " after " + BRIDGE_READY + "; see " + log);
        }
        Thread.sleep(20);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted waiting for " + what, e);
    }
  }

  private static void killGroup(Process process) throws InterruptedException {
    try {
      new ProcessBuilder("kill", "-KILL", "--", "-" + process.pid()).start().waitFor();
    } catch (IOException e) {
      process.destroyForcibly();
    }
    process.waitFor(10, TimeUnit.SECONDS);
  }

  @Override
  public synchronized void close() {
    List<Process> all = new ArrayList<>(bridges);
    all.addAll(outsideListeners.values());
    outsideListeners.clear();
    bridges.clear();
    try {
      for (Process process : all) {
        killGroup(process);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    holder.destroyForcibly();
    try (Stream<Path> files = Files.walk(sockets)) {
      files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    } catch (IOException ignored) {
      // A temporary directory; nothing depends on it any more.
    }
  }
}
