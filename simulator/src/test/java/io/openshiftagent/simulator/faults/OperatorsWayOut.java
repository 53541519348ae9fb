package io.openshiftagent.simulator.faults;

import static org.assertj.core.api.Assertions.assertThat;

import io.openshiftagent.simulator.e2e.ClusterScenario;
import io.openshiftagent.simulator.e2e.E2eWorld;
import io.openshiftagent.testsupport.Command;
import io.openshiftagent.testsupport.TestPaths;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * The commands docs/operations.md gives an operator whose assisted-service is gone for good, run as
 * written there: the first {@code sh} block of its section, with the real kubectl against the
 * world's hub and the two variables the section tells the operator to set.
 */
final class OperatorsWayOut {
  static final String SECTION = "## When assisted-service is gone for good";

  private OperatorsWayOut() {}

  /** The commands of the section, as the operator copies them. */
  static String documentedCommands() throws IOException {
    List<String> lines =
        Files.readAllLines(TestPaths.repoRoot().resolve("docs").resolve("operations.md"));
    int section = lines.indexOf(SECTION);
    assertThat(section).as(SECTION + " in docs/operations.md").isNotNegative();
    int start = section + 1;
    while (!lines.get(start).equals("```sh")) {
      start++;
    }
    int end = lines.subList(start + 1, lines.size()).indexOf("```") + start + 1;
    return String.join("\n", lines.subList(start + 1, end)) + "\n";
  }

  /**
   * Runs the documented commands for the scenario's cluster (bash, stopping at the first command
   * that fails); returns what they printed.
   */
  static String follow(E2eWorld world, ClusterScenario scenario) throws IOException {
    Path kubeconfig = world.workDir().toAbsolutePath().resolve("operator.kubeconfig");
    Files.writeString(kubeconfig, world.world().hubEnvironment().kubeConfigYaml());
    Command.Result result =
        Command.of("bash", "-eu", "-o", "pipefail", "-c", documentedCommands())
            .env("NAMESPACE", scenario.namespace())
            .env("CLUSTER", scenario.clusterName())
            .env("KUBECONFIG", kubeconfig.toString())
            .env("PATH", TestPaths.kubectl().getParent() + ":" + System.getenv("PATH"))
            .timeout(Duration.ofMinutes(6))
            .run();
    return result.succeeded().stdout() + result.stderr();
  }
}
