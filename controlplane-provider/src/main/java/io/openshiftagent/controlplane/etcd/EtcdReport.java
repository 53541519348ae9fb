package io.openshiftagent.controlplane.etcd;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What OpenShift's cluster-etcd-operator reports about etcd, read from the installed cluster: the
 * member conditions of {@code etcds.operator.openshift.io/cluster} (the ones OpenShift's "replacing
 * an unhealthy etcd member" procedure reads) and the {@code etcd} ClusterOperator. Members are
 * named after their Nodes.
 *
 * @param members how many members etcd has (learners included), or empty when not reported
 * @param quorate whether the operator can list the members and reports etcd quorate
 * @param unhealthy the members the operator reports unhealthy
 * @param notStarted the members added but not started yet
 * @param problems what makes the whole report unusable for a safety decision (the operator cannot
 *     list members, etcd is not Available, a static pod revision is rolling out, ...), empty when
 *     none
 * @param quorumGuardOff whether {@code spec.unsupportedConfigOverrides} turns the quorum guard off
 * @param quorumGuardOffBy who turned it off, from our annotation on the Etcd object ("" when not
 *     us)
 */
public record EtcdReport(
    Optional<Integer> members,
    boolean quorate,
    Set<String> unhealthy,
    Set<String> notStarted,
    List<String> problems,
    boolean quorumGuardOff,
    String quorumGuardOffBy) {

  /** The annotation we put on {@code etcds/cluster} while we keep the quorum guard off. */
  public static final String QUORUM_GUARD_OFF_BY =
      "controlplane.cluster.x-k8s.io/quorum-guard-off-by";

  /** The key of {@code spec.unsupportedConfigOverrides} that turns the quorum guard off. */
  public static final String QUORUM_GUARD_OVERRIDE =
      "useUnsupportedUnsafeNonHANonProductionUnstableEtcd";

  // "3 members are available" or "2 of 3 members are available, m1 is unhealthy, m4 has not
  // started"
  private static final Pattern ALL = Pattern.compile("^(\\d+) members are available");
  private static final Pattern SOME = Pattern.compile("^(\\d+) of (\\d+) members are available");
  private static final Pattern UNHEALTHY = Pattern.compile("(?:^|, )([^ ,]+) is unhealthy");
  private static final Pattern NOT_STARTED = Pattern.compile("(?:^|, )([^ ,]+) has not started");

  /** Healthy members: those neither unhealthy nor unstarted. */
  public int healthy() {
    return members.orElse(0) - unhealthy.size() - notStarted.size();
  }

  /**
   * Reads the report.
   *
   * @param etcd {@code etcds.operator.openshift.io/cluster} as a map (null when missing)
   * @param clusterOperator the {@code etcd} ClusterOperator as a map (null when missing)
   */
  public static EtcdReport of(Map<String, Object> etcd, Map<String, Object> clusterOperator) {
    List<String> problems = new ArrayList<>();
    if (etcd == null) {
      problems.add("the installed cluster has no etcds.operator.openshift.io/cluster");
      return new EtcdReport(Optional.empty(), false, Set.of(), Set.of(), problems, false, "");
    }
    List<Map<String, Object>> conditions = conditions(etcd);
    Optional<Integer> members = Optional.empty();
    Set<String> unhealthy = new LinkedHashSet<>();
    Set<String> notStarted = new LinkedHashSet<>();
    Optional<Map<String, Object>> available = condition(conditions, "EtcdMembersAvailable");
    if (available.isEmpty()) {
      problems.add("the etcd operator reports no EtcdMembersAvailable condition yet");
    } else {
      String message = string(available.get().get("message"));
      members = memberCount(message);
      collect(UNHEALTHY, message, unhealthy);
      collect(NOT_STARTED, message, notStarted);
      if (members.isEmpty()) {
        problems.add("cannot read the member count from EtcdMembersAvailable: \"" + message + "\"");
      }
      if (!"True".equals(available.get().get("status"))) {
        problems.add("etcd has no quorum (EtcdMembersAvailable: " + message + ")");
      }
    }
    Optional<Map<String, Object>> cannotList =
        condition(conditions, "EtcdMembersControllerDegraded")
            .filter(c -> "True".equals(c.get("status")));
    cannotList.ifPresent(
        c ->
            problems.add("the etcd operator cannot list the members: " + string(c.get("message"))));
    boolean quorate =
        members.isPresent()
            && cannotList.isEmpty()
            && available.map(c -> "True".equals(c.get("status"))).orElse(false);
    condition(conditions, "NodeInstallerProgressing")
        .filter(c -> "True".equals(c.get("status")))
        .ifPresent(
            c ->
                problems.add(
                    "etcd's static pods are rolling out to a new revision ("
                        + string(c.get("message"))
                        + ")"));
    clusterOperatorProblems(clusterOperator, problems);
    Map<String, Object> spec = map(etcd.get("spec"));
    Object override = map(spec.get("unsupportedConfigOverrides")).get(QUORUM_GUARD_OVERRIDE);
    boolean guardOff =
        Boolean.TRUE.equals(override) || "true".equalsIgnoreCase(String.valueOf(override));
    String offBy =
        string(map(map(etcd.get("metadata")).get("annotations")).get(QUORUM_GUARD_OFF_BY));
    return new EtcdReport(members, quorate, unhealthy, notStarted, problems, guardOff, offBy);
  }

  /**
   * The ClusterOperator: etcd must be Available, and Degraded only because of its members (which
   * the member conditions already tell, without the ClusterOperator's inertia of minutes).
   */
  private static void clusterOperatorProblems(
      Map<String, Object> clusterOperator, List<String> problems) {
    if (clusterOperator == null) {
      problems.add("the installed cluster has no etcd ClusterOperator");
      return;
    }
    List<Map<String, Object>> conditions = conditions(clusterOperator);
    Optional<Map<String, Object>> available = condition(conditions, "Available");
    if (available.isEmpty() || !"True".equals(available.get().get("status"))) {
      problems.add(
          "the etcd ClusterOperator is not Available"
              + available.map(c -> ": " + string(c.get("message"))).orElse(""));
    }
    condition(conditions, "Degraded")
        .filter(c -> "True".equals(c.get("status")))
        .ifPresent(
            c -> {
              List<String> others =
                  string(c.get("message"))
                      .lines()
                      .filter(line -> !line.isBlank())
                      .filter(line -> !line.startsWith("EtcdMembersDegraded:"))
                      .toList();
              if (!others.isEmpty()) {
                problems.add("the etcd ClusterOperator is Degraded: " + String.join("; ", others));
              }
            });
  }

  private static Optional<Integer> memberCount(String message) {
    Matcher some = SOME.matcher(message);
    if (some.find()) {
      return Optional.of(Integer.parseInt(some.group(2)));
    }
    Matcher all = ALL.matcher(message);
    return all.find() ? Optional.of(Integer.parseInt(all.group(1))) : Optional.empty();
  }

  private static void collect(Pattern pattern, String message, Set<String> into) {
    Matcher m = pattern.matcher(message);
    while (m.find()) {
      into.add(m.group(1));
    }
  }

  @SuppressWarnings("unchecked")
  private static List<Map<String, Object>> conditions(Map<String, Object> object) {
    Object list = map(object.get("status")).get("conditions");
    return list instanceof List<?> l
        ? l.stream().filter(Map.class::isInstance).map(c -> (Map<String, Object>) c).toList()
        : List.of();
  }

  private static Optional<Map<String, Object>> condition(
      List<Map<String, Object>> conditions, String type) {
    return conditions.stream().filter(c -> type.equals(c.get("type"))).findFirst();
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> map(Object o) {
    return o instanceof Map<?, ?> m ? (Map<String, Object>) m : Map.of();
  }

  private static String string(Object o) {
    return o == null ? "" : o.toString();
  }
}
