package io.openshiftagent.api.external.assisted;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.fabric8.kubernetes.api.model.Condition;
import io.openshiftagent.api.external.UnknownFields;
import java.util.List;

/** The Agent status: inventory, state, installation progress and conditions. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class AgentStatus extends UnknownFields {
  public Inventory inventory;

  public DebugInfo debugInfo;

  public Progress progress;

  /** The effective role (auto-assign resolved). */
  public String role;

  /** Conditions: SpecSynced, Connected, RequirementsMet, Validated, Installed, Bound. */
  public List<Condition> conditions;

  /** The hardware the discovery agent reported; disks, cpu, memory etc. are kept unmodelled. */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public static class Inventory extends UnknownFields {
    public String hostname;
    public List<HostInterface> interfaces;
  }

  /** A network interface of the host. */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public static class HostInterface extends UnknownFields {
    public String name;
    public String macAddress;

    /** CIDRs such as {@code 192.168.111.20/24}. */
    public List<String> ipV4Addresses;

    public List<String> ipV6Addresses;
  }

  /** Installation progress of the host. */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public static class Progress extends UnknownFields {
    /** For example Writing image to disk, Rebooting, Joined, Done. */
    public String currentStage;
  }
}
