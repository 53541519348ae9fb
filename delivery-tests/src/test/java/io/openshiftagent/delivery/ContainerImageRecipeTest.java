package io.openshiftagent.delivery;

import static org.assertj.core.api.Assertions.assertThat;

import io.openshiftagent.testsupport.Command;
import io.openshiftagent.testsupport.ProviderJar;
import io.openshiftagent.testsupport.TestPaths;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Each provider's Dockerfile, checked as text (no container engine here): a pinned base, the jar
 * Maven builds, a non-root numeric user, and JVM options that the real JVM accepts.
 */
class ContainerImageRecipeTest {

  @ParameterizedTest
  @ValueSource(strings = {"bootstrap-provider", "controlplane-provider"})
  void dockerfileCopiesTheBuiltJarAndRunsItAsANonRootUser(String module) throws IOException {
    Path context = TestPaths.repoRoot().resolve(module);
    List<String> instructions = instructions(context.resolve("Dockerfile"));

    String from = only(instructions, "FROM");
    assertThat(from)
        .as("base image pinned to a tag")
        .matches("\\S+:[0-9][\\w.-]*")
        .doesNotEndWith(":latest");

    Matcher copy = Pattern.compile("(?:--\\S+ )*(\\S+) (\\S+)").matcher(only(instructions, "COPY"));
    assertThat(copy.matches()).isTrue();
    assertThat(context.resolve(copy.group(1)))
        .as("the jar the Dockerfile copies exists after mvn package")
        .isEqualTo(context.resolve("target/" + module + ".jar"))
        .isRegularFile();

    String user = last(instructions, "USER");
    assertThat(user).as("numeric non-root USER").matches("[1-9][0-9]*(:[0-9]+)?");
    assertThat(instructions.lastIndexOf("USER " + user))
        .as("USER comes after the COPY")
        .isGreaterThan(instructions.indexOf("COPY " + copy.group(0)));
    assertThat(only(instructions, "ENTRYPOINT"))
        .isEqualTo("[\"java\", \"-jar\", \"" + copy.group(2) + "\"]");
    assertThat(only(instructions, "ENV"))
        .as("one ENV, JAVA_TOOL_OPTIONS")
        .startsWith("JAVA_TOOL_OPTIONS=");
    assertThat(jar(module).imageJavaToolOptions())
        .contains("-XX:MaxRAMPercentage=")
        .contains("-Djava.io.tmpdir=/tmp")
        .contains("-XX:-UsePerfData");
    assertThat(instructions).noneMatch(i -> i.startsWith("VOLUME") || i.startsWith("RUN"));
  }

  @ParameterizedTest
  @ValueSource(strings = {"bootstrap-provider", "controlplane-provider"})
  void theJvmAcceptsTheImagesJavaToolOptions(String module) throws IOException {
    Path context = TestPaths.repoRoot().resolve(module);
    String options = jar(module).imageJavaToolOptions();
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.addAll(List.of(options.split(" ")));
    command.addAll(
        List.of("-jar", context.resolve("target/" + module + ".jar").toString(), "--help"));
    Command.Result help = Command.run(Duration.ofSeconds(30), command).succeeded();
    assertThat(help.stdout()).startsWith("Usage: " + module);
  }

  private static ProviderJar jar(String module) {
    return java.util.Arrays.stream(ProviderJar.values())
        .filter(j -> j.command.equals(module))
        .findFirst()
        .orElseThrow();
  }

  /** The Dockerfile's instructions, continuation lines joined, comments dropped. */
  private static List<String> instructions(Path dockerfile) throws IOException {
    List<String> instructions = new ArrayList<>();
    StringBuilder current = new StringBuilder();
    for (String line : Files.readAllLines(dockerfile)) {
      String trimmed = line.strip();
      if (trimmed.startsWith("#") || trimmed.isEmpty()) {
        continue;
      }
      if (trimmed.endsWith("\\")) {
        current.append(trimmed, 0, trimmed.length() - 1).append(' ');
        continue;
      }
      instructions.add(current.append(trimmed).toString().replaceAll("\\s+", " "));
      current.setLength(0);
    }
    return instructions;
  }

  private static String only(List<String> instructions, String keyword) {
    List<String> found = instructions.stream().filter(i -> i.startsWith(keyword + " ")).toList();
    assertThat(found).as("%s instructions", keyword).hasSize(1);
    return found.get(0).substring(keyword.length() + 1);
  }

  private static String last(List<String> instructions, String keyword) {
    List<String> found = instructions.stream().filter(i -> i.startsWith(keyword + " ")).toList();
    assertThat(found).as("%s instructions", keyword).isNotEmpty();
    return found.get(found.size() - 1).substring(keyword.length() + 1);
  }
}
