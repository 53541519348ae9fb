package io.openshiftagent.controlplane.upgrade;

import static org.assertj.core.api.Assertions.assertThat;

import io.openshiftagent.controlplane.release.OpenShiftVersion;
import io.openshiftagent.controlplane.release.ReleaseImageResolution;
import io.openshiftagent.controlplane.upgrade.UpgradeDecision.ClusterVersionView;
import java.time.Duration;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * What is done about the installed cluster's ClusterVersion, for each state of it and of the
 * release image: the desiredUpdate requested (or none) and the UpgradeCompleted condition.
 */
class UpgradeDecisionTest {
  private static final String IMAGE =
      "quay.io/openshift-release-dev/ocp-release@sha256:"
          + "4e6b5a0f1e3d2c1b0a9f8e7d6c5b4a39281706f5e4d3c2b1a09f8e7d6c5b4a39";

  private static final ReleaseImageResolution.Outcome RESOLVED =
      new ReleaseImageResolution.Use(IMAGE, null, "Resolved", "", false);

  private static final ReleaseImageResolution.Outcome UNRESOLVED =
      new ReleaseImageResolution.Wait(
          "RegistryUnreachable",
          "cannot resolve quay.io/openshift-release-dev/ocp-release:4.20.1-x86_64 to a digest",
          Duration.ofSeconds(10),
          true);

  static Stream<Arguments> rows() {
    return Stream.of(
        // description, desired, the ClusterVersion, release, published,
        // desiredUpdate requested (null: none), status, reason, message
        Arguments.of(
            "running the desired version is completed",
            "4.20.0",
            view("4.20.0", null, null, false, false),
            RESOLVED,
            true,
            null,
            "True",
            "UpgradeCompleted",
            "the cluster runs 4.20.0"),
        Arguments.of(
            "a published release is requested by version and digest, without force",
            "4.20.1",
            view("4.20.0", null, null, false, false),
            RESOLVED,
            true,
            Map.of("version", "4.20.1", "image", IMAGE),
            "False",
            "UpgradeRequested",
            "requested the upgrade from 4.20.0 to 4.20.1 (" + IMAGE + ")"),
        Arguments.of(
            "other releases are forced",
            "4.20.1",
            view("4.20.0", null, null, false, false),
            RESOLVED,
            false,
            Map.of("version", "4.20.1", "image", IMAGE, "force", true),
            "False",
            "UpgradeRequested",
            "requested the upgrade from 4.20.0 to 4.20.1 (" + IMAGE + ")"),
        Arguments.of(
            // As an earlier provider (or the Go provider) wrote it: a disconnected cluster has no
            // graph.
            "a request by version alone is made again with the digest",
            "4.20.1",
            view("4.20.0", "4.20.1", null, false, false),
            RESOLVED,
            true,
            Map.of("version", "4.20.1", "image", IMAGE),
            "False",
            "UpgradeRequested",
            "requested the upgrade from 4.20.0 to 4.20.1 (" + IMAGE + ")"),
        Arguments.of(
            "an unresolved release requests nothing and says why",
            "4.20.1",
            view("4.20.0", null, null, false, false),
            UNRESOLVED,
            true,
            null,
            "False",
            "RegistryUnreachable",
            "cannot request the upgrade from 4.20.0 to 4.20.1: cannot resolve"
                + " quay.io/openshift-release-dev/ocp-release:4.20.1-x86_64 to a digest"),
        Arguments.of(
            "a requested upgrade reports its progress",
            "4.20.1",
            view("4.20.0", "4.20.1", IMAGE, true, false),
            RESOLVED,
            true,
            null,
            "False",
            "UpgradeInProgress",
            "upgrading from 4.20.0 to 4.20.1: Working towards 4.20.1: 10 of 800 done"),
        Arguments.of(
            "then its failure",
            "4.20.1",
            view("4.20.0", "4.20.1", IMAGE, true, true),
            RESOLVED,
            true,
            null,
            "False",
            "UpgradeFailed",
            "the upgrade from 4.20.0 to 4.20.1 is failing: Cluster operator etcd is degraded"
                + " (see the ClusterVersion of the workload cluster)"),
        Arguments.of(
            "downgrades are refused",
            "4.19.9",
            view("4.20.0", null, null, false, false),
            RESOLVED,
            true,
            null,
            "False",
            "DowngradeNotSupported",
            "the cluster runs 4.20.0 and spec.distributionVersion asks for the older 4.19.9:"
                + " OpenShift does not support downgrades; set spec.distributionVersion back to"
                + " 4.20.0 or later"),
        Arguments.of(
            "an unknown running version waits",
            "4.20.0",
            view(null, null, null, true, false),
            RESOLVED,
            true,
            null,
            "Unknown",
            "WaitingForWorkloadCluster",
            "the ClusterVersion has no completed release in its history yet"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("rows")
  void decides(
      String description,
      String desired,
      ClusterVersionView cv,
      ReleaseImageResolution.Outcome release,
      boolean published,
      Map<String, Object> desiredUpdate,
      String status,
      String reason,
      String message) {
    UpgradeDecision.Outcome outcome =
        UpgradeDecision.decide(OpenShiftVersion.parse(desired), cv, release, published);
    assertThat(outcome.desiredUpdate()).isEqualTo(desiredUpdate);
    assertThat(outcome.status()).isEqualTo(status);
    assertThat(outcome.reason()).isEqualTo(reason);
    assertThat(outcome.message()).isEqualTo(message);
  }

  private static ClusterVersionView view(
      String running,
      String desiredVersion,
      String desiredImage,
      boolean progressing,
      boolean failing) {
    return new ClusterVersionView(
        running,
        desiredVersion,
        desiredImage,
        progressing,
        progressing ? "Working towards 4.20.1: 10 of 800 done" : null,
        failing,
        failing ? "Cluster operator etcd is degraded" : null);
  }
}
