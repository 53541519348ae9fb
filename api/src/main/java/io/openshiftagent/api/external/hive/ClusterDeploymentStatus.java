package io.openshiftagent.api.external.hive;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.fabric8.kubernetes.api.model.Condition;
import io.openshiftagent.api.external.UnknownFields;
import java.util.List;

/** The ClusterDeployment status. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class ClusterDeploymentStatus extends UnknownFields {
  /** Hive conditions; their lastProbeTime is kept as an unknown field of the Condition. */
  public List<Condition> conditions;
}
