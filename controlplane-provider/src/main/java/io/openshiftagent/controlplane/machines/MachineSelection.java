package io.openshiftagent.controlplane.machines;

import io.openshiftagent.api.external.ExternalKinds;
import io.openshiftagent.api.external.capi.ClusterStatus.FailureDomain;
import io.openshiftagent.api.external.capi.Machine;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Predicate;

/** Where a new control-plane Machine goes, and which one goes first when scaling down. */
public final class MachineSelection {
  private static final Comparator<Machine> OLDEST_FIRST =
      Comparator.comparing((Machine m) -> m.getMetadata().getCreationTimestamp())
          .thenComparing(m -> m.getMetadata().getName());

  private MachineSelection() {}

  /**
   * The control-plane failure domain with the fewest Machines (ties: by name), or empty when the
   * Cluster reports none.
   */
  public static Optional<String> failureDomainForNewMachine(
      List<FailureDomain> failureDomains, List<Machine> machines) {
    Map<String, Long> counts = new TreeMap<>();
    if (failureDomains != null) {
      failureDomains.stream()
          .filter(fd -> Boolean.TRUE.equals(fd.controlPlane) && fd.name != null)
          .forEach(fd -> counts.put(fd.name, 0L));
    }
    if (counts.isEmpty()) {
      return Optional.empty();
    }
    machines.stream()
        .filter(m -> !isDeleting(m))
        .map(MachineSelection::failureDomainOf)
        .filter(counts::containsKey)
        .forEach(fd -> counts.merge(fd, 1L, Long::sum));
    return counts.entrySet().stream().min(Map.Entry.comparingByValue()).map(Map.Entry::getKey);
  }

  /**
   * The Machine to delete when scaling down: the oldest one marked with the delete-machine
   * annotation; else the oldest out-of-date one; else the oldest in the most crowded failure
   * domain.
   */
  public static Optional<Machine> machineToDelete(
      List<Machine> machines, Predicate<Machine> upToDate) {
    List<Machine> candidates = machines.stream().filter(m -> !isDeleting(m)).toList();
    Optional<Machine> marked =
        candidates.stream()
            .filter(
                m ->
                    m.getMetadata().getAnnotations() != null
                        && m.getMetadata()
                            .getAnnotations()
                            .containsKey(ExternalKinds.DELETE_MACHINE_ANNOTATION))
            .min(OLDEST_FIRST);
    if (marked.isPresent()) {
      return marked;
    }
    Optional<Machine> outdated = candidates.stream().filter(upToDate.negate()).min(OLDEST_FIRST);
    if (outdated.isPresent()) {
      return outdated;
    }
    Map<String, Long> perDomain = new TreeMap<>();
    candidates.forEach(m -> perDomain.merge(failureDomainOf(m), 1L, Long::sum));
    long most = perDomain.values().stream().mapToLong(Long::longValue).max().orElse(0);
    return candidates.stream()
        .filter(m -> perDomain.get(failureDomainOf(m)) == most)
        .min(OLDEST_FIRST);
  }

  static String failureDomainOf(Machine m) {
    return m.getSpec() == null ? "" : Objects.requireNonNullElse(m.getSpec().failureDomain, "");
  }

  static boolean isDeleting(Machine m) {
    return m.getMetadata().getDeletionTimestamp() != null;
  }
}
