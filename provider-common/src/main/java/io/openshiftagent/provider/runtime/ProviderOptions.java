package io.openshiftagent.provider.runtime;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/** The command line every provider takes. {@link #usage} documents each flag. */
public record ProviderOptions(
    boolean help,
    Optional<Path> kubeconfig,
    Set<String> namespaces,
    Optional<String> watchFilter,
    Optional<Boolean> leaderElect,
    String leaderElectionId,
    Optional<String> leaderElectionNamespace,
    int concurrency,
    String logLevel,
    LogFormat logFormat,
    int metricsPort,
    int healthPort) {

  /** How log lines are written to standard output. */
  public enum LogFormat {
    TEXT,
    JSON
  }

  private record Flag(String name, String value, String description) {}

  private static List<Flag> flags(String defaultLeaseName) {
    return List.of(
        new Flag(
            "kubeconfig",
            "PATH",
            "kubeconfig to use (default: in-cluster config, else $KUBECONFIG or ~/.kube/config)"),
        new Flag(
            "namespace", "NS[,NS...]", "watch only these namespaces (default: all namespaces)"),
        new Flag(
            "watch-filter",
            "VALUE",
            "reconcile only objects labelled cluster.x-k8s.io/watch-filter=VALUE"),
        new Flag(
            "leader-elect",
            "true|false",
            "elect a leader through a Lease (default: true in a cluster, false outside)"),
        new Flag(
            "leader-election-id",
            "NAME",
            "name of the leader-election Lease (default: " + defaultLeaseName + ")"),
        new Flag(
            "leader-election-namespace",
            "NS",
            "namespace of the Lease (default: the pod's namespace)"),
        new Flag("concurrency", "N", "reconciles run in parallel (default: 10)"),
        new Flag("log-level", "LEVEL", "ERROR, WARN, INFO, DEBUG or TRACE (default: INFO)"),
        new Flag(
            "log-format", "text|json", "text lines, or one JSON object per line (default: text)"),
        new Flag(
            "metrics-port",
            "PORT",
            "port of the Prometheus /metrics endpoint, 0 to disable (default: 8080)"),
        new Flag(
            "health-port",
            "PORT",
            "port of the /healthz and /readyz probes, 0 to disable (default: 8081)"),
        new Flag("help", "", "print this help and exit"));
  }

  /**
   * Parses {@code --flag=value} and {@code --flag value}. Throws {@link IllegalArgumentException}
   * with the reason.
   */
  public static ProviderOptions parse(String defaultLeaseName, String... args) {
    Set<String> known = new TreeSet<>();
    flags(defaultLeaseName).forEach(f -> known.add(f.name()));
    Map<String, String> values = new LinkedHashMap<>();
    for (int i = 0; i < args.length; i++) {
      String arg = args[i];
      if (!arg.startsWith("--")) {
        throw new IllegalArgumentException("unexpected argument '" + arg + "'");
      }
      String name = arg.substring(2);
      String value = null;
      int eq = name.indexOf('=');
      if (eq >= 0) {
        value = name.substring(eq + 1);
        name = name.substring(0, eq);
      }
      if (!known.contains(name)) {
        throw new IllegalArgumentException("unknown flag --" + name);
      }
      if (value == null && name.equals("help")) {
        value = "true";
      } else if (value == null && i + 1 < args.length && !args[i + 1].startsWith("--")) {
        value = args[++i];
      } else if (value == null) {
        throw new IllegalArgumentException("--" + name + " needs a value");
      }
      values.put(name, value);
    }
    List<String> namespaces = new ArrayList<>();
    for (String ns : values.getOrDefault("namespace", "").split(",")) {
      if (!ns.isBlank()) {
        namespaces.add(ns.trim());
      }
    }
    return new ProviderOptions(
        Boolean.parseBoolean(values.getOrDefault("help", "false")),
        Optional.ofNullable(values.get("kubeconfig")).map(Path::of),
        Set.copyOf(namespaces),
        Optional.ofNullable(values.get("watch-filter")).filter(v -> !v.isBlank()),
        Optional.ofNullable(values.get("leader-elect")).map(v -> parseBoolean("leader-elect", v)),
        values.getOrDefault("leader-election-id", defaultLeaseName),
        Optional.ofNullable(values.get("leader-election-namespace")).filter(v -> !v.isBlank()),
        parseInt("concurrency", values.getOrDefault("concurrency", "10"), 1, 1000),
        parseLevel(values.getOrDefault("log-level", "INFO")),
        parseFormat(values.getOrDefault("log-format", "text")),
        parseInt("metrics-port", values.getOrDefault("metrics-port", "8080"), 0, 65535),
        parseInt("health-port", values.getOrDefault("health-port", "8081"), 0, 65535));
  }

  /** The --help text. */
  public static String usage(String command, String description, String defaultLeaseName) {
    StringBuilder text = new StringBuilder();
    text.append("Usage: ")
        .append(command)
        .append(" [flags]\n\n")
        .append(description)
        .append("\n\nFlags:\n");
    for (Flag flag : flags(defaultLeaseName)) {
      String left = "  --" + flag.name() + (flag.value().isEmpty() ? "" : "=" + flag.value());
      text.append(String.format("%-44s %s%n", left, flag.description()));
    }
    return text.toString();
  }

  /** Whether to elect a leader: as asked, else only when running in a pod. */
  public boolean leaderElectionEnabled(boolean inCluster) {
    return leaderElect.orElse(inCluster);
  }

  private static boolean parseBoolean(String flag, String value) {
    return switch (value.toLowerCase(Locale.ROOT)) {
      case "true" -> true;
      case "false" -> false;
      default ->
          throw new IllegalArgumentException(
              "--" + flag + " must be true or false, not '" + value + "'");
    };
  }

  private static int parseInt(String flag, String value, int min, int max) {
    try {
      int n = Integer.parseInt(value);
      if (n < min || n > max) {
        throw new NumberFormatException();
      }
      return n;
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(
          "--" + flag + " must be a number from " + min + " to " + max + ", not '" + value + "'");
    }
  }

  private static String parseLevel(String value) {
    String level = value.toUpperCase(Locale.ROOT);
    if (!Set.of("ERROR", "WARN", "INFO", "DEBUG", "TRACE").contains(level)) {
      throw new IllegalArgumentException(
          "--log-level must be ERROR, WARN, INFO, DEBUG or TRACE, not '" + value + "'");
    }
    return level;
  }

  private static LogFormat parseFormat(String value) {
    return switch (value.toLowerCase(Locale.ROOT)) {
      case "text" -> LogFormat.TEXT;
      case "json" -> LogFormat.JSON;
      default ->
          throw new IllegalArgumentException(
              "--log-format must be text or json, not '" + value + "'");
    };
  }
}
