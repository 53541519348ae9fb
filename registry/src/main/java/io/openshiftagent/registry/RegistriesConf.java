package io.openshiftagent.registry;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The {@code [[registry]]} tables of a containers-registries.conf(5) file (the subset of TOML it
 * uses: array tables, strings, booleans, comments), and the order in which its rules say an image
 * is pulled: the mirrors of the most specific matching registry, in the order written, then the
 * registry itself. A mirror marked {@code pull-from-mirror = "digest-only"} (or a registry with
 * {@code mirror-by-digest-only = true}) serves only references by digest, a {@code "tag-only"}
 * mirror only references by tag.
 */
public final class RegistriesConf {
  public static final RegistriesConf EMPTY = new RegistriesConf(List.of());

  /** Which pulls a mirror serves. */
  public enum PullFromMirror {
    ALL,
    DIGEST_ONLY,
    TAG_ONLY
  }

  /** A {@code [[registry]]}: its {@code prefix} (defaults to the location) and mirrors. */
  public record Registry(
      String prefix,
      String location,
      boolean insecure,
      boolean blocked,
      boolean mirrorByDigestOnly,
      List<Mirror> mirrors) {}

  /** A {@code [[registry.mirror]]} entry. */
  public record Mirror(String location, boolean insecure, PullFromMirror pullFromMirror) {}

  /** A place to pull an image from: a mirror or the registry itself. */
  public record Endpoint(ImageReference reference, boolean insecure, boolean mirror) {}

  private final List<Registry> registries;

  private RegistriesConf(List<Registry> registries) {
    this.registries = registries;
  }

  /** Tells two configurations apart (equal rules, equal fingerprints). */
  public String fingerprint() {
    return registries.isEmpty()
        ? ""
        : PullSecret.sha256(
            registries.toString().getBytes(java.nio.charset.StandardCharsets.UTF_8));
  }

  public List<Registry> registries() {
    return registries;
  }

  /**
   * These rules, and those of {@code defaults} for the prefixes these do not name: as a drop-in
   * file's {@code [[registry]]} replaces the one of the same prefix in the main file, and the most
   * specific prefix of either wins. A cluster's own mirrors over the hub's.
   */
  public RegistriesConf withDefaults(RegistriesConf defaults) {
    if (defaults.registries.isEmpty()) {
      return this;
    }
    List<Registry> merged = new ArrayList<>(registries);
    for (Registry registry : defaults.registries) {
      if (registries.stream().noneMatch(r -> r.prefix().equals(registry.prefix()))) {
        merged.add(registry);
      }
    }
    return new RegistriesConf(List.copyOf(merged));
  }

  /**
   * Where to pull {@code image} from, in order.
   *
   * @throws IllegalArgumentException when its registry is blocked
   */
  public List<Endpoint> pullOrder(ImageReference image) {
    Optional<Registry> match =
        registries.stream()
            .filter(r -> matches(r.prefix(), image.name()))
            .max(Comparator.comparingInt(r -> r.prefix().length()));
    if (match.isEmpty()) {
      return List.of(new Endpoint(image, false, false));
    }
    Registry registry = match.get();
    if (registry.blocked()) {
      throw new IllegalArgumentException(
          "registries.conf blocks " + registry.prefix() + " (blocked = true)");
    }
    String rest = image.name().substring(registry.prefix().length());
    List<Endpoint> order = new ArrayList<>();
    for (Mirror mirror : registry.mirrors()) {
      PullFromMirror serves =
          registry.mirrorByDigestOnly() ? PullFromMirror.DIGEST_ONLY : mirror.pullFromMirror();
      boolean usable =
          image.hasDigest()
              ? serves != PullFromMirror.TAG_ONLY
              : serves != PullFromMirror.DIGEST_ONLY;
      if (usable) {
        order.add(
            new Endpoint(image.inRepository(mirror.location() + rest), mirror.insecure(), true));
      }
    }
    order.add(
        new Endpoint(image.inRepository(registry.location() + rest), registry.insecure(), false));
    return order;
  }

  private static boolean matches(String prefix, String name) {
    return name.equals(prefix) || name.startsWith(prefix + "/");
  }

  /**
   * Parses a registries.conf.
   *
   * @throws IllegalArgumentException naming the line or entry that is wrong
   */
  public static RegistriesConf parse(String toml) {
    List<Map<String, String>> tables = new ArrayList<>();
    List<List<Map<String, String>>> mirrorTables = new ArrayList<>();
    Map<String, String> current = null;
    int lineNumber = 0;
    for (String raw : toml.split("\\R")) {
      lineNumber++;
      String line = stripComment(raw).trim();
      if (line.isEmpty()) {
        continue;
      }
      if (line.equals("[[registry]]")) {
        current = new LinkedHashMap<>();
        tables.add(current);
        mirrorTables.add(new ArrayList<>());
      } else if (line.equals("[[registry.mirror]]")) {
        if (tables.isEmpty()) {
          throw new IllegalArgumentException(
              "line " + lineNumber + ": [[registry.mirror]] before any [[registry]]");
        }
        current = new LinkedHashMap<>();
        mirrorTables.get(mirrorTables.size() - 1).add(current);
      } else if (line.startsWith("[")) {
        current = null; // another table: not ours
      } else {
        int eq = line.indexOf('=');
        if (eq < 0) {
          throw new IllegalArgumentException(
              "line " + lineNumber + " of registries.conf is not key = value: " + raw.trim());
        }
        if (current != null) {
          current.put(line.substring(0, eq).trim(), unquote(line.substring(eq + 1).trim()));
        }
      }
    }
    List<Registry> registries = new ArrayList<>();
    for (int i = 0; i < tables.size(); i++) {
      Map<String, String> table = tables.get(i);
      String location = trimSlash(table.getOrDefault("location", ""));
      // An empty prefix (as generated files write it) means the location, as no prefix does.
      String prefix = trimSlash(table.getOrDefault("prefix", ""));
      if (prefix.isEmpty()) {
        prefix = location;
      }
      if (prefix.isEmpty()) {
        continue; // a [[registry]] without location or prefix: nothing to match
      }
      List<Mirror> mirrors = new ArrayList<>();
      for (Map<String, String> m : mirrorTables.get(i)) {
        String mirrorLocation = trimSlash(m.getOrDefault("location", ""));
        if (!mirrorLocation.isEmpty()) {
          mirrors.add(
              new Mirror(mirrorLocation, "true".equals(m.get("insecure")), pullFrom(m, prefix)));
        }
      }
      registries.add(
          new Registry(
              prefix,
              location.isEmpty() ? prefix : location,
              "true".equals(table.get("insecure")),
              "true".equals(table.get("blocked")),
              "true".equals(table.get("mirror-by-digest-only")),
              List.copyOf(mirrors)));
    }
    return new RegistriesConf(List.copyOf(registries));
  }

  private static PullFromMirror pullFrom(Map<String, String> mirror, String prefix) {
    String value = mirror.get("pull-from-mirror");
    if (value == null || value.equals("all")) {
      return PullFromMirror.ALL;
    }
    return switch (value) {
      case "digest-only" -> PullFromMirror.DIGEST_ONLY;
      case "tag-only" -> PullFromMirror.TAG_ONLY;
      default ->
          throw new IllegalArgumentException(
              "a mirror of "
                  + prefix
                  + " has pull-from-mirror = \""
                  + value
                  + "\"; it must be all, digest-only or tag-only");
    };
  }

  private static String trimSlash(String value) {
    String v = value.trim();
    return v.endsWith("/") ? v.substring(0, v.length() - 1) : v;
  }

  private static String stripComment(String line) {
    boolean quoted = false;
    for (int i = 0; i < line.length(); i++) {
      char c = line.charAt(i);
      if (c == '"') {
        quoted = !quoted;
      } else if (c == '#' && !quoted) {
        return line.substring(0, i);
      }
    }
    return line;
  }

  private static String unquote(String value) {
    if (value.length() >= 2
        && (value.startsWith("\"") && value.endsWith("\"")
            || value.startsWith("'") && value.endsWith("'"))) {
      return value.substring(1, value.length() - 1);
    }
    return value;
  }
}
