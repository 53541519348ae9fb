package io.openshiftagent.bootstrap.ignition;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.openshiftagent.api.bootstrap.v1alpha2.NodeRegistrationOptions;
import io.openshiftagent.bootstrap.identity.MetadataTemplate;
import java.util.ArrayList;
import java.util.List;

/**
 * Merges a config's node name into the discovery ignition of the DiskImage boot mode, so that the
 * host registers (and assisted-service names its Node) as it will be called: a static name as
 * {@code /etc/hostname}, a name referencing host metadata as the units that set it from the config
 * drive ({@link NodeRegistrationUnits#forDiscovery}). Files at the same paths and units of the same
 * names are replaced; everything else in the ignition is kept.
 *
 * <p>Labels and the provider ID are not written here: the installation makes a new system whose
 * {@code /etc} is not the discovery one's, so they go in the install ignition ({@link
 * InstallIgnition}).
 */
public final class IgnitionMerge {
  static final String HOSTNAME_PATH = "/etc/hostname";
  private static final int MODE_0644 = 420;

  private IgnitionMerge() {}

  /**
   * @throws IllegalArgumentException if {@code ignition} is not a JSON object
   */
  public static String merge(String ignition, NodeRegistrationOptions registration) {
    ObjectNode root = parse(ignition);
    String name =
        registration == null || registration.name == null || registration.name.isBlank()
            ? null
            : registration.name.strip();
    if (name == null) {
      return ignition;
    }
    MetadataTemplate template = MetadataTemplate.parse(name);
    List<ObjectNode> files = new ArrayList<>();
    List<ObjectNode> units = new ArrayList<>();
    if (template.isStatic()) {
      files.add(JsonDocuments.ignitionFile(HOSTNAME_PATH, MODE_0644, name + "\n"));
    } else {
      NodeRegistrationUnits.Fragment fragment = NodeRegistrationUnits.forDiscovery(template);
      files.addAll(fragment.files());
      units.addAll(fragment.units());
    }
    replace(object(root, "storage"), "files", "path", files);
    if (!units.isEmpty()) {
      replace(object(root, "systemd"), "units", "name", units);
    }
    return JsonDocuments.write(root);
  }

  /** Replaces the entries of {@code parent.list} with the same {@code key}, then adds them. */
  private static void replace(ObjectNode parent, String list, String key, List<ObjectNode> ours) {
    ArrayNode merged = JsonDocuments.MAPPER.createArrayNode();
    JsonNode existing = parent.path(list);
    List<String> keys = ours.stream().map(o -> o.path(key).asText()).toList();
    if (existing.isArray()) {
      existing.forEach(
          entry -> {
            if (!keys.contains(entry.path(key).asText())) {
              merged.add(entry);
            }
          });
    }
    merged.addAll(ours);
    parent.set(list, merged);
  }

  /** Single-quoted for a shell; nothing in it is expanded. */
  static String quote(String value) {
    return "'" + value.replace("'", "'\\''") + "'";
  }

  private static ObjectNode parse(String ignition) {
    try {
      JsonNode node = JsonDocuments.MAPPER.readTree(ignition);
      if (node == null || !node.isObject()) {
        throw new IllegalArgumentException("the discovery ignition is not a JSON object");
      }
      return (ObjectNode) node;
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException("the discovery ignition is not valid JSON", e);
    }
  }

  private static ObjectNode object(ObjectNode parent, String field) {
    return parent.path(field).isObject() ? (ObjectNode) parent.get(field) : parent.putObject(field);
  }
}
