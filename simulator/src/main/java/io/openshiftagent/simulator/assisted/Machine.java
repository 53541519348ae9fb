package io.openshiftagent.simulator.assisted;

import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;

/**
 * A simulated bare-metal machine as its discovery agent reports it: one NIC on a {@link
 * NetworkSegment}, three disks, CPUs, memory, firmware. The figures are those of a typical server
 * and meet assisted-service's default requirements for every role; the agent reports them as they
 * are, and the service's validations judge them. Of its disks (an SSD, a larger HDD and an NVMe
 * SSD, each eligible), assisted-service installs on the HDD unless told otherwise: it prefers
 * non-NVMe disks, then HDDs, then the smallest, leaving the faster ones for workloads. A machine
 * may come with {@link Fault}s, which the service's validations catch as they would on a real one.
 *
 * @param hostId the host id the agent registers with (its hardware UUID)
 * @param ipv4 its address on the segment, with prefix length (e.g. 192.168.222.10/24)
 * @param faults what is wrong with it; none for a machine as it should be
 */
public record Machine(
    UUID hostId,
    String hostname,
    String macAddress,
    String ipv4,
    String gateway,
    int cpus,
    long memoryBytes,
    Set<Fault> faults) {

  static final String NIC = "eno1";

  /**
   * What a lab may get wrong on a machine, and put right while it runs (tests inject it): its
   * inventory says so, and assisted-service's validations judge it.
   */
  public enum Fault {
    /**
     * Its data disks are missing: its only disk is a 64 GB SSD, below the 100 GB assisted-service
     * wants of a disk to install on (default_hw_requirements.json), so no disk is eligible.
     */
    SMALL_DISK,
    /** Its address comes without a gateway: its inventory has no default route. */
    NO_DEFAULT_ROUTE
  }

  public Machine {
    faults = Set.copyOf(faults);
  }

  /** 16 CPUs, 64 GiB, a 480 GB SSD, a 2.4 TB HDD, a 960 GB NVMe SSD: enough for any role. */
  public static Machine server(String name, String macAddress, String ipv4, String gateway) {
    return new Machine(
        UUID.nameUUIDFromBytes(("machine " + macAddress).getBytes(StandardCharsets.UTF_8)),
        name,
        macAddress.toLowerCase(Locale.ROOT),
        ipv4,
        gateway,
        16,
        64L << 30,
        Set.of());
  }

  /** The same machine, with {@code faults} as what is wrong with it now. */
  public Machine withFaults(Set<Fault> faults) {
    return new Machine(hostId, hostname, macAddress, ipv4, gateway, cpus, memoryBytes, faults);
  }

  /** The address without prefix length. */
  public String ip() {
    return ipv4.substring(0, ipv4.indexOf('/'));
  }

  /**
   * One of its disks; {@code fsyncMillis} is what it measures when asked for its speed (every disk
   * is below the 10 ms assisted-service wants of an installation disk).
   */
  record Disk(
      String id,
      String name,
      String driveType,
      long sizeBytes,
      String model,
      String vendor,
      String serial,
      String wwn,
      String hctl,
      String byPath,
      int fsyncMillis) {

    String path() {
      return "/dev/" + name;
    }
  }

  /** Its disks in the order the discovery agent lists them; ids, serials and WWNs are its own. */
  List<Disk> disks() {
    String hex = hostId.toString().replace("-", "");
    String ssdWwn = "0x" + hex.substring(0, 16);
    String hddWwn = "0x5000c500" + hex.substring(16, 24);
    boolean small = faults.contains(Fault.SMALL_DISK);
    Disk ssd =
        new Disk(
            "/dev/disk/by-id/wwn-" + ssdWwn,
            "sda",
            "SSD",
            small ? 64_023_257_088L : 480_000_000_000L,
            small ? "SATADOM-SL 3ME3" : "SAMSUNG MZ7LH480",
            "ATA",
            hex.substring(0, 8).toUpperCase(Locale.ROOT),
            ssdWwn,
            "0:0:0:0",
            "/dev/disk/by-path/pci-0000:00:17.0-ata-1",
            2);
    if (small) {
      return List.of(ssd);
    }
    return List.of(
        ssd,
        new Disk(
            "/dev/disk/by-id/wwn-" + hddWwn,
            "sdb",
            "HDD",
            2_400_476_553_216L,
            "ST2400MM0129",
            "SEAGATE",
            "WBN" + hex.substring(24, 29).toUpperCase(Locale.ROOT),
            hddWwn,
            "1:0:1:0",
            "/dev/disk/by-path/pci-0000:3b:00.0-scsi-0:0:1:0",
            7),
        new Disk(
            "/dev/disk/by-id/nvme-eui.01000000000000005cd2e4" + hex.substring(20, 30),
            "nvme0n1",
            "SSD",
            960_197_124_096L,
            "Dell Ent NVMe P5600 MU U.2 960GB",
            "",
            "PHAB" + hex.substring(8, 16).toUpperCase(Locale.ROOT),
            "eui.01000000000000005cd2e4" + hex.substring(20, 30),
            "",
            "/dev/disk/by-path/pci-0000:5e:00.0-nvme-1",
            1));
  }

  /** The disk of this machine named by {@code path}: its by-id link or its /dev/ path. */
  Optional<Disk> disk(String path) {
    return disks().stream().filter(d -> d.id().equals(path) || d.path().equals(path)).findFirst();
  }

  /** The inventory step's answer (models.Inventory in assisted-service's swagger.yaml). */
  Map<String, Object> inventory() {
    Map<String, Object> inventory = new LinkedHashMap<>();
    inventory.put("hostname", hostname);
    inventory.put("bmc_address", "0.0.0.0");
    inventory.put("bmc_v6address", "::/0");
    inventory.put(
        "boot",
        Map.of("current_boot_mode", "uefi", "pxe_interface", "", "device_type", "ephemeral"));
    inventory.put(
        "cpu",
        Map.of(
            "architecture",
            "x86_64",
            "count",
            cpus,
            "frequency",
            2400.0,
            "model_name",
            "Intel(R) Xeon(R) Gold 6330 CPU @ 2.00GHz",
            "flags",
            List.of("fpu", "vme", "de", "pse", "tsc", "msr", "pae", "mce", "vmx", "avx2")));
    inventory.put(
        "memory",
        Map.of(
            "physical_bytes",
            memoryBytes,
            "physical_bytes_method",
            "dmidecode",
            "usable_bytes",
            memoryBytes - (1L << 30)));
    inventory.put("disks", disks().stream().map(Machine::reported).toList());
    Map<String, Object> nic = new LinkedHashMap<>();
    nic.put("name", NIC);
    nic.put("mac_address", macAddress);
    nic.put("ipv4_addresses", List.of(ipv4));
    nic.put("ipv6_addresses", List.of());
    nic.put("flags", List.of("up", "broadcast", "multicast"));
    nic.put("has_carrier", true);
    nic.put("mtu", 1500);
    nic.put("speed_mbps", 10000);
    nic.put("type", "physical");
    nic.put("vendor", "0x8086");
    nic.put("product", "0x1572");
    nic.put("biosdevname", "em1");
    inventory.put("interfaces", List.of(nic));
    inventory.put(
        "routes",
        faults.contains(Fault.NO_DEFAULT_ROUTE)
            ? List.of()
            : List.of(
                Map.of(
                    "destination",
                    "0.0.0.0",
                    "gateway",
                    gateway,
                    "interface",
                    NIC,
                    "family",
                    2,
                    "metric",
                    100)));
    inventory.put(
        "system_vendor",
        Map.of(
            "manufacturer",
            "Dell Inc.",
            "product_name",
            "PowerEdge R650",
            "serial_number",
            hostId.toString().substring(24).toUpperCase(Locale.ROOT),
            "virtual",
            false));
    inventory.put("tpm_version", "2.0");
    return inventory;
  }

  /** A disk as the inventory step reports it (models.Disk). */
  private static Map<String, Object> reported(Disk disk) {
    Map<String, Object> reported = new LinkedHashMap<>();
    reported.put("id", disk.id());
    reported.put("by_id", disk.id());
    reported.put("by_path", disk.byPath());
    reported.put("name", disk.name());
    reported.put("path", disk.path());
    reported.put("drive_type", disk.driveType());
    reported.put("hctl", disk.hctl());
    reported.put("model", disk.model());
    reported.put("vendor", disk.vendor());
    reported.put("serial", disk.serial());
    reported.put("wwn", disk.wwn());
    reported.put("size_bytes", disk.sizeBytes());
    reported.put("bootable", disk.name().equals("sda"));
    reported.put("removable", false);
    reported.put("smart", "{\"json_format_version\":[1,0]}");
    reported.put("is_installation_media", false);
    reported.put("has_uuid", false);
    reported.put(
        "installation_eligibility", Map.of("eligible", true, "not_eligible_reasons", List.of()));
    return reported;
  }
}
