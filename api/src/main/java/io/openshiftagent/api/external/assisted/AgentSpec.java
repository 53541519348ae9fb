package io.openshiftagent.api.external.assisted;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import io.openshiftagent.api.external.UnknownFields;
import java.util.Map;

/** The Agent spec: approval, role, binding and what the installer writes to the host. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class AgentSpec extends UnknownFields {
  /** master, worker, arbiter, bootstrap or auto-assign (required by the CRD). */
  public String role;

  /** True allows the host to be installed (required by the CRD). */
  public Boolean approved;

  public String hostname;

  /**
   * JSON array of extra coreos-installer arguments, for example {@code ["--append-karg","foo"]}.
   */
  public String installerArgs;

  /** JSON ignition merged into the host's pointer ignition. */
  public String ignitionConfigOverrides;

  /** Labels the installed Node gets. */
  public Map<String, String> nodeLabels;

  /** The ClusterDeployment the Agent is bound to. */
  public ClusterReference clusterDeploymentName;

  /** The inventory disk id of the installation disk. */
  @JsonProperty("installation_disk_id")
  public String installationDiskID;
}
