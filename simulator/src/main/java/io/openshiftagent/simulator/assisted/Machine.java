package io.openshiftagent.simulator.assisted;

import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;

/**
 * A simulated bare-metal machine as its discovery agent reports it: one NIC on a {@link
 * NetworkSegment}, one installation disk, CPUs, memory, firmware. The figures are those of a
 * typical server and meet assisted-service's default requirements for every role; the agent reports
 * them as they are, and the service's validations judge them.
 *
 * @param hostId the host id the agent registers with (its hardware UUID)
 * @param ipv4 its address on the segment, with prefix length (e.g. 192.168.222.10/24)
 */
public record Machine(
    UUID hostId,
    String hostname,
    String macAddress,
    String ipv4,
    String gateway,
    int cpus,
    long memoryBytes,
    long diskBytes) {

  static final String NIC = "eno1";
  static final String DISK = "sda";

  /** 16 CPUs, 64 GiB, a 480 GB SSD: enough for any role. */
  public static Machine server(String name, String macAddress, String ipv4, String gateway) {
    return new Machine(
        UUID.nameUUIDFromBytes(("machine " + macAddress).getBytes(StandardCharsets.UTF_8)),
        name,
        macAddress.toLowerCase(Locale.ROOT),
        ipv4,
        gateway,
        16,
        64L << 30,
        480_000_000_000L);
  }

  /** The address without prefix length. */
  public String ip() {
    return ipv4.substring(0, ipv4.indexOf('/'));
  }

  /** {@code /dev/disk/by-id/wwn-0x...}: unique per machine. */
  String diskById() {
    return "/dev/disk/by-id/wwn-0x" + hostId.toString().replace("-", "").substring(0, 16);
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
    Map<String, Object> disk = new LinkedHashMap<>();
    disk.put("id", diskById());
    disk.put("by_id", diskById());
    disk.put("by_path", "/dev/disk/by-path/pci-0000:00:17.0-ata-1");
    disk.put("name", DISK);
    disk.put("path", "/dev/" + DISK);
    disk.put("drive_type", "SSD");
    disk.put("hctl", "0:0:0:0");
    disk.put("model", "SAMSUNG MZ7LH480");
    disk.put("vendor", "ATA");
    disk.put("serial", hostId.toString().substring(0, 8).toUpperCase(Locale.ROOT));
    disk.put("wwn", "0x" + hostId.toString().replace("-", "").substring(0, 16));
    disk.put("size_bytes", diskBytes);
    disk.put("bootable", true);
    disk.put("removable", false);
    disk.put("smart", "{\"json_format_version\":[1,0]}");
    disk.put("is_installation_media", false);
    disk.put("has_uuid", false);
    disk.put(
        "installation_eligibility", Map.of("eligible", true, "not_eligible_reasons", List.of()));
    inventory.put("disks", List.of(disk));
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
        List.of(
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
}
