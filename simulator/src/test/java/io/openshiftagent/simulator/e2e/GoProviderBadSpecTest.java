package io.openshiftagent.simulator.e2e;

import static io.openshiftagent.simulator.Fields.findCondition;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Event;
import io.openshiftagent.simulator.ApiVersions;
import io.openshiftagent.simulator.GoProviderCheckout;
import io.openshiftagent.simulator.GoProviders;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;

/**
 * The same mistakes as {@link BadSpecTest}, given to the Go provider pair: what its users see. A
 * missing pull secret is named only in its control plane's log, and nothing is made; an unknown
 * release is named by {@code KubernetesVersionAvailable} False, and its reconcile panics each time
 * it looks (its log). Neither makes a Machine. Each cluster in a namespace of its own, both in one
 * world.
 */
@GoProviderCheckout.Required
@Tag(E2eWorld.HUB_OF_ITS_OWN)
class GoProviderBadSpecTest {
  @RegisterExtension static final E2eWorld world = E2eWorld.withGoProviders();

  @Test
  @Execution(ExecutionMode.CONCURRENT)
  void aMissingPullSecretIsNamedInItsLogAloneAndNothingIsMade() {
    ClusterScenario cluster =
        BadSpecs.singleNodeCluster(world, "go-bad-pull-secret", BadSpecs.missingPullSecret());

    String error = "Secret \\\"" + BadSpecs.MISSING_PULL_SECRET + "\\\" not found";
    cluster.await(
        "the Go control plane's log to show " + error, () -> controlPlaneLog().contains(error));
    assertThat(cluster.machines()).isEmpty();
    assertThat(cluster.get(ApiVersions.HIVE_EXTENSION, "AgentClusterInstall", "test-sno")).isNull();
    assertThat(cluster.controlPlane().getAdditionalProperties().get("status").toString())
        .as("the control plane's status")
        .doesNotContain(BadSpecs.MISSING_PULL_SECRET);
    assertThat(cluster.hub().v1().events().inNamespace(cluster.namespace()).list().getItems())
        .extracting(Event::getMessage)
        .noneMatch(message -> message.contains(BadSpecs.MISSING_PULL_SECRET));
  }

  @Test
  @Execution(ExecutionMode.CONCURRENT)
  void anUnknownReleaseIsNamedByKubernetesVersionAvailableAndItsReconcilePanics() {
    ClusterScenario cluster =
        BadSpecs.singleNodeCluster(world, "go-bad-release", BadSpecs.unknownRelease());

    cluster.await(
        "KubernetesVersionAvailable False on the Go control plane",
        () ->
            findCondition(cluster.controlPlane(), "KubernetesVersionAvailable")
                .filter(c -> "False".equals(c.get("status")))
                .isPresent());
    assertThat(
            (String)
                findCondition(cluster.controlPlane(), "KubernetesVersionAvailable")
                    .orElseThrow()
                    .get("message"))
        .contains(BadSpecs.UNKNOWN_RELEASE + "-multi", "MANIFEST_UNKNOWN");
    cluster.await(
        "the Go control plane's reconcile of " + cluster.namespace() + " to panic",
        () ->
            controlPlaneLog()
                .lines()
                .anyMatch(
                    line ->
                        line.contains("Observed a panic") && line.contains(cluster.namespace())));
    assertThat(cluster.machines()).isEmpty();
  }

  private static String controlPlaneLog() {
    try {
      return Files.readString(
          world
              .world()
              .goProviders()
              .orElseThrow()
              .process(GoProviders.Manager.CONTROLPLANE)
              .log());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
