package io.openshiftagent.bootstrap.ignition;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.openshiftagent.api.bootstrap.v1alpha2.NodeRegistrationOptions;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Merges a config's node registration (hostname, kubelet labels, provider ID) into the discovery
 * ignition of the DiskImage boot mode, as ignition files:
 *
 * <ul>
 *   <li>{@code /etc/hostname}: a static node name;
 *   <li>{@code /etc/kubernetes/kubelet-env}: {@code CUSTOM_KUBELET_LABELS} and {@code
 *       KUBELET_PROVIDERID}, which OpenShift's kubelet unit reads;
 *   <li>{@code /etc/openshift-agent/node-registration.env}: every setting as written, including
 *       references to host metadata ({@code $METADATA_NAME}) that only the host can resolve.
 * </ul>
 *
 * Files at the same paths are replaced; everything else in the ignition is kept.
 */
public final class IgnitionMerge {
  static final String HOSTNAME_PATH = "/etc/hostname";
  static final String KUBELET_ENV_PATH = "/etc/kubernetes/kubelet-env";
  static final String REGISTRATION_ENV_PATH = "/etc/openshift-agent/node-registration.env";
  private static final int MODE_0644 = 420;

  private IgnitionMerge() {}

  /**
   * @throws IllegalArgumentException if {@code ignition} is not a JSON object
   */
  public static String merge(String ignition, NodeRegistrationOptions registration) {
    ObjectNode root = parse(ignition);
    Map<String, String> files = files(registration);
    if (files.isEmpty()) {
      return ignition;
    }
    ObjectNode storage = object(root, "storage");
    ArrayNode existing =
        storage.path("files").isArray()
            ? (ArrayNode) storage.get("files")
            : JsonDocuments.MAPPER.createArrayNode();
    ArrayNode merged = JsonDocuments.MAPPER.createArrayNode();
    for (Iterator<JsonNode> it = existing.elements(); it.hasNext(); ) {
      JsonNode file = it.next();
      if (!files.containsKey(file.path("path").asText())) {
        merged.add(file);
      }
    }
    files.forEach(
        (path, content) -> merged.add(JsonDocuments.ignitionFile(path, MODE_0644, content)));
    storage.set("files", merged);
    return JsonDocuments.write(root);
  }

  /** The files, by path, that carry the registration; empty when there is nothing to register. */
  static Map<String, String> files(NodeRegistrationOptions registration) {
    Map<String, String> files = new LinkedHashMap<>();
    if (registration == null) {
      return files;
    }
    String name = blankToNull(registration.name);
    String providerID = blankToNull(registration.providerID);
    List<String> labels =
        registration.kubeletExtraLabels == null ? List.of() : registration.kubeletExtraLabels;
    if (name == null && providerID == null && labels.isEmpty()) {
      return files;
    }
    if (name != null && isStatic(name)) {
      files.put(HOSTNAME_PATH, name + "\n");
    }
    List<String> staticLabels = labels.stream().filter(IgnitionMerge::isStatic).toList();
    List<String> kubeletEnv = new ArrayList<>();
    if (!staticLabels.isEmpty()) {
      kubeletEnv.add("CUSTOM_KUBELET_LABELS=" + quote(String.join(",", staticLabels)));
    }
    if (providerID != null && isStatic(providerID)) {
      kubeletEnv.add("KUBELET_PROVIDERID=" + quote(providerID));
    }
    if (!kubeletEnv.isEmpty()) {
      files.put(KUBELET_ENV_PATH, String.join("\n", kubeletEnv) + "\n");
    }
    List<String> registrationEnv = new ArrayList<>();
    if (name != null) {
      registrationEnv.add("NODE_NAME=" + quote(name));
    }
    if (!labels.isEmpty()) {
      registrationEnv.add("KUBELET_EXTRA_LABELS=" + quote(String.join(",", labels)));
    }
    if (providerID != null) {
      registrationEnv.add("PROVIDER_ID=" + quote(providerID));
    }
    files.put(REGISTRATION_ENV_PATH, String.join("\n", registrationEnv) + "\n");
    return files;
  }

  /** A value without host metadata references, usable as it is. */
  private static boolean isStatic(String value) {
    return !value.contains("$");
  }

  /** Single-quoted for a shell or systemd environment file; nothing in it is expanded. */
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

  private static String blankToNull(String value) {
    return value == null || value.isBlank() ? null : value;
  }
}
