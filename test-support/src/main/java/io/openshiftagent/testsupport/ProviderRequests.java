package io.openshiftagent.testsupport;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * Our two providers' requests to the hub, as its audit log records them (their user agents name
 * them: docs/operations.md), per Machine of the clusters they installed: what the benchmark and the
 * end-to-end request budget (simulator's HighlyAvailableLiveIsoTest; docs/benchmarks.md) count and
 * print. The benchmark against the Go provider prints that pair's requests through the same {@link
 * #table()}, which reads nothing but the requests' own fields.
 *
 * <p>The budget counts the requests the hub carried out. A conditional write that lost a race (409
 * Conflict: the object changed since the provider read it, and it writes again) is counted apart:
 * how many there are depends on how our writes interleave with those of Cluster API and
 * assisted-service, which change the same Machines and Agents many times a second while hosts
 * register, not on what our providers decide to write.
 *
 * @param requests the providers' requests in the window counted, in the order received
 * @param machines the Machines installed in that window
 */
public record ProviderRequests(List<AuditLog.Request> requests, int machines) {
  /**
   * At most this many hub requests per Machine, both providers together: the benchmark checks it at
   * 5 and 50 clusters, the test command's guard on one HA installation (docs/benchmarks.md explains
   * each request left).
   */
  public static final double BUDGET_PER_MACHINE = 15;

  /** At most this many requests refused with 409 Conflict per Machine, both providers together. */
  public static final double CONFLICTS_PER_MACHINE = 2;

  /** Our providers' requests among {@code all}. */
  public static ProviderRequests of(List<AuditLog.Request> all, int machines) {
    return new ProviderRequests(
        all.stream().filter(r -> provider(r).isPresent()).toList(), machines);
  }

  /** Which of our providers made the request, if one did. */
  public static Optional<ProviderJar> provider(AuditLog.Request request) {
    for (ProviderJar jar : ProviderJar.values()) {
      if (request.userAgent().startsWith(jar.userAgentPrefix)) {
        return Optional.of(jar);
      }
    }
    return Optional.empty();
  }

  /** The requests the hub carried out (all but the conflicts), per Machine. */
  public double perMachine() {
    return carriedOut().count() / (double) machines;
  }

  public double perMachine(ProviderJar jar) {
    return carriedOut().filter(r -> provider(r).orElseThrow() == jar).count() / (double) machines;
  }

  /** The requests refused with 409 Conflict, per Machine. */
  public double conflictsPerMachine() {
    return requests.stream().filter(ProviderRequests::isConflict).count() / (double) machines;
  }

  private Stream<AuditLog.Request> carriedOut() {
    return requests.stream().filter(r -> !isConflict(r));
  }

  private static boolean isConflict(AuditLog.Request request) {
    return request.code() == 409;
  }

  /**
   * The table: for each provider (its user agent) the requests carried out and their number per
   * Machine, then by verb and resource, most first; last, both together, and the conflicts by verb
   * and resource.
   */
  public String table() {
    StringBuilder out = new StringBuilder();
    Map<AuditLog.Count, Long> counts =
        AuditLog.countByUserAgentVerbAndResource(carriedOut().toList());
    Map<String, Long> perAgent = new TreeMap<>();
    counts.forEach((c, n) -> perAgent.merge(c.userAgent(), n, Long::sum));
    for (Map.Entry<String, Long> agent : perAgent.entrySet()) {
      out.append(
          String.format(
              "  %-44s %7d  %6.1f per Machine%n",
              agent.getKey(), agent.getValue(), agent.getValue() / (double) machines));
      counts.entrySet().stream()
          .filter(e -> e.getKey().userAgent().equals(agent.getKey()))
          .sorted(Map.Entry.<AuditLog.Count, Long>comparingByValue().reversed())
          .forEach(
              e ->
                  out.append(
                      String.format(
                          "    %-42s %7d  %6.2f%n",
                          e.getKey().verb() + " " + e.getKey().resource(),
                          e.getValue(),
                          e.getValue() / (double) machines)));
    }
    out.append(
        String.format(
            "  %-44s %7d  %6.1f per Machine%n", "both", carriedOut().count(), perMachine()));
    List<AuditLog.Request> conflicts =
        requests.stream().filter(ProviderRequests::isConflict).toList();
    out.append(
        String.format(
            "  %-44s %7d  %6.1f per Machine%n",
            "409 Conflict, written again", conflicts.size(), conflictsPerMachine()));
    AuditLog.countByUserAgentVerbAndResource(conflicts)
        .forEach(
            (c, n) ->
                out.append(
                    String.format(
                        "    %-42s %7d  %s%n",
                        c.verb() + " " + c.resource(), n, c.userAgent().split("/")[0])));
    return out.toString();
  }
}
