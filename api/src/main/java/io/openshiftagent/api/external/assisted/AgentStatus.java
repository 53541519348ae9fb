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

  /** The hardware the discovery agent reported; cpu, memory etc. are kept unmodelled. */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public static class Inventory extends UnknownFields {
    public String hostname;
    public List<HostInterface> interfaces;
    public List<Disk> disks;
  }

  /**
   * A disk as the inventory reports it: what a BareMetalHost's rootDeviceHints are matched against.
   * Its smart data, I/O performance and the reasons it is not eligible are kept unmodelled.
   */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public static class Disk extends UnknownFields {
    /** The installation disk id an Agent's {@code spec.installation_disk_id} names. */
    public String id;

    /** For example {@code sda} or {@code nvme0n1}. */
    public String name;

    /** For example {@code /dev/sda}. */
    public String path;

    public String byPath;
    public String hctl;
    public String model;
    public String vendor;
    public String serial;
    public String wwn;
    public Long sizeBytes;

    /** HDD, SSD, Multipath, ODD, FC, iSCSI, LVM, RAID... */
    public String driveType;

    public InstallationEligibility installationEligibility;
  }

  /** Whether assisted-service may install on a disk. */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public static class InstallationEligibility extends UnknownFields {
    public Boolean eligible;
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
