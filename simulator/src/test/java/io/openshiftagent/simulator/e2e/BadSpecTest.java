package io.openshiftagent.simulator.e2e;

import static io.openshiftagent.simulator.Fields.findCondition;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.openshiftagent.simulator.ApiVersions;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.junit.jupiter.api.parallel.ResourceAccessMode;
import org.junit.jupiter.api.parallel.ResourceLock;

/**
 * A user's mistake in {@code sno.yaml} under our providers: the control plane names it in a
 * condition, with the field and what to do, makes no AgentClusterInstall meanwhile, and installs
 * the cluster once the mistake is put right: the Secret created, or the version lowered to a
 * published one (admitted, as no release was resolved for the version asked). The Go pair, given
 * the same, is {@link GoProviderBadSpecTest}.
 */
@ResourceLock(value = E2eWorld.WORLD, mode = ResourceAccessMode.READ)
class BadSpecTest {
  @RegisterExtension static final E2eWorld world = new E2eWorld();

  @Test
  @Execution(ExecutionMode.CONCURRENT)
  void aMissingPullSecretIsNamedAndTheClusterInstallsOnceTheSecretExists() {
    ClusterScenario cluster =
        BadSpecs.singleNodeCluster(world, "e2e-bad-pull-secret", BadSpecs.missingPullSecret());

    Map<String, Object> resolved = awaitReleaseImageResolvedFalse(cluster, "PullSecretNotFound");
    assertThat((String) resolved.get("message"))
        .contains(BadSpecs.MISSING_PULL_SECRET, "spec.config.pullSecretRef");
    assertThat(cluster.get(ApiVersions.HIVE_EXTENSION, "AgentClusterInstall", "test-sno")).isNull();
    cluster.await(
        "the Cluster's ControlPlaneAvailable to point to ReleaseImageResolved",
        () ->
            String.valueOf(condition(cluster.cluster(), "ControlPlaneAvailable").get("message"))
                .contains("ReleaseImageResolved"));

    cluster.apply(
        "/e2e/pull-secret.yaml",
        Map.of(),
        secret -> secret.getMetadata().setName(BadSpecs.MISSING_PULL_SECRET));
    cluster.awaitInstalled(1);
  }

  @Test
  @Execution(ExecutionMode.CONCURRENT)
  void anUnknownReleaseIsNamedAndTheClusterInstallsOnceTheVersionIsCorrected() {
    ClusterScenario cluster =
        BadSpecs.singleNodeCluster(world, "e2e-bad-release", BadSpecs.unknownRelease());

    Map<String, Object> resolved = awaitReleaseImageResolvedFalse(cluster, "ReleaseImageNotFound");
    assertThat((String) resolved.get("message"))
        .contains(BadSpecs.UNKNOWN_RELEASE, "manifest unknown");
    assertThat(cluster.get(ApiVersions.HIVE_EXTENSION, "AgentClusterInstall", "test-sno")).isNull();

    cluster.setDistributionVersion("4.19.0-okd-scos.ec.6");
    cluster.awaitInstalled(1);
  }

  private static Map<String, Object> awaitReleaseImageResolvedFalse(
      ClusterScenario cluster, String reason) {
    cluster.await(
        "the control plane's ReleaseImageResolved False, " + reason,
        () -> {
          Map<String, Object> resolved = condition(cluster.controlPlane(), "ReleaseImageResolved");
          return "False".equals(resolved.get("status")) && reason.equals(resolved.get("reason"));
        });
    return condition(cluster.controlPlane(), "ReleaseImageResolved");
  }

  private static Map<String, Object> condition(GenericKubernetesResource object, String type) {
    return findCondition(object, type).orElse(Map.of());
  }
}
