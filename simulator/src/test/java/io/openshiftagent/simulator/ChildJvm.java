package io.openshiftagent.simulator;

import io.openshiftagent.testsupport.TestPaths;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A {@code main} of the test classpath run in a JVM of its own, in a working directory of the
 * test's choosing, as a user runs it from their checkout (e.g. {@code hack/demo.sh}): what a JVM
 * does when it starts or ends (its working directory, shutdown hooks, exit code) cannot be seen
 * from inside the test's JVM.
 */
public final class ChildJvm {
  private ChildJvm() {}

  /**
   * Starts {@code main} with {@code args} in {@code directory}, its standard output and error into
   * {@code output}, with the JVM options {@code jvmOptions} (e.g. {@code -Dname=value}).
   */
  public static Process start(
      Class<?> main, Path directory, Path output, List<String> jvmOptions, String... args)
      throws IOException {
    // Surefire runs the tests with a manifest-only jar; this is the class path it names.
    String classPath =
        System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.addAll(List.of("-cp", classPath, "-Dopenshiftagent.repoRoot=" + TestPaths.repoRoot()));
    command.addAll(jvmOptions);
    command.add(main.getName());
    command.addAll(List.of(args));
    return new ProcessBuilder(command)
        .directory(directory.toFile())
        .redirectErrorStream(true)
        .redirectOutput(output.toFile())
        .start();
  }
}
