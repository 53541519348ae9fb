package io.openshiftagent.registry;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.MissingNode;
import com.fasterxml.jackson.dataformat.toml.TomlMapper;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * The {@code [[registry]]} tables of a containers-registries.conf(5) file (TOML), and the order in
 * which its rules say an image is pulled: the mirrors of the most specific matching registry, in
 * the order written, then the registry itself. A mirror marked {@code pull-from-mirror =
 * "digest-only"} (or a registry with {@code mirror-by-digest-only = true}) serves only references
 * by digest, a {@code "tag-only"} mirror only references by tag.
 */
public final class RegistriesConf {
  public static final RegistriesConf EMPTY = new RegistriesConf(List.of());

  private static final TomlMapper TOML = new TomlMapper();

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
   * Parses a registries.conf (TOML, read with jackson-dataformat-toml). Only its {@code
   * [[registry]]} array and their {@code [[registry.mirror]]} entries (or inline {@code mirror =
   * [...]}) matter; every other key and table is left alone.
   *
   * @throws IllegalArgumentException naming the line, or the entry and key, that is wrong
   */
  public static RegistriesConf parse(String toml) {
    JsonNode root;
    try {
      root = TOML.readTree(toml);
    } catch (JacksonException e) {
      JsonLocation at = e.getLocation();
      throw new IllegalArgumentException(
          "registries.conf is not valid TOML"
              + (at == null || at.getLineNr() < 1 ? "" : " at line " + at.getLineNr())
              + ": "
              + e.getOriginalMessage());
    }
    JsonNode tables = root == null ? MissingNode.getInstance() : root.path("registry");
    if (tables.isMissingNode()) {
      return EMPTY;
    }
    if (!tables.isArray()) {
      throw new IllegalArgumentException(
          "registries.conf: registry must be an array of tables ([[registry]]);"
              + " a [[registry.mirror]] belongs after its [[registry]]");
    }
    List<Registry> registries = new ArrayList<>();
    int index = 0;
    for (JsonNode table : tables) {
      index++;
      String entry = "[[registry]] #" + index;
      if (!table.isObject()) {
        throw new IllegalArgumentException("registries.conf: " + entry + " is not a table");
      }
      String location = trimSlash(string(table, "location", entry));
      // An empty prefix (as generated files write it) means the location, as no prefix does.
      String prefix = trimSlash(string(table, "prefix", entry));
      if (prefix.isEmpty()) {
        prefix = location;
      }
      if (prefix.isEmpty()) {
        continue; // a [[registry]] without location or prefix: nothing to match
      }
      registries.add(
          new Registry(
              prefix,
              location.isEmpty() ? prefix : location,
              bool(table, "insecure", entry),
              bool(table, "blocked", entry),
              bool(table, "mirror-by-digest-only", entry),
              mirrors(table.path("mirror"), prefix)));
    }
    return new RegistriesConf(List.copyOf(registries));
  }

  private static List<Mirror> mirrors(JsonNode mirrorTables, String prefix) {
    if (mirrorTables.isMissingNode()) {
      return List.of();
    }
    String owner = "the [[registry]] of " + prefix;
    if (!mirrorTables.isArray()) {
      throw new IllegalArgumentException(
          "registries.conf: mirror of "
              + owner
              + " must be an array of tables ([[registry.mirror]])");
    }
    List<Mirror> mirrors = new ArrayList<>();
    for (JsonNode mirror : mirrorTables) {
      String entry = "a [[registry.mirror]] of " + prefix;
      if (!mirror.isObject()) {
        throw new IllegalArgumentException("registries.conf: " + entry + " is not a table");
      }
      String location = trimSlash(string(mirror, "location", entry));
      if (!location.isEmpty()) {
        mirrors.add(
            new Mirror(location, bool(mirror, "insecure", entry), pullFrom(mirror, prefix, entry)));
      }
    }
    return List.copyOf(mirrors);
  }

  private static PullFromMirror pullFrom(JsonNode mirror, String prefix, String entry) {
    String value = string(mirror, "pull-from-mirror", entry);
    return switch (value) {
      case "", "all" -> PullFromMirror.ALL;
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

  /** A string key of a table; empty when absent. */
  private static String string(JsonNode table, String key, String entry) {
    JsonNode value = table.path(key);
    if (value.isMissingNode()) {
      return "";
    }
    if (!value.isTextual()) {
      throw new IllegalArgumentException(
          "registries.conf: " + key + " of " + entry + " must be a string, not " + value);
    }
    return value.asText();
  }

  /** A boolean key of a table; false when absent. */
  private static boolean bool(JsonNode table, String key, String entry) {
    JsonNode value = table.path(key);
    if (value.isMissingNode()) {
      return false;
    }
    if (!value.isBoolean()) {
      throw new IllegalArgumentException(
          "registries.conf: " + key + " of " + entry + " must be true or false, not " + value);
    }
    return value.asBoolean();
  }

  private static String trimSlash(String value) {
    String v = value.trim();
    return v.endsWith("/") ? v.substring(0, v.length() - 1) : v;
  }
}
