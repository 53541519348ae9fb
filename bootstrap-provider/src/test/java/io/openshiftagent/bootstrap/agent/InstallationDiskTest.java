package io.openshiftagent.bootstrap.agent;

import static org.assertj.core.api.Assertions.assertThat;

import io.openshiftagent.api.external.assisted.AgentStatus.Disk;
import io.openshiftagent.api.external.assisted.AgentStatus.InstallationEligibility;
import io.openshiftagent.api.external.metal3.BareMetalHostSpec.RootDeviceHints;
import io.openshiftagent.bootstrap.agent.InstallationDisk.AwaitingInventory;
import io.openshiftagent.bootstrap.agent.InstallationDisk.Choice;
import io.openshiftagent.bootstrap.agent.InstallationDisk.Chosen;
import io.openshiftagent.bootstrap.agent.InstallationDisk.NoHints;
import io.openshiftagent.bootstrap.agent.InstallationDisk.NoMatch;
import java.util.List;
import java.util.function.Consumer;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Which disk a BareMetalHost's rootDeviceHints choose from an Agent's inventory: a table of hints
 * and disks and what {@link InstallationDisk#choose} makes of them, by the rules of
 * assisted-service's BareMetalHost controller (BMAC) and where we part from it.
 */
class InstallationDiskTest {
  static final Disk SDA =
      disk("sda", "SSD", 480_103_981_056L, "SAMSUNG MZ7LH480", "ATA", "S4F1NX0R1", "0:0:0:0");
  static final Disk SDB =
      disk("sdb", "HDD", 2_000_398_934_016L, "ST2000NM000A-2J21", "ATA", "ZA1G2R3K", "1:0:0:0");
  static final Disk NVME =
      disk("nvme0n1", "SSD", 960_197_124_096L, "Dell Ent NVMe P5600", "", "PHAB2281", "");
  static final Disk CDROM =
      notEligible(disk("sr0", "ODD", 1_073_741_824L, "Virtual CD", "AMI", "", "2:0:0:0"));

  /** A server's disks in the inventory's order, as the discovery agent reports them. */
  static final List<Disk> DISKS = List.of(SDA, SDB, NVME, CDROM);

  static Stream<Arguments> choices() {
    return Stream.of(
        row("no hints: the installer's default", null, DISKS, "no hints"),
        row("hints naming nothing are no hints", h -> {}, DISKS, "no hints"),
        row(
            "empty strings and a size of 0 are unset, as in Go",
            h -> {
              h.deviceName = "";
              h.minSizeGigabytes = 0;
            },
            DISKS,
            "no hints"),
        row("hints before the inventory: wait", h -> h.deviceName = "/dev/sdb", null, "awaiting"),
        row("deviceName: the path", h -> h.deviceName = "/dev/sdb", DISKS, id(SDB)),
        row("deviceName: the by-path link", h -> h.deviceName = NVME.byPath, DISKS, id(NVME)),
        row("deviceName without /dev/ matches nothing", h -> h.deviceName = "sdb", DISKS, "none"),
        row("deviceName: a by-id link is no path", h -> h.deviceName = SDB.id, DISKS, "none"),
        row("hctl", h -> h.hctl = "1:0:0:0", DISKS, id(SDB)),
        row("model: a part of it", h -> h.model = "MZ7LH", DISKS, id(SDA)),
        row("model: case counts", h -> h.model = "mz7lh", DISKS, "none"),
        row("vendor: several match, the first in order", h -> h.vendor = "AT", DISKS, id(SDA)),
        row("serialNumber: all of it", h -> h.serialNumber = "PHAB2281", DISKS, id(NVME)),
        row("serialNumber: not a part of it", h -> h.serialNumber = "PHAB", DISKS, "none"),
        row("wwn", h -> h.wwn = SDB.wwn, DISKS, id(SDB)),
        row("minSizeGigabytes: 480 GB is 447 GiB", h -> h.minSizeGigabytes = 480, DISKS, id(SDA)),
        row("minSizeGigabytes: bytes, rounded down", h -> h.minSizeGigabytes = 481, DISKS, id(SDB)),
        row("minSizeGigabytes: none large enough", h -> h.minSizeGigabytes = 3000, DISKS, "none"),
        row("rotational: an HDD", h -> h.rotational = true, DISKS, id(SDB)),
        row("not rotational: the first SSD", h -> h.rotational = false, DISKS, id(SDA)),
        row(
            "every hint must match",
            h -> {
              h.rotational = false;
              h.minSizeGigabytes = 900;
            },
            DISKS,
            id(NVME)),
        row(
            "two hints no disk matches both",
            h -> {
              h.deviceName = "/dev/sda";
              h.rotational = true;
            },
            DISKS,
            "none"),
        row("a disk not eligible is never chosen", h -> h.deviceName = "/dev/sr0", DISKS, "none"),
        row(
            "a drive type in lower case",
            h -> h.rotational = true,
            List.of(SDA, hdd()),
            "/dev/disk/by-id/wwn-0x5000000000000sdd"),
        row(
            "of several matches, a multipath disk first",
            h -> h.rotational = false,
            List.of(SDA, multipath()),
            "/dev/disk/by-id/dm-uuid-mpath-3600"),
        row(
            "an inventory without disks is one not reported yet (assisted-service makes the Agent"
                + " so)",
            h -> h.rotational = false,
            List.of(),
            "awaiting"),
        row(
            "wwnWithExtension cannot be matched (BMAC ignores it)",
            h -> h.wwnWithExtension = SDB.wwn,
            DISKS,
            "none"),
        row(
            "wwnVendorExtension cannot be matched (BMAC ignores it)",
            h -> {
              h.deviceName = "/dev/sdb";
              h.wwnVendorExtension = "0x1";
            },
            DISKS,
            "none"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("choices")
  void hintsChooseTheDiskAsAssistedServicesControllerDoes(
      String name, Consumer<RootDeviceHints> hints, List<Disk> disks, String expected) {
    RootDeviceHints given = null;
    if (hints != null) {
      given = new RootDeviceHints();
      hints.accept(given);
    }

    Choice choice = InstallationDisk.choose(given, disks);

    switch (expected) {
      case "no hints" -> assertThat(choice).isInstanceOf(NoHints.class);
      case "awaiting" -> assertThat(choice).isInstanceOf(AwaitingInventory.class);
      case "none" -> assertThat(choice).isInstanceOf(NoMatch.class);
      default -> assertThat(choice).isEqualTo(new Chosen(expected));
    }
  }

  @Test
  void noMatchNamesTheHintsAndEveryDiskWithWhatAHintCanMatch() {
    RootDeviceHints hints = new RootDeviceHints();
    hints.deviceName = "/dev/sdc";
    hints.minSizeGigabytes = 100;

    Choice choice = InstallationDisk.choose(hints, DISKS);

    assertThat(((NoMatch) choice).why())
        .isEqualTo(
            "no disk matches rootDeviceHints {deviceName: /dev/sdc, minSizeGigabytes: 100}; the"
                + " host's disks: /dev/sda (SSD, 480 GB, model: SAMSUNG MZ7LH480, vendor: ATA,"
                + " serial: S4F1NX0R1, hctl: 0:0:0:0, wwn: 0x5000000000000sda, by-path:"
                + " /dev/disk/by-path/pci-0000:00:17.0-sda); /dev/sdb (HDD, 2000 GB, model:"
                + " ST2000NM000A-2J21, vendor: ATA, serial: ZA1G2R3K, hctl: 1:0:0:0, wwn:"
                + " 0x5000000000000sdb, by-path: /dev/disk/by-path/pci-0000:00:17.0-sdb);"
                + " /dev/nvme0n1 (SSD, 960 GB, model: Dell Ent NVMe P5600, serial: PHAB2281, wwn:"
                + " 0x5000000000000nvme0n1, by-path: /dev/disk/by-path/pci-0000:00:17.0-nvme0n1);"
                + " /dev/sr0 (ODD, 1 GB, model: Virtual CD, vendor: AMI, hctl: 2:0:0:0, wwn:"
                + " 0x5000000000000sr0, by-path: /dev/disk/by-path/pci-0000:00:17.0-sr0, not"
                + " eligible for installation: Drive type is ODD, it must be one of HDD, SSD,"
                + " Multipath.)");
  }

  @Test
  void extensionHintsAreRefusedWithWhatToUseInstead() {
    RootDeviceHints hints = new RootDeviceHints();
    hints.wwnWithExtension = "0x5000c500a1b2c3d4";

    assertThat(((NoMatch) InstallationDisk.choose(hints, DISKS)).why())
        .isEqualTo(
            "rootDeviceHints {wwnWithExtension: 0x5000c500a1b2c3d4} cannot be matched:"
                + " assisted-service's inventory reports no WWN extensions (OpenShift's installer"
                + " refuses these hints too); use wwn");
  }

  @Test
  void aLongListOfDisksIsCut() {
    RootDeviceHints hints = new RootDeviceHints();
    hints.serialNumber = "nowhere";
    List<Disk> many =
        IntStream.range(0, 20)
            .mapToObj(i -> disk("sd" + (char) ('a' + i), "HDD", 4_000_000_000_000L, "", "", "", ""))
            .toList();

    String why = ((NoMatch) InstallationDisk.choose(hints, many)).why();

    assertThat(why).contains("/dev/sdp (").doesNotContain("/dev/sdq (").endsWith("; and 4 more");
  }

  private static Arguments row(
      String name, Consumer<RootDeviceHints> hints, List<Disk> disks, String expected) {
    return Arguments.of(name, hints, disks, expected);
  }

  private static String id(Disk disk) {
    return disk.id;
  }

  static Disk disk(
      String name,
      String driveType,
      long sizeBytes,
      String model,
      String vendor,
      String serial,
      String hctl) {
    Disk disk = new Disk();
    disk.id = "/dev/disk/by-id/wwn-0x5000000000000" + name;
    disk.name = name;
    disk.path = "/dev/" + name;
    disk.byPath = "/dev/disk/by-path/pci-0000:00:17.0-" + name;
    disk.driveType = driveType;
    disk.sizeBytes = sizeBytes;
    disk.model = model;
    disk.vendor = vendor;
    disk.serial = serial;
    disk.hctl = hctl;
    disk.wwn = "0x5000000000000" + name;
    disk.installationEligibility = new InstallationEligibility();
    disk.installationEligibility.eligible = true;
    return disk;
  }

  private static Disk notEligible(Disk disk) {
    disk.installationEligibility.eligible = false;
    disk.installationEligibility.setUnknownField(
        "notEligibleReasons", List.of("Drive type is ODD, it must be one of HDD, SSD, Multipath."));
    return disk;
  }

  /** As BMAC reads the Agent's drive type: in upper case. */
  private static Disk hdd() {
    return disk("sdd", "hdd", 4_000_000_000_000L, "", "", "", "3:0:0:0");
  }

  private static Disk multipath() {
    Disk disk = disk("dm-0", "Multipath", 1_000_000_000_000L, "", "", "", "");
    disk.id = "/dev/disk/by-id/dm-uuid-mpath-3600";
    return disk;
  }
}
