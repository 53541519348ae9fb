package io.openshiftagent.controlplane.machines;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.openshiftagent.api.controlplane.v1alpha3.LastRemediation;
import io.openshiftagent.api.external.capi.Machine;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The bookkeeping of one remediation, in KubeadmControlPlane's annotations and JSON form: on the
 * control plane while the unhealthy Machine is deleted and its replacement not yet made ({@link
 * #IN_PROGRESS}), then on the replacement ({@link #FOR}), so that a failure of the replacement
 * counts as a retry.
 *
 * @param machine the Machine remediated
 * @param time when
 * @param retryCount how many remediations in a row this one follows
 */
public record RemediationData(String machine, Instant time, int retryCount) {
  public static final String IN_PROGRESS = "controlplane.cluster.x-k8s.io/remediation-in-progress";
  public static final String FOR = "controlplane.cluster.x-k8s.io/remediation-for";

  private static final ObjectMapper JSON = new ObjectMapper();

  /** The data under {@code key} of {@code annotations}, if there and readable. */
  public static Optional<RemediationData> from(Map<String, String> annotations, String key) {
    String value = annotations == null ? null : annotations.get(key);
    if (value == null) {
      return Optional.empty();
    }
    try {
      Map<?, ?> fields = JSON.readValue(value, Map.class);
      Object machine = fields.get("machine");
      Object timestamp = fields.get("timestamp");
      Object retryCount = fields.get("retryCount");
      return Optional.of(
          new RemediationData(
              machine == null ? "" : machine.toString(),
              timestamp == null ? Instant.EPOCH : Instant.parse(timestamp.toString()),
              retryCount instanceof Number n ? n.intValue() : 0));
    } catch (JsonProcessingException | java.time.format.DateTimeParseException e) {
      // Someone else's edit: the remediation counts restart, as KubeadmControlPlane's do.
      return Optional.empty();
    }
  }

  public String toJson() {
    try {
      return JSON.writeValueAsString(
          Map.of("machine", machine, "timestamp", time.toString(), "retryCount", retryCount));
    } catch (JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
  }

  public LastRemediation toStatus() {
    return new LastRemediation(machine, time.toString(), retryCount);
  }

  /**
   * Whether the remediation recorded on the control plane is over: a Machine was made after it (its
   * replacement; the annotation outlived a crash before it was removed).
   */
  public static boolean isOver(RemediationData inProgress, List<Machine> machines) {
    return machines.stream()
        .map(m -> m.getMetadata().getCreationTimestamp())
        .filter(t -> t != null)
        .anyMatch(t -> Instant.parse(t).isAfter(inProgress.time()));
  }

  /**
   * status.lastRemediation: the remediation in progress, else the latest one recorded on a Machine,
   * else empty (the stored value is then kept).
   */
  public static Optional<RemediationData> last(
      Optional<RemediationData> inProgress, List<Machine> machines) {
    if (inProgress.isPresent()) {
      return inProgress;
    }
    return machines.stream()
        .map(m -> RemediationData.from(m.getMetadata().getAnnotations(), RemediationData.FOR))
        .flatMap(Optional::stream)
        .max(Comparator.comparing(RemediationData::time));
  }
}
