package io.openshiftagent.api.external.assisted;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.openshiftagent.api.external.UnknownFields;

/**
 * assisted-service's state of a host (Agent) or cluster (AgentClusterInstall), and where its logs
 * are.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class DebugInfo extends UnknownFields {
  /** The assisted-service state, for example known, installing, installed, error. */
  public String state;

  /** Human-readable detail of the state. */
  public String stateInfo;

  public String eventsURL;
  public String logsURL;
}
