package io.openshiftagent.simulator.demo;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.openshiftagent.simulator.Fields;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * What the demo shows: one line for the cluster and its control plane, then a table with a row per
 * Machine (its host, its Agent, its Node) and the hosts no Machine uses. A pure function of the
 * objects read from the hub, so it can be tested without one.
 */
final class ProgressTable {
  static final String CONTROL_PLANE_LABEL = "cluster.x-k8s.io/control-plane";
  static final String CONFIG_LABEL = "bootstrap.cluster.x-k8s.io/openshiftAssistedConfig";
  static final String HOST_ANNOTATION = "metal3.io/BareMetalHost";

  /** Everything of one cluster's namespace the table reads; any of the singletons may be null. */
  record Snapshot(
      GenericKubernetesResource cluster,
      GenericKubernetesResource controlPlane,
      GenericKubernetesResource clusterInstall,
      List<GenericKubernetesResource> machines,
      List<GenericKubernetesResource> metal3Machines,
      List<GenericKubernetesResource> hosts,
      List<GenericKubernetesResource> agents) {}

  private static final List<String> HEADER =
      List.of("MACHINE", "ROLE", "PHASE", "HOST", "HOST STATE", "AGENT", "NODE");

  private ProgressTable() {}

  static String render(Snapshot s) {
    StringBuilder out = new StringBuilder();
    out.append(clusterLine(s)).append('\n');
    out.append(controlPlaneLine(s)).append('\n').append('\n');

    Map<String, GenericKubernetesResource> metal3Machines = byName(s.metal3Machines());
    Map<String, GenericKubernetesResource> hosts = byName(s.hosts());
    List<String> usedHosts = new ArrayList<>();
    List<List<String>> rows = new ArrayList<>();
    rows.add(HEADER);
    s.machines().stream()
        .sorted(
            Comparator.comparing((GenericKubernetesResource m) -> role(m))
                .thenComparing(ProgressTable::name))
        .forEach(
            machine -> {
              String hostName =
                  Optional.ofNullable(
                          metal3Machines.get(
                              Fields.string(machine, "spec", "infrastructureRef", "name")))
                      .map(m3m -> Fields.annotation(m3m, HOST_ANNOTATION))
                      .map(ref -> ref.substring(ref.indexOf('/') + 1))
                      .orElse(null);
              usedHosts.add(hostName);
              rows.add(
                  List.of(
                      name(machine),
                      role(machine),
                      or(Fields.string(machine, "status", "phase"), "-"),
                      or(hostName, "-"),
                      hostName == null ? "-" : hostState(hosts.get(hostName)),
                      agentState(machine, s.agents()),
                      or(Fields.string(machine, "status", "nodeRef", "name"), "-")));
            });
    s.hosts().stream()
        .filter(h -> !usedHosts.contains(name(h)))
        .sorted(Comparator.comparing(ProgressTable::name))
        .forEach(h -> rows.add(List.of("(free)", "-", "-", name(h), hostState(h), "-", "-")));
    out.append(table(rows));
    return out.toString();
  }

  private static String clusterLine(Snapshot s) {
    if (s.cluster() == null) {
      return "Cluster: not created yet";
    }
    return "Cluster %s  phase %s  %s"
        .formatted(
            name(s.cluster()),
            or(Fields.string(s.cluster(), "status", "phase"), "-"),
            conditions(
                s.cluster(),
                "InfrastructureReady",
                "ControlPlaneInitialized",
                "ControlPlaneAvailable",
                "WorkersAvailable",
                "Available"));
  }

  private static String controlPlaneLine(Snapshot s) {
    GenericKubernetesResource cp = s.controlPlane();
    String installer =
        s.clusterInstall() == null
            ? "-"
            : or(Fields.string(s.clusterInstall(), "status", "debugInfo", "state"), "-");
    if (cp == null) {
      return "Control plane: not created yet  installer " + installer;
    }
    return "Control plane %s/%s ready  version %s  %s  installer %s"
        .formatted(
            Fields.integer(cp, 0, "status", "readyReplicas"),
            Fields.integer(cp, 0, "spec", "replicas"),
            or(Fields.string(cp, "status", "distributionVersion"), "-")
                + (Objects.equals(
                        Fields.string(cp, "status", "distributionVersion"),
                        Fields.string(cp, "spec", "distributionVersion"))
                    ? ""
                    : " → " + Fields.string(cp, "spec", "distributionVersion")),
            conditions(cp, "Available"),
            installer);
  }

  private static String conditions(GenericKubernetesResource object, String... types) {
    List<String> parts = new ArrayList<>();
    for (String type : types) {
      parts.add(type + "=" + or(Fields.conditionStatus(object, type), "?"));
    }
    return String.join(" ", parts);
  }

  private static String hostState(GenericKubernetesResource host) {
    if (host == null) {
      return "-";
    }
    String state = or(Fields.string(host, "status", "provisioning", "state"), "registering");
    return Fields.annotation(host, "baremetalhost.metal3.io/detached") != null
        ? state + " (detached)"
        : state;
  }

  /** The Agent of the Machine's bootstrap config: approved or not, and how far it installed. */
  private static String agentState(
      GenericKubernetesResource machine, List<GenericKubernetesResource> agents) {
    String config = Fields.string(machine, "spec", "bootstrap", "configRef", "name");
    return agents.stream()
        .filter(a -> config != null && config.equals(Fields.label(a, CONFIG_LABEL)))
        .findFirst()
        .map(
            a -> {
              String stage = Fields.string(a, "status", "progress", "currentStage");
              if (stage != null) {
                return stage;
              }
              return Fields.isTrue(a, "spec", "approved") ? "approved" : "registered";
            })
        .orElse("-");
  }

  private static String role(GenericKubernetesResource machine) {
    return Fields.label(machine, CONTROL_PLANE_LABEL) != null ? "control-plane" : "worker";
  }

  private static String table(List<List<String>> rows) {
    int[] widths = new int[HEADER.size()];
    for (List<String> row : rows) {
      for (int i = 0; i < row.size(); i++) {
        widths[i] = Math.max(widths[i], row.get(i).length());
      }
    }
    return rows.stream()
        .map(
            row -> {
              StringBuilder line = new StringBuilder();
              for (int i = 0; i < row.size(); i++) {
                line.append(i + 1 < row.size() ? pad(row.get(i), widths[i] + 2) : row.get(i));
              }
              return line.toString();
            })
        .collect(Collectors.joining("\n", "", "\n"));
  }

  private static String pad(String value, int width) {
    return value + " ".repeat(Math.max(0, width - value.length()));
  }

  private static Map<String, GenericKubernetesResource> byName(
      List<GenericKubernetesResource> objects) {
    return objects.stream()
        .collect(Collectors.toMap(ProgressTable::name, Function.identity(), (a, b) -> a));
  }

  private static String name(GenericKubernetesResource object) {
    return object.getMetadata().getName();
  }

  private static String or(String value, String otherwise) {
    return value == null || value.isEmpty() ? otherwise : value;
  }
}
