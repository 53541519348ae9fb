package io.openshiftagent.controlplane.upgrade;

import static io.openshiftagent.controlplane.names.ControlPlaneConditions.DOWNGRADE_NOT_SUPPORTED;
import static io.openshiftagent.controlplane.names.ControlPlaneConditions.UPGRADE_COMPLETED;
import static io.openshiftagent.controlplane.names.ControlPlaneConditions.UPGRADE_FAILED;
import static io.openshiftagent.controlplane.names.ControlPlaneConditions.UPGRADE_IN_PROGRESS;
import static io.openshiftagent.controlplane.names.ControlPlaneConditions.UPGRADE_REQUESTED;
import static io.openshiftagent.controlplane.names.ControlPlaneConditions.WAITING_FOR_WORKLOAD_CLUSTER;

import io.openshiftagent.api.common.Conditions;
import io.openshiftagent.controlplane.release.OpenShiftVersion;
import io.openshiftagent.controlplane.release.ReleaseImageResolution;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * What to do about the workload cluster's ClusterVersion so that it runs {@code
 * spec.distributionVersion}, and how to report it.
 */
public final class UpgradeDecision {
  private UpgradeDecision() {}

  /** What the Cluster Version Operator reports, reduced to what the decision needs. */
  public record ClusterVersionView(
      String running,
      String desiredUpdateVersion,
      String desiredUpdateImage,
      boolean progressing,
      String progressingMessage,
      boolean failing,
      String failingMessage) {}

  /**
   * The outcome: the desiredUpdate to set (null: leave ClusterVersion alone) and the
   * UpgradeCompleted condition.
   */
  public record Outcome(
      Map<String, Object> desiredUpdate, String status, String reason, String message) {}

  /**
   * @param release the release image of {@code desired} (by digest, unless the user kept the tag),
   *     or why there is none yet
   * @param published a GA release of the default repositories (signed): asked for without {@code
   *     force}
   */
  public static Outcome decide(
      OpenShiftVersion desired,
      ClusterVersionView cv,
      ReleaseImageResolution.Outcome release,
      boolean published) {
    if (cv.running() == null) {
      return new Outcome(
          null,
          Conditions.UNKNOWN,
          WAITING_FOR_WORKLOAD_CLUSTER,
          "the ClusterVersion has no completed release in its history yet");
    }
    OpenShiftVersion running = OpenShiftVersion.parse(cv.running());
    int cmp = desired.compareTo(running);
    if (cmp < 0) {
      return new Outcome(
          null,
          Conditions.FALSE,
          DOWNGRADE_NOT_SUPPORTED,
          "the cluster runs "
              + running
              + " and spec.distributionVersion asks for the older "
              + desired
              + ": OpenShift does not support downgrades; set spec.distributionVersion back to "
              + running
              + " or later");
    }
    if (cmp == 0) {
      return new Outcome(null, Conditions.TRUE, UPGRADE_COMPLETED, "the cluster runs " + running);
    }
    if (release instanceof ReleaseImageResolution.Wait wait) {
      return new Outcome(
          null,
          Conditions.FALSE,
          wait.reason(),
          "cannot request the upgrade from " + running + " to " + desired + ": " + wait.message());
    }
    String releaseImage = ((ReleaseImageResolution.Use) release).image();
    boolean requested =
        desired.toString().equals(cv.desiredUpdateVersion())
            && releaseImage.equals(cv.desiredUpdateImage());
    if (!requested) {
      // The image by digest: the CVO pulls it through the cluster's mirrors, and needs no update
      // graph (a disconnected cluster has none); the version must match the image's, which the CVO
      // checks. Only a release that is not published (signed) needs force.
      Map<String, Object> update = new LinkedHashMap<>();
      update.put("version", desired.toString());
      update.put("image", releaseImage);
      if (!published) {
        update.put("force", true);
      }
      return new Outcome(
          update,
          Conditions.FALSE,
          UPGRADE_REQUESTED,
          "requested the upgrade from " + running + " to " + desired + " (" + releaseImage + ")");
    }
    if (cv.failing()) {
      return new Outcome(
          null,
          Conditions.FALSE,
          UPGRADE_FAILED,
          "the upgrade from "
              + running
              + " to "
              + desired
              + " is failing: "
              + Objects.requireNonNullElse(cv.failingMessage(), "")
              + " (see the ClusterVersion of the workload cluster)");
    }
    return new Outcome(
        null,
        Conditions.FALSE,
        UPGRADE_IN_PROGRESS,
        "upgrading from "
            + running
            + " to "
            + desired
            + (cv.progressing() && cv.progressingMessage() != null
                ? ": " + cv.progressingMessage()
                : ""));
  }
}
