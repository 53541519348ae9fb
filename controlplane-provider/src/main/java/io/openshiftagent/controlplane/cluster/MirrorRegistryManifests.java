package io.openshiftagent.controlplane.cluster;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Turns a mirror-registry description (a containers-registries.conf TOML file and an optional CA
 * bundle) into the OpenShift manifests that make the installed cluster use the mirrors: an
 * ImageDigestMirrorSet, an ImageTagMirrorSet, the trusted CA ConfigMap and the cluster Image
 * config. They are installed with the cluster as extra manifests.
 */
public final class MirrorRegistryManifests {
  public static final String REGISTRIES_CONF_KEY = "registries.conf";
  public static final String CA_BUNDLE_KEY = "ca-bundle.crt";
  static final String MIRROR_SET_NAME = "additional-registry";
  static final String CA_CONFIG_MAP_NAME = "additional-registry-certificate";

  private static final ObjectMapper JSON = new ObjectMapper();

  private MirrorRegistryManifests() {}

  /** A registry and its mirrors, from one {@code [[registry]]} table. */
  record Registry(String location, List<Mirror> mirrors) {}

  /** A {@code [[registry.mirror]]} entry. */
  record Mirror(String location, boolean insecure, boolean tagOnly) {}

  /**
   * The ConfigMap data (file name → JSON manifest).
   *
   * @throws IllegalArgumentException with a message for a person when the input is unusable
   */
  public static Map<String, String> generate(String registriesConf, String caBundle) {
    if (registriesConf == null || registriesConf.isBlank()) {
      throw new IllegalArgumentException("key " + REGISTRIES_CONF_KEY + " is missing or empty");
    }
    List<Registry> registries = parse(registriesConf);
    ArrayNode digestMirrors = JSON.createArrayNode();
    ArrayNode tagMirrors = JSON.createArrayNode();
    Set<String> insecure = new LinkedHashSet<>();
    Set<String> mirrorHosts = new LinkedHashSet<>();
    for (Registry registry : registries) {
      List<String> byDigest = new ArrayList<>();
      List<String> byTag = new ArrayList<>();
      for (Mirror mirror : registry.mirrors()) {
        (mirror.tagOnly() ? byTag : byDigest).add(mirror.location());
        if (mirror.insecure()) {
          insecure.add(mirror.location());
        }
        mirrorHosts.add(host(mirror.location()));
      }
      addMirrors(digestMirrors, registry.location(), byDigest);
      addMirrors(tagMirrors, registry.location(), byTag);
    }
    if (digestMirrors.isEmpty() && tagMirrors.isEmpty()) {
      throw new IllegalArgumentException(
          "key "
              + REGISTRIES_CONF_KEY
              + " defines no [[registry]] with a location and [[registry.mirror]] entries");
    }
    Map<String, String> data = new LinkedHashMap<>();
    data.put(
        "image-digest-mirror-set.json",
        mirrorSet("ImageDigestMirrorSet", "imageDigestMirrors", digestMirrors));
    data.put(
        "image-tag-mirror-set.json", mirrorSet("ImageTagMirrorSet", "imageTagMirrors", tagMirrors));
    boolean withCa = caBundle != null && !caBundle.isBlank();
    if (withCa) {
      ObjectNode configMap =
          JSON.createObjectNode().put("apiVersion", "v1").put("kind", "ConfigMap");
      configMap
          .putObject("metadata")
          .put("name", CA_CONFIG_MAP_NAME)
          .put("namespace", "openshift-config");
      ObjectNode caData = configMap.putObject("data");
      // OpenShift looks a registry's CA up by host name, with ':' written as '..'.
      mirrorHosts.forEach(h -> caData.put(h.replace(":", ".."), caBundle));
      data.put("additional-registry-certificate.json", configMap.toString());
    }
    if (withCa || !insecure.isEmpty()) {
      ObjectNode image =
          JSON.createObjectNode().put("apiVersion", "config.openshift.io/v1").put("kind", "Image");
      image.putObject("metadata").put("name", "cluster");
      ObjectNode spec = image.putObject("spec");
      if (withCa) {
        spec.putObject("additionalTrustedCA").put("name", CA_CONFIG_MAP_NAME);
      }
      if (!insecure.isEmpty()) {
        ArrayNode list = spec.putObject("registrySources").putArray("insecureRegistries");
        insecure.forEach(list::add);
      }
      data.put("image-config.json", image.toString());
    }
    return data;
  }

  private static void addMirrors(ArrayNode target, String source, List<String> mirrors) {
    if (mirrors.isEmpty()) {
      return;
    }
    ObjectNode entry = target.addObject().put("source", source);
    ArrayNode list = entry.putArray("mirrors");
    mirrors.forEach(list::add);
  }

  private static String mirrorSet(String kind, String field, ArrayNode mirrors) {
    ObjectNode set =
        JSON.createObjectNode().put("apiVersion", "config.openshift.io/v1").put("kind", kind);
    set.putObject("metadata").put("name", MIRROR_SET_NAME);
    set.putObject("spec").set(field, mirrors);
    return set.toString();
  }

  private static String host(String location) {
    int slash = location.indexOf('/');
    return slash < 0 ? location : location.substring(0, slash);
  }

  /**
   * Reads the {@code [[registry]]} and {@code [[registry.mirror]]} tables of a registries.conf (the
   * subset of TOML that file uses: array tables, string, boolean and array values, comments).
   */
  static List<Registry> parse(String toml) {
    List<Map<String, String>> registries = new ArrayList<>();
    List<List<Map<String, String>>> mirrors = new ArrayList<>();
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
        registries.add(current);
        mirrors.add(new ArrayList<>());
      } else if (line.equals("[[registry.mirror]]")) {
        if (registries.isEmpty()) {
          throw new IllegalArgumentException(
              "line " + lineNumber + ": [[registry.mirror]] before any [[registry]]");
        }
        current = new LinkedHashMap<>();
        mirrors.get(mirrors.size() - 1).add(current);
      } else if (line.startsWith("[")) {
        current = null; // another table: not ours
      } else {
        int eq = line.indexOf('=');
        if (eq < 0) {
          throw new IllegalArgumentException(
              "line " + lineNumber + " of " + REGISTRIES_CONF_KEY + " is not key = value: " + raw);
        }
        if (current != null) {
          current.put(line.substring(0, eq).trim(), unquote(line.substring(eq + 1).trim()));
        }
      }
    }
    List<Registry> result = new ArrayList<>();
    for (int i = 0; i < registries.size(); i++) {
      Map<String, String> registry = registries.get(i);
      String location = registry.getOrDefault("location", registry.get("prefix"));
      if (location == null || location.isEmpty()) {
        continue;
      }
      List<Mirror> list = new ArrayList<>();
      for (Map<String, String> m : mirrors.get(i)) {
        String mirrorLocation = m.get("location");
        if (mirrorLocation != null && !mirrorLocation.isEmpty()) {
          list.add(
              new Mirror(
                  mirrorLocation,
                  "true".equals(m.get("insecure")),
                  "tag-only".equals(m.get("pull-from-mirror"))));
        }
      }
      result.add(new Registry(location, list));
    }
    return result;
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
