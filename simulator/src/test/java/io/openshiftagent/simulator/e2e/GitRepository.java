package io.openshiftagent.simulator.e2e;

import io.openshiftagent.testsupport.ChildProcesses;
import io.openshiftagent.testsupport.Command;
import io.openshiftagent.testsupport.FreePorts;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * A Git repository served on 127.0.0.1 by the real {@code git daemon} (read-only, the git://
 * protocol), into which the test commits as a user pushes: the source Argo CD syncs from.
 */
final class GitRepository implements AutoCloseable {
  private static final Duration START = Duration.ofSeconds(20);

  private final Path work;
  private final String url;
  private final Process daemon;

  private GitRepository(Path work, String url, Process daemon) {
    this.work = work;
    this.url = url;
    this.daemon = daemon;
  }

  /**
   * A new repository {@code name} (branch main, no commit yet) under {@code dir}, emptied first (an
   * earlier run's), served.
   */
  static GitRepository serve(Path dir, String name) throws IOException, InterruptedException {
    if (Files.exists(dir)) {
      try (Stream<Path> old = Files.walk(dir)) {
        for (Path path : old.sorted(Comparator.reverseOrder()).toList()) {
          Files.delete(path);
        }
      }
    }
    Path base = Files.createDirectories(dir).toAbsolutePath();
    Path work = base.resolve(name);
    git(base, "init", "--quiet", "--initial-branch=main", work.toString());
    git(work, "config", "user.name", "openshift-agent e2e");
    git(work, "config", "user.email", "e2e@openshift-agent.invalid");
    int port = FreePorts.next();
    Process daemon =
        new ProcessBuilder(
                "git",
                "daemon",
                "--reuseaddr",
                "--listen=127.0.0.1",
                "--port=" + port,
                "--base-path=" + base,
                "--export-all",
                "--informative-errors",
                base.toString())
            .redirectErrorStream(true)
            .redirectOutput(base.resolve("git-daemon.log").toFile())
            .start();
    GitRepository repository =
        new GitRepository(work, "git://127.0.0.1:" + port + "/" + name, daemon);
    try {
      repository.awaitListening(port);
    } catch (IOException | RuntimeException e) {
      repository.close();
      throw e;
    }
    return repository;
  }

  /** Where Argo CD reads it: {@code git://127.0.0.1:<port>/<name>}. */
  String url() {
    return url;
  }

  /** Writes each file (path relative to the repository → content) and commits; returns the SHA. */
  String commit(Map<String, String> files, String message) {
    try {
      for (Map.Entry<String, String> file : files.entrySet()) {
        Path path = work.resolve(file.getKey());
        Files.createDirectories(path.getParent());
        Files.writeString(path, file.getValue());
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    git(work, "add", "--all");
    git(work, "commit", "--quiet", "-m", message);
    return git(work, "rev-parse", "HEAD").strip();
  }

  /** The content of a file in the working tree (as last committed). */
  String read(String file) {
    try {
      return Files.readString(work.resolve(file));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private void awaitListening(int port) throws IOException, InterruptedException {
    long deadline = System.nanoTime() + START.toNanos();
    while (true) {
      if (!daemon.isAlive()) {
        throw new IOException("git daemon exited with " + daemon.exitValue());
      }
      try (Socket socket = new Socket()) {
        socket.connect(new InetSocketAddress("127.0.0.1", port), 500);
        return;
      } catch (IOException notYet) {
        if (System.nanoTime() > deadline) {
          throw new IOException("git daemon is not listening on " + port + " after " + START);
        }
        Thread.sleep(100);
      }
    }
  }

  private static String git(Path dir, String... args) {
    List<String> command = new java.util.ArrayList<>(List.of("git", "-C", dir.toString()));
    command.addAll(List.of(args));
    return Command.run(Duration.ofSeconds(30), command).ok();
  }

  @Override
  public void close() {
    ChildProcesses.stop(daemon, Duration.ofSeconds(10));
  }
}
