package io.openshiftagent.api.common;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import io.fabric8.generator.annotation.Min;
import java.util.Objects;

/**
 * Cluster API's MachineDeletionSpec: how long the Machine controller waits while deleting a
 * Machine.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public class MachineDeletionSpec {
  @Min(0)
  public Integer nodeDrainTimeoutSeconds;

  @Min(0)
  public Integer nodeVolumeDetachTimeoutSeconds;

  @Min(0)
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
