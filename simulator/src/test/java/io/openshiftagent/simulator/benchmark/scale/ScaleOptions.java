package io.openshiftagent.simulator.benchmark.scale;

import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The scale mode's options: {@code --scale N [--installing K] [--pace fast|real] [--window-minutes
 * W] [--timeout-minutes T] [--work-dir DIR]} ({@code --sno} is accepted: single-node clusters are
 * what it installs).
 *
 * @param clusters N single-node clusters
 * @param installing at most K of them installing at once (default: N, at most 500)
 * @param window how long the fleet is watched installed, and after the restart (default 5 min)
 * @param profile whether each provider is profiled (Java Flight Recorder) while the fleet installs
 *     and while it is installed
 */
record ScaleOptions(
    int clusters,
    int installing,
    Pace pace,
    String paceName,
    Duration window,
    Duration timeout,
    Path workDir,
    boolean profile) {

  static ScaleOptions parse(String... args) {
    Map<String, String> values = new LinkedHashMap<>();
    for (int i = 0; i < args.length; i++) {
      String name = args[i].replaceFirst("^--", "");
      if (name.equals("sno") || name.equals("profile")) {
        values.put(name, "true");
        continue;
      }
      if (i + 1 >= args.length) {
        throw new IllegalArgumentException("--" + name + " needs a value");
      }
      values.put(name, args[++i]);
    }
    int clusters = Integer.parseInt(required(values, "scale"));
    int installing =
        Integer.parseInt(values.getOrDefault("installing", "" + Math.min(clusters, 500)));
    String pace = values.getOrDefault("pace", "fast");
    return new ScaleOptions(
        clusters,
        Math.max(1, Math.min(installing, clusters)),
        Pace.named(pace),
        pace,
        Duration.ofMinutes(Long.parseLong(values.getOrDefault("window-minutes", "5"))),
        Duration.ofMinutes(Long.parseLong(values.getOrDefault("timeout-minutes", "180"))),
        Path.of(values.getOrDefault("work-dir", "target/scale")),
        values.containsKey("profile"));
  }

  private static String required(Map<String, String> values, String name) {
    String value = values.get(name);
    if (value == null) {
      throw new IllegalArgumentException("--" + name + " is required");
    }
    return value;
  }
}
