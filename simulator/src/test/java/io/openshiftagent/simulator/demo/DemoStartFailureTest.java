package io.openshiftagent.simulator.demo;

import static org.assertj.core.api.Assertions.assertThat;

import io.openshiftagent.simulator.ChildJvm;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A demo whose world cannot start ({@code hack/demo.sh}'s JVM, in a folder where the bootstrap
 * provider's directory is a file, so the world's start fails at its last step, once the hub, its
 * etcd, the Cluster API manager, CAPM3, the release registry, PostgreSQL and assisted-service run):
 * the JVM exits with 1, the cause is the last line it prints, and no process it started is left.
 */
class DemoStartFailureTest {
  private static final Duration BOUND = Duration.ofMinutes(5);

  @TempDir Path checkout;

  @Test
  void aWorldThatCannotStartStopsEverythingAndEndsWithItsCause() throws Exception {
    Path blocker =
        Files.createDirectories(checkout.resolve("target/demo")).resolve("bootstrap-provider");
    Files.writeString(blocker, "a file where the world makes a directory\n");
    Path output = checkout.resolve("demo-output.txt");

    long started = System.nanoTime();
    Process demo =
        ChildJvm.start(
            Demo.class,
            checkout,
            output,
            List.of("-Dlogback.configurationFile=demo/logback-demo.xml"),
            "--plain");
    Map<ProcessHandle, String> seen = new LinkedHashMap<>();
    long reported = 0;
    while (demo.isAlive() && System.nanoTime() - started < BOUND.toNanos()) {
      // The latest command a process shows: one sampled between its fork and its exec shows the
      // launcher (jspawnhelper) that becomes it.
      demo.descendants()
          .forEach(
              p ->
                  p.info()
                      .command()
                      .ifPresentOrElse(
                          command -> seen.put(p, command), () -> seen.putIfAbsent(p, "?")));
      if (reported == 0 && Files.readString(output).contains("Demo FAILED")) {
        reported = System.nanoTime();
      }
      Thread.sleep(100);
    }
    long ended = System.nanoTime();
    assertThat(demo.isAlive()).as("the demo's JVM still runs after %s", BOUND).isFalse();
    List<String> lines = Files.readAllLines(output);
    System.out.println(String.join("\n", lines));
    System.out.printf(
        "the demo's JVM ended %d ms after its start, %d ms after it reported the failure; it had"
            + " started %d processes%n",
        (ended - started) / 1_000_000,
        reported == 0 ? -1 : (ended - reported) / 1_000_000,
        seen.size());

    assertThat(demo.exitValue()).isEqualTo(1);
    assertThat(lines.get(lines.size() - 1))
        .as("the last line: the cause")
        .contains("FileAlreadyExistsException")
        .contains(blocker.toString());
    assertThat(String.join("\n", lines))
        .contains("Demo FAILED; everything it started stops as it exits");
    assertThat(seen.values())
        .as("what the world had started before it failed")
        .anyMatch(command -> command.endsWith("kube-apiserver"))
        .anyMatch(command -> command.endsWith("etcd"))
        .anyMatch(command -> command.contains("/registry-"))
        .anyMatch(command -> command.endsWith("/postgres"))
        .anyMatch(command -> command.endsWith("assisted-service"));
    List<String> left = new ArrayList<>();
    long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
    do {
      left.clear();
      seen.forEach(
          (process, command) -> {
            if (process.isAlive()) {
              left.add(process.pid() + " " + command);
            }
          });
      Thread.sleep(100);
    } while (!left.isEmpty() && System.nanoTime() < deadline);
    assertThat(left).as("processes the demo started that still run").isEmpty();
  }
}
