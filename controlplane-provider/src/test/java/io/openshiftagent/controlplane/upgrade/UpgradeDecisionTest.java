package io.openshiftagent.controlplane.upgrade;

import static org.assertj.core.api.Assertions.assertThat;

import io.openshiftagent.controlplane.release.OpenShiftVersion;
import io.openshiftagent.controlplane.release.ReleaseImageResolution;
import io.openshiftagent.controlplane.upgrade.UpgradeDecision.ClusterVersionView;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

class UpgradeDecisionTest {
  private static final String IMAGE =
      "quay.io/openshift-release-dev/ocp-release@sha256:"
          + "4e6b5a0f1e3d2c1b0a9f8e7d6c5b4a39281706f5e4d3c2b1a09f8e7d6c5b4a39";

  @Test
  void runningTheDesiredVersionIsCompleted() {
    var o = decide("4.20.0", view("4.20.0", null, null, false, false), true);
    assertThat(o.desiredUpdate()).isNull();
    assertThat(o.reason()).isEqualTo("UpgradeCompleted");
    assertThat(o.status()).isEqualTo("True");
  }

  @Test
  void aPublishedReleaseIsRequestedByVersionAndDigestWithoutForce() {
    var o = decide("4.20.1", view("4.20.0", null, null, false, false), true);
    assertThat(o.desiredUpdate()).isEqualTo(Map.of("version", "4.20.1", "image", IMAGE));
    assertThat(o.reason()).isEqualTo("UpgradeRequested");
    assertThat(o.message()).contains(IMAGE);
  }

  @Test
  void otherReleasesAreForced() {
    var o = decide("4.20.1", view("4.20.0", null, null, false, false), false);
    assertThat(o.desiredUpdate())
        .isEqualTo(Map.of("version", "4.20.1", "image", IMAGE, "force", true));
  }

  @Test
  void aRequestByVersionAloneIsMadeAgainWithTheDigest() {
    // As an earlier provider (or the Go provider) wrote it: a disconnected cluster has no graph.
    var o = decide("4.20.1", view("4.20.0", "4.20.1", null, false, false), true);
    assertThat(o.desiredUpdate()).isEqualTo(Map.of("version", "4.20.1", "image", IMAGE));
  }

  @Test
  void anUnresolvedReleaseRequestsNothingAndSaysWhy() {
    var wait =
        new ReleaseImageResolution.Wait(
            "RegistryUnreachable",
            "cannot resolve quay.io/openshift-release-dev/ocp-release:4.20.1-x86_64 to a digest",
            Duration.ofSeconds(10),
            true);
    var o =
        UpgradeDecision.decide(
            OpenShiftVersion.parse("4.20.1"), view("4.20.0", null, null, false, false), wait, true);
    assertThat(o.desiredUpdate()).isNull();
    assertThat(o.status()).isEqualTo("False");
    assertThat(o.reason()).isEqualTo("RegistryUnreachable");
    assertThat(o.message())
        .startsWith("cannot request the upgrade from 4.20.0 to 4.20.1: cannot resolve");
  }

  @Test
  void aRequestedUpgradeReportsProgressThenFailure() {
    var progressing = decide("4.20.1", view("4.20.0", "4.20.1", IMAGE, true, false), true);
    assertThat(progressing.desiredUpdate()).isNull();
    assertThat(progressing.reason()).isEqualTo("UpgradeInProgress");
    assertThat(progressing.message()).contains("Working towards 4.20.1");
    var failing = decide("4.20.1", view("4.20.0", "4.20.1", IMAGE, true, true), true);
    assertThat(failing.reason()).isEqualTo("UpgradeFailed");
    assertThat(failing.message()).contains("Cluster operator etcd is degraded");
  }

  @Test
  void downgradesAreRefused() {
    var o = decide("4.19.9", view("4.20.0", null, null, false, false), true);
    assertThat(o.desiredUpdate()).isNull();
    assertThat(o.reason()).isEqualTo("DowngradeNotSupported");
  }

  @Test
  void unknownRunningVersionWaits() {
    var o = decide("4.20.0", view(null, null, null, true, false), true);
    assertThat(o.desiredUpdate()).isNull();
    assertThat(o.status()).isEqualTo("Unknown");
  }

  private static UpgradeDecision.Outcome decide(
      String desired, ClusterVersionView cv, boolean published) {
    return UpgradeDecision.decide(
        OpenShiftVersion.parse(desired),
        cv,
        new ReleaseImageResolution.Use(IMAGE, null, "Resolved", "", false),
        published);
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
