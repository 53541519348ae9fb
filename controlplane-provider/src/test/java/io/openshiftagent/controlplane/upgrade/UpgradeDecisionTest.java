package io.openshiftagent.controlplane.upgrade;

import static org.assertj.core.api.Assertions.assertThat;

import io.openshiftagent.controlplane.release.OpenShiftVersion;
import io.openshiftagent.controlplane.upgrade.UpgradeDecision.ClusterVersionView;
import java.util.Map;
import org.junit.jupiter.api.Test;

class UpgradeDecisionTest {
  private static final String IMAGE = "quay.io/openshift-release-dev/ocp-release:4.20.1-x86_64";

  @Test
  void runningTheDesiredVersionIsCompleted() {
    var o = decide("4.20.0", view("4.20.0", null, null, false, false), true);
    assertThat(o.desiredUpdate()).isNull();
    assertThat(o.reason()).isEqualTo("UpgradeCompleted");
    assertThat(o.status()).isEqualTo("True");
  }

  @Test
  void aGaReleaseIsRequestedByVersion() {
    var o = decide("4.20.1", view("4.20.0", null, null, false, false), true);
    assertThat(o.desiredUpdate()).isEqualTo(Map.of("version", "4.20.1"));
    assertThat(o.reason()).isEqualTo("UpgradeRequested");
  }

  @Test
  void otherReleasesAreRequestedByImage() {
    var o = decide("4.20.1", view("4.20.0", null, null, false, false), false);
    assertThat(o.desiredUpdate()).isEqualTo(Map.of("image", IMAGE, "force", true));
  }

  @Test
  void aRequestedUpgradeReportsProgressThenFailure() {
    var progressing = decide("4.20.1", view("4.20.0", "4.20.1", null, true, false), true);
    assertThat(progressing.desiredUpdate()).isNull();
    assertThat(progressing.reason()).isEqualTo("UpgradeInProgress");
    assertThat(progressing.message()).contains("Working towards 4.20.1");
    var failing = decide("4.20.1", view("4.20.0", "4.20.1", null, true, true), true);
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
      String desired, ClusterVersionView cv, boolean byVersion) {
    return UpgradeDecision.decide(
        OpenShiftVersion.parse(desired), cv, IMAGE.replace("4.20.1", desired), byVersion);
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
