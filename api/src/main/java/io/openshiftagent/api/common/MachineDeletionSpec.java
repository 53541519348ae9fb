package io.openshiftagent.api.common;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Max;
import io.fabric8.generator.annotation.Min;
import java.util.Objects;

/**
 * Cluster API's MachineDeletionSpec: how long the Machine controller waits while deleting a
 * Machine.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public class MachineDeletionSpec {
  // The maximum is Cluster API's (int32), and what the providers can read: an object with a larger
  // number is skipped by the providers, and reported, until it is fixed (docs/reliability.md).
  @Min(0)
  @Max(Integer.MAX_VALUE)
  @JsonPropertyDescription(
      "How long to drain the Node before deleting the Machine; unset or 0 waits forever.")
  public Integer nodeDrainTimeoutSeconds;

  @Min(0)
  @Max(Integer.MAX_VALUE)
  @JsonPropertyDescription("How long to wait for volumes to detach; unset or 0 waits forever.")
  public Integer nodeVolumeDetachTimeoutSeconds;

  @Min(0)
  @Max(Integer.MAX_VALUE)
  @JsonPropertyDescription("How long to keep retrying the Node deletion (default 10).")
  public Integer nodeDeletionTimeoutSeconds;

  @Override
  public boolean equals(Object o) {
    return o instanceof MachineDeletionSpec other
        && Objects.equals(nodeDrainTimeoutSeconds, other.nodeDrainTimeoutSeconds)
        && Objects.equals(nodeVolumeDetachTimeoutSeconds, other.nodeVolumeDetachTimeoutSeconds)
        && Objects.equals(nodeDeletionTimeoutSeconds, other.nodeDeletionTimeoutSeconds);
  }

  @Override
  public int hashCode() {
    return Objects.hash(
        nodeDrainTimeoutSeconds, nodeVolumeDetachTimeoutSeconds, nodeDeletionTimeoutSeconds);
  }
}
