package io.openshiftagent.delivery;

import static org.assertj.core.api.Assertions.assertThat;

import io.openshiftagent.testsupport.Command;
import io.openshiftagent.testsupport.TestPaths;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code hack/build-go-provider.sh} refuses what is not a checkout of the Go provider's repository
 * with one line that says so, and exit code 2, before it builds anything. (Building it needs a
 * checkout, which CI has not: docs/from-the-go-provider.md says how to run that.)
 */
class GoProviderBuildScriptTest {
  private static final String MODULE =
      "github.com/openshift-assisted/cluster-api-provider-openshift-assisted";

  @TempDir Path cache;

  @Test
  void aMissingPathIsRefused() {
    Command.Result result = build(cache.resolve("no-such-checkout"));

    assertThat(result.exitCode()).isEqualTo(2);
    assertThat(result.stderr().lines())
        .containsExactly(
            "build-go-provider: "
                + cache.resolve("no-such-checkout")
                + " does not exist (get it with: git clone https://"
                + MODULE
                + ")");
  }

  @Test
  void aDirectoryOfAnotherModuleIsRefused(@TempDir Path other) throws Exception {
    Files.writeString(other.resolve("go.mod"), "module example.com/other\n\ngo 1.26\n");

    Command.Result result = build(other);

    assertThat(result.exitCode()).isEqualTo(2);
    assertThat(result.stderr().lines())
        .containsExactly(
            "build-go-provider: "
                + other
                + " is not a checkout of "
                + MODULE
                + " (its go.mod names module example.com/other)");
  }

  @Test
  void aDirectoryWithoutGoModIsRefused() {
    Path repo = TestPaths.repoRoot();

    Command.Result result = build(repo);

    assertThat(result.exitCode()).isEqualTo(2);
    assertThat(result.stderr().lines())
        .containsExactly(
            "build-go-provider: "
                + repo
                + " is not a checkout of "
                + MODULE
                + " (it has no go.mod)");
  }

  @Test
  void noCheckoutIsAUsageError() {
    Command.Result result =
        Command.of(TestPaths.repoRoot().resolve("hack/build-go-provider.sh"))
            .env("OPENSHIFT_AGENT_CACHE", cache.toString())
            .run();

    assertThat(result.exitCode()).isEqualTo(2);
    assertThat(result.stderr().lines())
        .containsExactly(
            "build-go-provider: usage: hack/build-go-provider.sh <checkout of " + MODULE + ">");
  }

  /** The script against an empty cache of its own: a refusal builds nothing there. */
  private Command.Result build(Path checkout) {
    Command.Result result =
        Command.of(TestPaths.repoRoot().resolve("hack/build-go-provider.sh"), checkout)
            .env("OPENSHIFT_AGENT_CACHE", cache.toString())
            .run();
    assertThat(cache.resolve("go-provider")).as("what a refusal built").doesNotExist();
    return result;
  }
}
