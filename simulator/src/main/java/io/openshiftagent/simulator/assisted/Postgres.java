package io.openshiftagent.simulator.assisted;

import io.openshiftagent.testsupport.FreePorts;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A real PostgreSQL server, Debian's package ({@code hack/build-assisted-service.sh} installs it),
 * for one world's assisted-service: listening on 127.0.0.1 at a free port and on a Unix socket (the
 * service reaches it there from its private network namespace). Trust authentication, loopback
 * only. {@link #stop} and {@link #start} again keep the data, for fault tests; {@link #close} stops
 * it for good and removes its data.
 *
 * <p>PostgreSQL refuses to run as root: as root, every command runs as the package's {@code
 * postgres} user. That user cannot reach into a checkout in a private folder (a home directory is
 * 0700), so the server's data, its socket and the directory its commands run in are a directory of
 * its own under the system's temporary directory, owned by the user it runs as; the logs stay in
 * the world's directory (the JVM writes them).
 */
public final class Postgres implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(Postgres.class);
  private static final Path DEBIAN_INSTALLS = Path.of("/usr/lib/postgresql");
  private static final Duration START = Duration.ofSeconds(60);
  static final String USER = "postgres";
  static final String DATABASE = "installer";

  private final Path bin;
  private final Path home;
  private final Path data;
  private final Path log;
  private final int port;
  private Process process;

  private Postgres(Path bin, Path home, Path log, int port) {
    this.bin = bin;
    this.home = home;
    this.data = home.resolve("data");
    this.log = log;
    this.port = port;
  }

  /**
   * Creates a database cluster, starts the server and creates the service's database; returns once
   * it accepts connections. Its logs go to {@code dir}; its data and socket to {@link #home()}.
   */
  public static Postgres start(Path dir) throws IOException, InterruptedException {
    long started = System.nanoTime();
    Path bin = binaries();
    Files.createDirectories(dir);
    // Reachable by the server's user from any checkout; short, as a socket path must stay under
    // ~100 bytes.
    Path home = Files.createTempDirectory("oa-pg-");
    Postgres postgres = new Postgres(bin, home, dir.resolve("postgres.log"), FreePorts.next());
    try {
      postgres.ownedByServerUser();
      postgres.run(
          List.of(
              bin.resolve("initdb").toString(),
              "--pgdata=" + postgres.data,
              "--username=" + USER,
              "--auth=trust",
              "--encoding=UTF8",
              "--no-sync"),
          dir.resolve("initdb.log"));
      postgres.start();
      postgres.run(
          List.of(
              bin.resolve("createdb").toString(),
              "--host=127.0.0.1",
              "--port=" + postgres.port,
              "--username=" + USER,
              DATABASE),
          dir.resolve("createdb.log"));
    } catch (IOException | InterruptedException | RuntimeException e) {
      postgres.close();
      throw e;
    }
    LOG.info(
        "PostgreSQL ({}) ready on 127.0.0.1:{} in {} ms (data {}, log {})",
        bin.getParent().getFileName(),
        postgres.port,
        (System.nanoTime() - started) / 1_000_000,
        postgres.data,
        postgres.log);
    return postgres;
  }

  /** The newest PostgreSQL under /usr/lib/postgresql/&lt;major&gt;/bin. */
  static Path binaries() {
    try (Stream<Path> majors =
        Files.isDirectory(DEBIAN_INSTALLS) ? Files.list(DEBIAN_INSTALLS) : Stream.empty()) {
      return majors
          .map(major -> major.resolve("bin"))
          .filter(b -> Files.isExecutable(b.resolve("postgres")))
          .max(
              Comparator.comparingInt(
                  b -> Integer.parseInt(b.getParent().getFileName().toString())))
          .orElseThrow(
              () ->
                  new IllegalStateException(
                      "PostgreSQL is not installed: run hack/build-assisted-service.sh (or"
                          + " hack/test.sh), which installs Debian's postgresql package"));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Starts the server (again) on the same port and data; returns once it accepts connections. */
  public synchronized void start() throws IOException, InterruptedException {
    if (process != null && process.isAlive()) {
      return;
    }
    process =
        new ProcessBuilder(
                asServerUser(
                    List.of(
                        bin.resolve("postgres").toString(),
                        "-D",
                        data.toString(),
                        "-p",
                        Integer.toString(port),
                        "-c",
                        "listen_addresses=127.0.0.1",
                        "-c",
                        "unix_socket_directories=" + home,
                        // Durability against a machine crash is not what a test checks; a killed
                        // process loses nothing written (the data is in the OS's page cache).
                        "-c",
                        "fsync=off",
                        "-c",
                        "max_connections=200")))
            .directory(home.toFile())
            .redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
            .start();
    awaitReady();
  }

  private void awaitReady() throws IOException, InterruptedException {
    long deadline = System.nanoTime() + START.toNanos();
    while (System.nanoTime() < deadline) {
      if (!process.isAlive()) {
        throw new IllegalStateException(
            "PostgreSQL exited with " + process.exitValue() + "; see " + log);
      }
      Process ready =
          new ProcessBuilder(
                  bin.resolve("pg_isready").toString(),
                  "--host=127.0.0.1",
                  "--port=" + port,
                  "--username=" + USER,
                  "--quiet")
              .redirectErrorStream(true)
              .redirectOutput(ProcessBuilder.Redirect.DISCARD)
              .start();
      if (ready.waitFor() == 0) {
        return;
      }
      Thread.sleep(100);
    }
    throw new IllegalStateException("PostgreSQL is not ready after " + START + "; see " + log);
  }

  /**
   * A fast shutdown (SIGINT: clients are disconnected, what they committed is kept), as when the
   * database's pod is stopped. {@link #start} brings it back with its data.
   */
  public synchronized void stop() throws InterruptedException {
    if (process == null || !process.isAlive()) {
      return;
    }
    try {
      new ProcessBuilder("kill", "-INT", Long.toString(process.pid())).start().waitFor();
    } catch (IOException e) {
      process.destroy();
    }
    if (!process.waitFor(20, TimeUnit.SECONDS)) {
      process.destroyForcibly().waitFor();
    }
  }

  public boolean isRunning() {
    return process != null && process.isAlive();
  }

  public int port() {
    return port;
  }

  /**
   * The service's sessions that wait on a lock, sit in an open transaction or have run one
   * statement for over 10 s, with the sessions blocking them: what a stuck service waits on.
   */
  public List<String> stuckSessions() throws IOException, InterruptedException {
    return query(
        "SELECT pid, state, wait_event_type, wait_event,"
            + " date_trunc('second', now() - xact_start) AS in_transaction,"
            + " pg_blocking_pids(pid) AS blocked_by, left(query, 200)"
            + " FROM pg_stat_activity WHERE datname = '"
            + DATABASE
            + "' AND pid <> pg_backend_pid() AND (wait_event_type = 'Lock'"
            + " OR state LIKE 'idle in transaction%'"
            + " OR (state = 'active' AND now() - query_start > interval '10 s'))");
  }

  /**
   * The rows {@code sql} returns from the service's database, one line each, columns separated by
   * {@code |}: what the service itself recorded.
   */
  public List<String> query(String sql) throws IOException, InterruptedException {
    Process psql =
        psql("--no-align", "--tuples-only", "--command", sql).redirectErrorStream(true).start();
    List<String> lines;
    try (BufferedReader out = psql.inputReader(StandardCharsets.UTF_8)) {
      lines = out.lines().toList();
    }
    if (!psql.waitFor(20, TimeUnit.SECONDS)) {
      psql.destroyForcibly();
    }
    return lines;
  }

  /** psql on the service's database, as the server's user, in its directory. */
  ProcessBuilder psql(String... arguments) {
    List<String> command =
        new ArrayList<>(
            List.of(
                bin.resolve("psql").toString(),
                "--host=127.0.0.1",
                "--port=" + port,
                "--username=" + USER,
                "--dbname=" + DATABASE));
    command.addAll(List.of(arguments));
    return new ProcessBuilder(asServerUser(command)).directory(home.toFile());
  }

  /** The directory of the server's Unix socket ({@code .s.PGSQL.<port>}). */
  public Path socketDirectory() {
    return home;
  }

  /**
   * The server's own directory, outside the world's: its data ({@code data/}) and socket, owned by
   * the user it runs as; removed by {@link #close}.
   */
  public Path home() {
    return home;
  }

  public Path log() {
    return log;
  }

  private void ownedByServerUser() throws IOException, InterruptedException {
    if (isRoot()) {
      exec(List.of("chown", USER + ":" + USER, home.toString()), null, home);
    }
  }

  /** Runs a command as the server's user, in its directory (the JVM's may be out of its reach). */
  private void run(List<String> command, Path output) throws IOException, InterruptedException {
    exec(asServerUser(command), output, home);
  }

  private static void exec(List<String> command, Path output, Path directory)
      throws IOException, InterruptedException {
    ProcessBuilder builder =
        new ProcessBuilder(command).directory(directory.toFile()).redirectErrorStream(true);
    builder.redirectOutput(
        output == null
            ? ProcessBuilder.Redirect.DISCARD
            : ProcessBuilder.Redirect.appendTo(output.toFile()));
    int exit = builder.start().waitFor();
    if (exit != 0) {
      throw new IllegalStateException(
          String.join(" ", command)
              + " exited with "
              + exit
              + (output == null ? "" : ":\n" + Files.readString(output)));
    }
  }

  /** As root, the command runs as the postgres user (setpriv execs it: the pid is the server's). */
  private static List<String> asServerUser(List<String> command) {
    if (!isRoot()) {
      return command;
    }
    List<String> wrapped =
        new ArrayList<>(
            List.of("setpriv", "--reuid=" + USER, "--regid=" + USER, "--init-groups", "--"));
    wrapped.addAll(command);
    return wrapped;
  }

  private static boolean isRoot() {
    return "root".equals(System.getProperty("user.name"));
  }

  @Override
  public synchronized void close() {
    try {
      stop();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      process.destroyForcibly();
    }
    try (Stream<Path> files = Files.walk(home)) {
      files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    } catch (IOException e) {
      LOG.warn("could not remove PostgreSQL's directory {}: {}", home, e.toString());
    }
  }
}
