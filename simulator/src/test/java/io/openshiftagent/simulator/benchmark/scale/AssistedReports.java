package io.openshiftagent.simulator.benchmark.scale;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.openshiftagent.simulator.Fields;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The status content assisted-service reports on its kinds, at the size it has there: an Agent's
 * inventory (the host the baremetal-operator inspected: 16 CPUs, 128 GiB, two disks, two NICs), its
 * validations and conditions; an AgentClusterInstall's validations and conditions. What our
 * providers' caches hold of them costs what the real ones cost.
 */
final class AssistedReports {
  private AssistedReports() {}

  static final List<String> HOST_VALIDATIONS =
      List.of(
          "connected",
          "media-connected",
          "has-inventory",
          "has-min-cpu-cores",
          "has-min-valid-disks",
          "has-min-memory",
          "machine-cidr-defined",
          "has-cpu-cores-for-role",
          "has-memory-for-role",
          "hostname-unique",
          "hostname-valid",
          "belongs-to-machine-cidr",
          "ignition-downloadable",
          "belongs-to-majority-group",
          "valid-platform-network-settings",
          "ntp-synced",
          "time-synced-between-host-and-service",
          "container-images-available",
          "sufficient-installation-disk-speed",
          "api-domain-name-resolved-correctly",
          "api-int-domain-name-resolved-correctly",
          "apps-domain-name-resolved-correctly",
          "dns-wildcard-not-configured",
          "non-overlapping-subnets",
          "compatible-agent",
          "no-skip-installation-disk",
          "no-skip-missing-disk",
          "lso-requirements-satisfied",
          "odf-requirements-satisfied",
          "cnv-requirements-satisfied",
          "lvm-requirements-satisfied");

  static final List<String> CLUSTER_VALIDATIONS =
      List.of(
          "machine-cidr-defined",
          "cluster-cidr-defined",
          "service-cidr-defined",
          "no-cidrs-overlapping",
          "networks-same-address-families",
          "network-prefix-valid",
          "machine-cidr-equals-to-calculated-cidr",
          "api-vips-defined",
          "api-vips-valid",
          "ingress-vips-defined",
          "ingress-vips-valid",
          "all-hosts-are-ready-to-install",
          "sufficient-masters-count",
          "dns-domain-defined",
          "pull-secret-set",
          "ntp-server-configured",
          "lso-requirements-satisfied",
          "odf-requirements-satisfied",
          "cnv-requirements-satisfied",
          "lvm-requirements-satisfied",
          "network-type-valid",
          "platform-requirements-satisfied");

  /** The inventory of the host, as its discovery agent reports it. */
  static Map<String, Object> inventory(GenericKubernetesResource host, String now) {
    Map<String, Object> inventory = new LinkedHashMap<>();
    String mac = Fields.string(host, "spec", "bootMACAddress");
    inventory.put("hostname", host.getMetadata().getName());
    inventory.put("reportTime", now);
    inventory.put("bmcAddress", "0.0.0.0");
    inventory.put("bmcV6Address", "::/0");
    inventory.put("boot", Map.of("currentBootMode", "uefi", "pxeInterface", ""));
    inventory.put(
        "cpu",
        Map.of(
            "architecture",
            "x86_64",
            "clockMegahertz",
            2095,
            "count",
            16,
            "modelName",
            "Intel Xeon Processor (Cascadelake)",
            "flags",
            List.of(
                "fpu",
                "vme",
                "de",
                "pse",
                "tsc",
                "msr",
                "pae",
                "mce",
                "cx8",
                "apic",
                "sep",
                "mtrr",
                "pge",
                "mca",
                "cmov",
                "pat",
                "pse36",
                "clflush",
                "mmx",
                "fxsr",
                "sse",
                "sse2",
                "ss",
                "syscall",
                "nx",
                "pdpe1gb",
                "rdtscp",
                "lm",
                "constant_tsc",
                "rep_good",
                "nopl",
                "xtopology",
                "cpuid",
                "pni",
                "pclmulqdq",
                "vmx",
                "ssse3",
                "fma",
                "cx16",
                "pcid",
                "sse4_1",
                "sse4_2",
                "x2apic",
                "movbe",
                "popcnt",
                "aes",
                "xsave",
                "avx",
                "f16c",
                "rdrand",
                "hypervisor",
                "lahf_lm",
                "abm",
                "avx2",
                "avx512f",
                "avx512dq",
                "avx512cd",
                "avx512bw",
                "avx512vl")));
    inventory.put("memory", Map.of("physicalBytes", 137438953472L, "usableBytes", 135291469824L));
    inventory.put(
        "systemVendor",
        Map.of(
            "manufacturer",
            "QEMU",
            "productName",
            "Standard PC (Q35 + ICH9, 2009)",
            "serialNumber",
            host.getMetadata().getUid(),
            "virtual",
            true));
    inventory.put(
        "interfaces",
        List.of(
            nic("enp1s0", mac, List.of("192.168.222.30/24"), List.of("fe80::5054:ff:fe00:1/64")),
            nic("enp2s0", "52:54:ff:00:00:01", List.of(), List.of())));
    inventory.put(
        "disks",
        List.of(
            disk("sda", 480103981056L, "SSD", true), disk("sdb", 1920383410176L, "HDD", false)));
    return inventory;
  }

  private static Map<String, Object> nic(
      String name, String mac, List<String> ipv4, List<String> ipv6) {
    Map<String, Object> nic = new LinkedHashMap<>();
    nic.put("name", name);
    nic.put("macAddress", mac);
    nic.put("ipV4Addresses", ipv4);
    nic.put("ipV6Addresses", ipv6);
    nic.put("flags", List.of("up", "broadcast", "multicast"));
    nic.put("hasCarrier", true);
    nic.put("mtu", 1500);
    nic.put("speedMbps", 10000);
    nic.put("product", "0x0001");
    nic.put("vendor", "0x1af4");
    nic.put("biosDevName", "");
    nic.put("clientID", "");
    return nic;
  }

  private static Map<String, Object> disk(String name, long size, String type, boolean eligible) {
    Map<String, Object> disk = new LinkedHashMap<>();
    disk.put("id", diskId(name));
    disk.put("name", name);
    disk.put("path", "/dev/" + name);
    disk.put("byID", diskId(name));
    disk.put("byPath", "/dev/disk/by-path/pci-0000:00:1f.2-ata-" + name);
    disk.put("driveType", type);
    disk.put("hctl", "0:0:0:0");
    disk.put("model", "QEMU HARDDISK");
    disk.put("serial", "QM0000" + name);
    disk.put("sizeBytes", size);
    disk.put("vendor", "ATA");
    disk.put("wwn", "0x" + Integer.toHexString(name.hashCode()) + "0000000");
    disk.put("bootable", false);
    disk.put(
        "smart",
        "{\"json_format_version\":[1,0],\"smartctl\":{\"version\":[7,1],\"exit_status\":0}}");
    disk.put("ioPerf", Map.of());
    disk.put(
        "installationEligibility",
        eligible
            ? Map.of("eligible", true, "notEligibleReasons", List.of())
            : Map.of("eligible", false, "notEligibleReasons", List.of("Disk is rotational")));
    return disk;
  }

  static String diskId(String name) {
    return "/dev/disk/by-id/wwn-0x" + Integer.toHexString(name.hashCode()) + "0000000";
  }

  /** The validations as the Agent's {@code validationsInfo} map of categories. */
  static Map<String, Object> validationsInfo(List<String> ids) {
    Map<String, Object> info = new LinkedHashMap<>();
    List<Object> hardware = new ArrayList<>();
    List<Object> network = new ArrayList<>();
    List<Object> operators = new ArrayList<>();
    for (String id : ids) {
      Map<String, Object> v = new LinkedHashMap<>();
      v.put("id", id);
      v.put("status", "success");
      v.put("message", "The check " + id.replace('-', ' ') + " passed");
      if (id.endsWith("requirements-satisfied")) {
        operators.add(v);
      } else if (id.startsWith("has-") || id.contains("disk")) {
        hardware.add(v);
      } else {
        network.add(v);
      }
    }
    info.put("hardware", hardware);
    info.put("network", network);
    info.put("operators", operators);
    return info;
  }

  static Map<String, Object> condition(String type, boolean status, String reason, String message) {
    return Fields.condition(type, status, reason, message);
  }
}
