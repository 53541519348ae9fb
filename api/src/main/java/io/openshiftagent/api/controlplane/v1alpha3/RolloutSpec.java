package io.openshiftagent.api.controlplane.v1alpha3;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.crdv2.generator.v1.SchemaCustomizer;
import io.fabric8.generator.annotation.Max;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.ValidationRule;
import io.openshiftagent.api.common.StringFormats;

/**
 * How control-plane Machines that no longer match the spec are replaced: Cluster API's
 * KubeadmControlPlane rollout settings, plus the OnDelete strategy this provider has always had.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
@SchemaCustomizer(value = StringFormats.class, input = "after=date-time")
public class RolloutSpec {
  @JsonPropertyDescription(
      "Once this time (RFC 3339) has passed, Machines created before it are out of date and rolled"
          + " out, even if the spec did not change.")
  public String after;

  @JsonPropertyDescription("How out-of-date Machines are replaced.")
  public Strategy strategy;

  /** Which rollout, and its parameters. */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  @JsonIgnoreProperties(ignoreUnknown = true)
  @ValidationRule(
      value = "self.type == 'RollingUpdate' || !has(self.rollingUpdate)",
      message = "spec.rollout.strategy.rollingUpdate is allowed only with type RollingUpdate")
  public static class Strategy {
    @JsonPropertyDescription(
        "OnDelete: out-of-date Machines are reported, and each one the user deletes is replaced from the"
            + " current spec. RollingUpdate: the provider replaces them one at a time, checking etcd first.")
    @Required
    public StrategyType type;

    @JsonPropertyDescription("Parameters of the RollingUpdate strategy.")
    public RollingUpdate rollingUpdate;

    /** maxSurge, 1 when unset (as Cluster API's KubeadmControlPlane defaults it). */
    public int effectiveMaxSurge() {
      return rollingUpdate == null || rollingUpdate.maxSurge == null ? 1 : rollingUpdate.maxSurge;
    }
  }

  /** The rollout strategies. */
  public enum StrategyType {
    OnDelete,
    RollingUpdate
  }

  /** Parameters of a rolling update. */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  @JsonIgnoreProperties(ignoreUnknown = true)
  public static class RollingUpdate {
    @JsonPropertyDescription(
        "1 (default): a replacement is added before an old Machine is deleted, which needs a spare"
            + " host. 0: the old Machine is deleted first (no spare host, but one etcd member fewer"
            + " until the replacement joins).")
    @Min(0)
    @Max(1)
    public Integer maxSurge;
  }

  /** The strategy type, OnDelete when unset. */
  public StrategyType effectiveType() {
    return strategy == null || strategy.type == null ? StrategyType.OnDelete : strategy.type;
  }
}
