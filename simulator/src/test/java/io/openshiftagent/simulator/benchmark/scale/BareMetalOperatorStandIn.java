package io.openshiftagent.simulator.benchmark.scale;

import static io.openshiftagent.simulator.ApiVersions.METAL3;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.openshiftagent.api.external.OwnedFieldsPatch;
import io.openshiftagent.bootstrap.names.Names;
import io.openshiftagent.simulator.Fields;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Stands in for the baremetal-operator (and the Ironic behind it): each BareMetalHost goes
 * registering, inspecting, available (with the hardware details its fixture provisioner reports: 2
 * NICs, 2 disks, x86_64, 128 GiB), then, once CAPM3 gives it an image, provisioning and provisioned
 * (powered on); the detached annotation makes it detached. Each step is one status write, as the
 * real operator's are.
 */
final class BareMetalOperatorStandIn extends StandIn {
  static final String NAME = "baremetal-operator";

  BareMetalOperatorStandIn(KubernetesClient hub, Pace pace) {
    super(hub, pace);
  }

  @Override
  void register() {
    watch(METAL3, "BareMetalHost", this::host);
  }

  private void host(GenericKubernetesResource host) {
    if (host.getMetadata().getDeletionTimestamp() != null) {
      return;
    }
    holdFinalizer(host, "baremetalhost.metal3.io");
    String state = Fields.string(host, "status", "provisioning", "state");
    if (state == null) {
      write(host, "registering", "register", false, null);
    } else if (state.equals("registering") && waited(host, state, pace.registration())) {
      write(host, "inspecting", "inspect", false, null);
    } else if (state.equals("inspecting") && waited(host, state, pace.inspection())) {
      write(host, "available", null, false, HardwareDetails.of(host));
    } else if (state.equals("available") && imageGiven(host)) {
      write(host, "provisioning", "provision", false, null);
    } else if (state.equals("provisioning") && waited(host, state, pace.provisioning())) {
      write(host, "provisioned", null, true, null);
    } else if (state.equals("provisioned")
        && Fields.annotation(host, Names.BMH_DETACHED_ANNOTATION) != null
        && !"detached".equals(Fields.string(host, "status", "operationalStatus"))) {
      patchStatus(
          host,
          new OwnedFieldsPatch()
              .set("detached", "status", "operationalStatus")
              .set(Fields.now(), "status", "lastUpdated"));
    }
  }

  /** CAPM3 claimed the host and gave it an image to boot. */
  private static boolean imageGiven(GenericKubernetesResource host) {
    return Fields.string(host, "spec", "image", "url") != null
        && Fields.get(host, "spec", "consumerRef") != null
        && Fields.isTrue(host, "spec", "online");
  }

  /**
   * One status write: the new state, the operation it starts (and the end of the one before), the
   * power, and on inspection's end the hardware details.
   */
  private void write(
      GenericKubernetesResource host,
      String state,
      String operationStarted,
      boolean poweredOn,
      Map<String, Object> hardware) {
    String now = Fields.now();
    Map<String, Object> provisioning = new LinkedHashMap<>();
    provisioning.put("state", state);
    provisioning.put("ID", java.util.UUID.nameUUIDFromBytes(uid(host).getBytes()).toString());
    provisioning.put("bootMode", "UEFI");
    provisioning.put("rootDeviceHints", Map.of("deviceName", "/dev/sda"));
    if (state.startsWith("provision")) {
      provisioning.put("image", Fields.get(host, "spec", "image"));
    }
    OwnedFieldsPatch patch =
        new OwnedFieldsPatch()
            .set(provisioning, "status", "provisioning")
            .set("OK", "status", "operationalStatus")
            .set(poweredOn, "status", "poweredOn")
            .set("", "status", "errorMessage")
            .set(now, "status", "lastUpdated")
            .set(history(host, operationStarted, now), "status", "operationHistory")
            .set(
                Map.of(
                    "credentials",
                    Map.of(
                        "name",
                        Fields.string(host, "spec", "bmc", "credentialsName"),
                        "namespace",
                        namespace(host)),
                    "credentialsVersion",
                    "1"),
                "status",
                "goodCredentials");
    if (hardware != null) {
      patch.set(hardware, "status", "hardware").set("unknown", "status", "hardwareProfile");
    }
    patchStatus(host, patch);
  }

  /** The operations' start and end times: the one running ends now, the next one starts. */
  @SuppressWarnings("unchecked")
  private static Map<String, Object> history(
      GenericKubernetesResource host, String started, String now) {
    Map<String, Object> history = new LinkedHashMap<>();
    Object current = Fields.get(host, "status", "operationHistory");
    if (current instanceof Map<?, ?> map) {
      map.forEach((k, v) -> history.put((String) k, new LinkedHashMap<>((Map<String, Object>) v)));
    }
    for (Object operation : history.values()) {
      Map<String, Object> times = (Map<String, Object>) operation;
      if (times.get("start") != null && times.get("end") == null) {
        times.put("end", now);
      }
    }
    if (started != null) {
      Map<String, Object> times = new LinkedHashMap<>();
      times.put("start", now);
      times.put("end", null);
      history.put(started, times);
    }
    return history;
  }

  private static String uid(GenericKubernetesResource host) {
    return host.getMetadata().getUid();
  }

  /** What the fixture provisioner's inspection reports, per host. */
  static final class HardwareDetails {
    private HardwareDetails() {}

    static Map<String, Object> of(GenericKubernetesResource host) {
      String mac = Fields.string(host, "spec", "bootMACAddress");
      Map<String, Object> hardware = new LinkedHashMap<>();
      hardware.put(
          "systemVendor",
          Map.of(
              "manufacturer",
              "QEMU",
              "productName",
              "Standard PC (Q35 + ICH9, 2009)",
              "serialNumber",
              uid(host)));
      hardware.put(
          "firmware",
          Map.of(
              "bios",
              Map.of(
                  "date",
                  "04/01/2014",
                  "vendor",
                  "EFI Development Kit II / OVMF",
                  "version",
                  "0.0.0")));
      hardware.put("ramMebibytes", 131072);
      List<Object> nics = new ArrayList<>();
      nics.add(nic("enp1s0", mac, "192.168.222.30"));
      nics.add(nic("enp2s0", "52:54:ff:00:00:01", ""));
      hardware.put("nics", nics);
      hardware.put(
          "storage",
          List.of(
              disk("sda", "/dev/sda", 480103981056L, false),
              disk("sdb", "/dev/sdb", 1920383410176L, true)));
      hardware.put(
          "cpu",
          Map.of(
              "arch",
              "x86_64",
              "model",
              "Intel Xeon Processor (Cascadelake)",
              "clockMegahertz",
              2095.078,
              "count",
              16,
              "flags",
              List.of(
                  "aes",
                  "apic",
                  "avx",
                  "avx2",
                  "avx512bw",
                  "avx512cd",
                  "avx512dq",
                  "avx512f",
                  "avx512vl",
                  "bmi1",
                  "bmi2",
                  "clflush",
                  "cmov",
                  "cx16",
                  "cx8",
                  "de",
                  "f16c",
                  "fma",
                  "fpu",
                  "fsgsbase",
                  "fxsr",
                  "hypervisor",
                  "lahf_lm",
                  "lm",
                  "mca",
                  "mce",
                  "mmx",
                  "movbe",
                  "msr",
                  "mtrr",
                  "nx",
                  "pae",
                  "pat",
                  "pcid",
                  "pclmulqdq",
                  "pge",
                  "pni",
                  "popcnt",
                  "pse",
                  "pse36",
                  "rdrand",
                  "rdseed",
                  "sep",
                  "sse",
                  "sse2",
                  "sse4_1",
                  "sse4_2",
                  "ssse3",
                  "syscall",
                  "tsc",
                  "vme",
                  "vmx",
                  "x2apic",
                  "xsave")));
      hardware.put("hostname", name(host));
      return hardware;
    }

    private static Map<String, Object> nic(String name, String mac, String ip) {
      Map<String, Object> nic = new LinkedHashMap<>();
      nic.put("name", name);
      nic.put("model", "0x1af4 0x0001");
      nic.put("mac", mac);
      nic.put("ip", ip);
      nic.put("speedGbps", 10);
      nic.put("pxe", ip.isEmpty() ? false : true);
      return nic;
    }

    private static Map<String, Object> disk(
        String name, String path, long size, boolean rotational) {
      Map<String, Object> disk = new LinkedHashMap<>();
      disk.put("name", path);
      disk.put("alternateNames", List.of(path, "/dev/disk/by-path/pci-0000:00:1f.2-ata-" + name));
      disk.put("rotational", rotational);
      disk.put("sizeBytes", size);
      disk.put("type", rotational ? "HDD" : "SSD");
      disk.put("vendor", "ATA");
      disk.put("model", "QEMU HARDDISK");
      disk.put("serialNumber", "QM0000" + name);
      disk.put("hctl", "0:0:0:0");
      return disk;
    }
  }
}
