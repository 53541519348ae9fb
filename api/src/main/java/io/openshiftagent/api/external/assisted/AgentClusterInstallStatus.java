package io.openshiftagent.api.external.assisted;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.fabric8.kubernetes.api.model.Condition;
import io.openshiftagent.api.external.UnknownFields;
import java.util.List;
import java.util.Map;

/** The AgentClusterInstall status: cluster state, conditions and overall progress. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class AgentClusterInstallStatus extends UnknownFields {
  public DebugInfo debugInfo;

  /**
   * Hive-style conditions: SpecSynced, Validated, RequirementsMet, Completed, Failed, Stopped
   * (their lastProbeTime is kept as an unknown field of the Condition).
   */
  public List<Condition> conditions;

  public Progress progress;

  /**
   * The service's cluster validations by category ({@code network}, {@code hosts-data}, ...): what
   * the control plane names when the service waits for the user.
   */
  public Map<String, List<Validation>> validationsInfo;

  /** One cluster validation: {@code success}, {@code failure}, {@code error} or {@code pending}. */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public static class Validation extends UnknownFields {
    public String id;
    public String status;
    public String message;
  }

  /** The installation's overall progress. */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public static class Progress extends UnknownFields {
    public Long totalPercentage;
  }
}
