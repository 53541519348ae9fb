package io.openshiftagent.testsupport;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A class-data archive (AppCDS) of a provider jar, shared by the provider JVMs the tests start. A
 * JVM that maps it loads the jar's classes from it, and starts on less CPU: the suite starts about
 * a hundred providers. The first JVM of a test JVM that starts without one writes one when it
 * exits; a JVM that must map it checks it before it is put where the others look. Named after the
 * jar's size and time and the Java runtime, so that a rebuilt jar gets a new one. The container
 * images ship none.
 */
final class ClassDataArchive {
  private static final Logger LOG = LoggerFactory.getLogger(ClassDataArchive.class);
  private static final Map<Path, ClassDataArchive> BY_ARCHIVE = new ConcurrentHashMap<>();
  private static final AtomicInteger WRITES = new AtomicInteger();

  /**
   * The JVM's notes about the archive (a rebuilt jar, classes it cannot archive) stay out of logs.
   */
  private static final List<String> QUIET = List.of("-Xlog:cds=off", "-Xlog:cds+dynamic=off");

  private final Path jar;
  private final Path archive;
  private final AtomicBoolean writing = new AtomicBoolean();

  private ClassDataArchive(Path jar, Path archive) {
    this.jar = jar;
    this.archive = archive;
  }

  /** The archive of the jar as it is now; none when it cannot be read. */
  static ClassDataArchive of(Path jar) {
    String base = jar.getFileName().toString().replaceFirst("\\.jar$", "");
    try {
      String key =
          Files.size(jar)
              + "-"
              + Files.getLastModifiedTime(jar).toMillis()
              + "-"
              + Runtime.version().toString().replaceAll("[^0-9A-Za-z.]", "_");
      Path archive = jar.toAbsolutePath().resolveSibling(base + "-" + key + ".jsa");
      return BY_ARCHIVE.computeIfAbsent(archive, a -> new ClassDataArchive(jar, a));
    } catch (IOException e) {
      return new ClassDataArchive(jar, null);
    }
  }

  /** How the next JVM starts: the options to add, and the archive it writes at exit, if any. */
  record Start(List<String> jvmOptions, Path writes) {}

  Start next() {
    if (archive == null) {
      return new Start(List.of(), null);
    }
    if (Files.isRegularFile(archive)) {
      List<String> options = new ArrayList<>(QUIET);
      options.add("-XX:SharedArchiveFile=" + archive);
      return new Start(options, null);
    }
    if (!writing.compareAndSet(false, true)) {
      return new Start(List.of(), null);
    }
    Path written =
        archive.resolveSibling(
            archive.getFileName()
                + "."
                + ProcessHandle.current().pid()
                + "-"
                + WRITES.incrementAndGet()
                + ".tmp");
    List<String> options = new ArrayList<>(QUIET);
    options.add("-XX:ArchiveClassesAtExit=" + written);
    return new Start(options, written);
  }

  /**
   * The JVM that was to write {@code written} has exited (it writes nothing when killed): a JVM
   * that must map the archive starts {@code --help} from it, with the providers' {@code
   * environment}; only then does it become the archive.
   */
  void exited(Path written, Map<String, String> environment) {
    try {
      if (Files.isRegularFile(written) && mapsCleanly(written, environment)) {
        Files.move(written, archive, StandardCopyOption.ATOMIC_MOVE);
        LOG.info("class-data archive of {} ready: {}", jar.getFileName(), archive);
        return;
      }
      Files.deleteIfExists(written);
    } catch (IOException e) {
      LOG.warn("class-data archive {} not kept: {}", written, e.getMessage());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } finally {
      writing.set(false);
    }
  }

  private boolean mapsCleanly(Path written, Map<String, String> environment)
      throws IOException, InterruptedException {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.addAll(QUIET);
    command.addAll(List.of("-Xshare:on", "-XX:SharedArchiveFile=" + written));
    command.addAll(List.of("-jar", jar.toString(), "--help"));
    ProcessBuilder builder =
        new ProcessBuilder(command)
            .redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.DISCARD);
    builder.environment().putAll(environment);
    Process check = builder.start();
    if (!check.waitFor(60, TimeUnit.SECONDS)) {
      check.destroyForcibly();
      return false;
    }
    return check.exitValue() == 0;
  }
}
