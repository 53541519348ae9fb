package io.openshiftagent.simulator.demo;

import static org.assertj.core.api.Assertions.assertThat;

import io.openshiftagent.simulator.e2e.E2eWorld;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.parallel.ResourceAccessMode;
import org.junit.jupiter.api.parallel.ResourceLock;

/**
 * The README's demo ({@code hack/demo.sh}), told on the shared world exactly as the script tells
 * it, with its output kept: every step must reach its goal, and the output must say so.
 */
@ResourceLock(value = E2eWorld.WORLD, mode = ResourceAccessMode.READ)
class DemoTest {
  @RegisterExtension static final E2eWorld world = new E2eWorld();

  @Test
  void theDemoInstallsScalesUpgradesAndDeletesItsCluster() throws Exception {
    Path workDir = Path.of("target", "world", "DemoTest").toAbsolutePath();
    Files.createDirectories(workDir);
    ByteArrayOutputStream buffer = new ByteArrayOutputStream();
    boolean ok;
    try (PrintStream out = new PrintStream(buffer, true, StandardCharsets.UTF_8)) {
      ok = Demo.play(world.world(), workDir, out, false, false);
    }
    String output = buffer.toString(StandardCharsets.UTF_8);
    System.out.println(output);

    assertThat(ok).as("every step of the demo succeeded").isTrue();
    assertThat(output)
        .contains("$ kubectl apply -n demo -f")
        .contains("Done in")
        .contains("5 Machines Running with Nodes")
        .contains("a third worker Running with its Node")
        .contains("the control plane to report OpenShift 4.20.1")
        .contains("RELEASE")
        .containsPattern("(?m)^(?!.*upgraded to).*\\S@sha256:[0-9a-f]{64}")
        .containsPattern("upgraded to \\S+@sha256:[0-9a-f]{64}")
        .contains("every host free again")
        .contains("MACHINE")
        .doesNotContain("Gave up");
  }
}
