package io.openshiftagent.testsupport;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ClassDataArchiveTest {
  private static final String MAIN =
      """
      public class Main {
        public static void main(String[] args) {
          System.out.println(new java.util.concurrent.ConcurrentSkipListMap<String, String>());
        }
      }
      """;

  @Test
  void aJvmStartedAfterTheFirstExitedLoadsTheJarsClassesFromTheArchive(@TempDir Path dir)
      throws Exception {
    Path jar = jar(dir);
    ClassDataArchive archive = ClassDataArchive.of(jar);

    ClassDataArchive.Start first = archive.next();
    assertThat(first.writes()).as("the first start writes the archive").isNotNull();
    assertThat(archive.next().writes()).as("while it runs, no other start writes one too").isNull();
    assertThat(run(jar, first.jvmOptions())).contains("{}");
    archive.exited(first.writes(), Map.of());

    ClassDataArchive.Start next = archive.next();
    assertThat(next.writes()).isNull();
    List<String> options = new ArrayList<>(next.jvmOptions());
    options.add("-Xlog:class+load=info");
    assertThat(run(jar, options))
        .as("the jar's class, loaded from the archive")
        .containsPattern("Main source: shared objects file \\(top\\)");
  }

  @Test
  void aJvmKilledBeforeItWroteTheArchiveLeavesNoneAndTheNextStartWritesIt(@TempDir Path dir)
      throws Exception {
    Path jar = jar(dir);
    ClassDataArchive archive = ClassDataArchive.of(jar);

    ClassDataArchive.Start killed = archive.next();
    Files.writeString(killed.writes(), "half an archive");
    archive.exited(killed.writes(), Map.of());

    assertThat(killed.writes()).as("a file no JVM can map is not kept").doesNotExist();
    ClassDataArchive.Start next = archive.next();
    assertThat(next.writes()).as("the next start writes it").isNotNull();
    assertThat(next.jvmOptions()).noneMatch(o -> o.startsWith("-XX:SharedArchiveFile"));
  }

  @Test
  void aRebuiltJarGetsAnArchiveOfItsOwn(@TempDir Path dir) throws Exception {
    Path jar = jar(dir);
    ClassDataArchive.Start before = ClassDataArchive.of(jar).next();
    Files.setLastModifiedTime(
        jar, FileTime.fromMillis(Files.getLastModifiedTime(jar).toMillis() + 60_000));

    ClassDataArchive.Start after = ClassDataArchive.of(jar).next();
    assertThat(after.writes()).as("the rebuilt jar's archive is written anew").isNotNull();
    assertThat(after.writes().getFileName().toString())
        .isNotEqualTo(before.writes().getFileName().toString());
  }

  /** A runnable jar whose main class prints an empty map: loads classes of the JDK and its own. */
  private static Path jar(Path dir) throws IOException {
    Path sources = Files.createDirectories(dir.resolve("src"));
    Files.writeString(sources.resolve("Main.java"), MAIN);
    int compiled =
        ToolProvider.getSystemJavaCompiler()
            .run(
                null,
                null,
                null,
                "-d",
                sources.toString(),
                sources.resolve("Main.java").toString());
    assertThat(compiled).isZero();
    Manifest manifest = new Manifest();
    manifest.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
    manifest.getMainAttributes().put(Attributes.Name.MAIN_CLASS, "Main");
    Path jar = dir.resolve("main.jar");
    try (OutputStream file = Files.newOutputStream(jar);
        JarOutputStream out = new JarOutputStream(file, manifest)) {
      out.putNextEntry(new JarEntry("Main.class"));
      out.write(Files.readAllBytes(sources.resolve("Main.class")));
      out.closeEntry();
    }
    return jar;
  }

  private static String run(Path jar, List<String> options) throws Exception {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.addAll(options);
    command.addAll(List.of("-jar", jar.toString()));
    Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(process.waitFor()).as(output).isZero();
    return output;
  }
}
