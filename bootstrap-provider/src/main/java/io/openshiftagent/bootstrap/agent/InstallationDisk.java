package io.openshiftagent.bootstrap.agent;

import io.openshiftagent.api.external.assisted.AgentStatus.Disk;
import io.openshiftagent.api.external.metal3.BareMetalHostSpec.RootDeviceHints;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * The disk an Agent installs on, chosen from its inventory by its BareMetalHost's rootDeviceHints
 * with the rules of assisted-service's own BareMetalHost controller (BMAC's findInstallationDiskID
 * and hostutil.GetAcceptableDisksWithHints): a disk not eligible for installation is never chosen;
 * each hint given must match; {@code deviceName} is the disk's path or by-path link, {@code hctl},
 * {@code serialNumber} and {@code wwn} are equal, {@code model} and {@code vendor} are contained,
 * {@code minSizeGigabytes} is compared with whole decimal gigabytes (10^9 bytes, rounded down; the
 * baremetal-operator's Ironic uses GiB, assisted-service does not), {@code rotational} means an
 * HDD. Of several matches, the first multipath disk, else the first in the inventory's order.
 *
 * <p>Where it differs from BMAC, it is to keep a disk that must not be written: BMAC names a disk
 * that does not exist when nothing matches and approves the host anyway (the installer fails it
 * later), and ignores {@code wwnWithExtension} and {@code wwnVendorExtension}, so a host given only
 * those is installed on the first eligible disk; here both leave the Agent unapproved, with why.
 * Hints with no field set are no hints (BMAC would pin the inventory's first eligible disk, which
 * need not be the installer's default). Pure: its table test is {@code InstallationDiskTest}.
 */
final class InstallationDisk {
  static final long GIGABYTE = 1_000_000_000L;

  /** How many disks a message lists at most. */
  static final int LISTED_DISKS = 16;

  private InstallationDisk() {}

  /** What the hints say of the Agent's disks. */
  sealed interface Choice {}

  /** The host names no hint: the installer's own choice stands, and nothing is written. */
  record NoHints() implements Choice {}

  /**
   * The host has hints, but its Agent has not reported its disks yet: assisted-service makes the
   * Agent with an inventory that lists none, and a discovery agent always reports its disks.
   */
  record AwaitingInventory() implements Choice {}

  /** Install on the disk whose inventory id is {@code diskId}. */
  record Chosen(String diskId) implements Choice {}

  /** No disk may be chosen; {@code why} names the hints and the disks found. */
  record NoMatch(String why) implements Choice {}

  /**
   * @param hints the BareMetalHost's, or null
   * @param disks the Agent's inventory disks; null or none while it has reported none
   */
  static Choice choose(RootDeviceHints hints, List<Disk> disks) {
    if (!given(hints)) {
      return new NoHints();
    }
    if (disks == null || disks.isEmpty()) {
      return new AwaitingInventory();
    }
    if (notEmpty(hints.wwnWithExtension) || notEmpty(hints.wwnVendorExtension)) {
      return new NoMatch(
          "rootDeviceHints "
              + describe(hints)
              + " cannot be matched: assisted-service's inventory reports no WWN extensions"
              + " (OpenShift's installer refuses these hints too); use wwn");
    }
    List<Disk> acceptable = disks.stream().filter(d -> eligible(d) && matches(hints, d)).toList();
    if (acceptable.isEmpty()) {
      return new NoMatch(
          "no disk matches rootDeviceHints "
              + describe(hints)
              + "; the host's disks: "
              + list(disks));
    }
    return new Chosen(
        acceptable.stream()
            .filter(d -> "Multipath".equalsIgnoreCase(d.driveType))
            .findFirst()
            .orElse(acceptable.get(0))
            .id);
  }

  /** Whether {@code hints} name anything (a Go zero value is unset, as BMAC reads it). */
  static boolean given(RootDeviceHints hints) {
    return hints != null
        && (notEmpty(hints.deviceName)
            || notEmpty(hints.hctl)
            || notEmpty(hints.model)
            || notEmpty(hints.vendor)
            || notEmpty(hints.serialNumber)
            || minSize(hints) != 0
            || notEmpty(hints.wwn)
            || notEmpty(hints.wwnWithExtension)
            || notEmpty(hints.wwnVendorExtension)
            || hints.rotational != null);
  }

  private static boolean matches(RootDeviceHints hints, Disk disk) {
    return (!notEmpty(hints.deviceName)
            || hints.deviceName.equals(disk.path)
            || hints.deviceName.equals(disk.byPath))
        && equalIfGiven(hints.hctl, disk.hctl)
        && (!notEmpty(hints.model) || disk.model != null && disk.model.contains(hints.model))
        && (!notEmpty(hints.vendor) || disk.vendor != null && disk.vendor.contains(hints.vendor))
        && equalIfGiven(hints.serialNumber, disk.serial)
        && gigabytes(disk) >= minSize(hints)
        && equalIfGiven(hints.wwn, disk.wwn)
        && (hints.rotational == null || hints.rotational == rotational(disk));
  }

  private static boolean equalIfGiven(String hint, String value) {
    return !notEmpty(hint) || hint.equals(value);
  }

  private static boolean eligible(Disk disk) {
    return disk.installationEligibility != null
        && Boolean.TRUE.equals(disk.installationEligibility.eligible);
  }

  private static boolean rotational(Disk disk) {
    return "HDD".equalsIgnoreCase(disk.driveType);
  }

  private static long gigabytes(Disk disk) {
    return disk.sizeBytes == null ? 0 : disk.sizeBytes / GIGABYTE;
  }

  private static int minSize(RootDeviceHints hints) {
    return hints.minSizeGigabytes == null ? 0 : hints.minSizeGigabytes;
  }

  private static boolean notEmpty(String value) {
    return value != null && !value.isEmpty();
  }

  /** The hints given, as the BareMetalHost names them. */
  static String describe(RootDeviceHints hints) {
    List<String> given = new ArrayList<>();
    add(given, "deviceName", hints.deviceName);
    add(given, "hctl", hints.hctl);
    add(given, "model", hints.model);
    add(given, "vendor", hints.vendor);
    add(given, "serialNumber", hints.serialNumber);
    add(given, "minSizeGigabytes", minSize(hints) == 0 ? null : String.valueOf(minSize(hints)));
    add(given, "wwn", hints.wwn);
    add(given, "wwnWithExtension", hints.wwnWithExtension);
    add(given, "wwnVendorExtension", hints.wwnVendorExtension);
    add(given, "rotational", hints.rotational == null ? null : hints.rotational.toString());
    return "{" + String.join(", ", given) + "}";
  }

  /** The disks with what a hint can match, so that the user can write one that does. */
  static String list(List<Disk> disks) {
    String listed =
        disks.stream()
            .limit(LISTED_DISKS)
            .map(InstallationDisk::describe)
            .collect(Collectors.joining("; "));
    return disks.size() > LISTED_DISKS
        ? listed + "; and " + (disks.size() - LISTED_DISKS) + " more"
        : listed;
  }

  private static String describe(Disk disk) {
    List<String> facts = new ArrayList<>();
    if (disk.driveType != null) {
      facts.add(disk.driveType);
    }
    facts.add(gigabytes(disk) + " GB");
    add(facts, "model", disk.model);
    add(facts, "vendor", disk.vendor);
    add(facts, "serial", disk.serial);
    add(facts, "hctl", disk.hctl);
    add(facts, "wwn", disk.wwn);
    add(facts, "by-path", disk.byPath);
    if (!eligible(disk)) {
      facts.add("not eligible for installation" + notEligibleBecause(disk).orElse(""));
    }
    String name = disk.path != null ? disk.path : Objects.requireNonNullElse(disk.name, disk.id);
    return name + " (" + String.join(", ", facts) + ")";
  }

  /** assisted-service's reasons, which the inventory keeps beside the eligibility. */
  private static Optional<String> notEligibleBecause(Disk disk) {
    return Optional.ofNullable(disk.installationEligibility)
        .map(e -> e.unknownFields().get("notEligibleReasons"))
        .filter(reasons -> reasons instanceof List<?> list && !list.isEmpty())
        .map(
            reasons ->
                ": "
                    + ((List<?>) reasons)
                        .stream().map(String::valueOf).collect(Collectors.joining(", ")));
  }

  private static void add(List<String> into, String name, String value) {
    if (notEmpty(value)) {
      into.add(name + ": " + value);
    }
  }
}
