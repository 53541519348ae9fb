package io.openshiftagent.controlplane.cluster;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.openshiftagent.api.controlplane.v1alpha3.Capabilities;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The install-config overrides assisted-service applies: the capabilities generated from {@code
 * spec.config.capabilities}, deeply merged with the user's override annotation.
 */
public final class InstallConfigOverrides {
  /** Annotation on the control plane: JSON merged into the generated install-config. */
  public static final String OVERRIDE_ANNOTATION =
      "controlplane.cluster.x-k8s.io/install-config-override";

  /** Annotation on the AgentClusterInstall that assisted-service reads. */
  public static final String ACI_ANNOTATION = "agent-install.openshift.io/install-config-overrides";

  /** Capabilities a bare-metal cluster needs even with the None baseline. */
  static final List<String> BARE_METAL_DEFAULT_CAPABILITIES =
      List.of(
          "baremetal",
          "Console",
          "Insights",
          "OperatorLifecycleManager",
          "Ingress",
          "marketplace",
          "NodeTuning",
          "DeploymentConfig");

  private static final ObjectMapper JSON = new ObjectMapper();

  private InstallConfigOverrides() {}

  /** The overrides, or why the user's override cannot be used. */
  public sealed interface Result {}

  /** The JSON to put in the AgentClusterInstall annotation; empty when there is nothing. */
  public record Valid(Optional<String> json) implements Result {}

  /** The override annotation is not a JSON object. */
  public record Invalid(String message) implements Result {}

  /**
   * @param capabilities spec.config.capabilities (may be null)
   * @param bareMetal whether the platform is BareMetal (VIPs given)
   * @param override the override annotation's value (may be null)
   */
  public static Result compute(Capabilities capabilities, boolean bareMetal, String override) {
    ObjectNode result = JSON.createObjectNode();
    generatedCapabilities(capabilities, bareMetal).ifPresent(c -> result.set("capabilities", c));
    if (override != null && !override.isBlank()) {
      JsonNode user;
      try {
        user = JSON.readTree(override);
      } catch (JsonProcessingException e) {
        return new Invalid(
            "annotation "
                + OVERRIDE_ANNOTATION
                + " is not valid JSON: "
                + e.getOriginalMessage()
                + "; fix or remove it");
      }
      if (!(user instanceof ObjectNode userObject)) {
        return new Invalid(
            "annotation "
                + OVERRIDE_ANNOTATION
                + " must be a JSON object such as {\"fips\":true}; fix or remove it");
      }
      deepMerge(result, userObject);
    }
    return new Valid(result.isEmpty() ? Optional.empty() : Optional.of(result.toString()));
  }

  static Optional<ObjectNode> generatedCapabilities(Capabilities capabilities, boolean bareMetal) {
    if (capabilities == null && !bareMetal) {
      return Optional.empty();
    }
    String baseline =
        capabilities == null
                || capabilities.baselineCapability == null
                || capabilities.baselineCapability.isEmpty()
            ? (bareMetal ? "None" : "vCurrent")
            : capabilities.baselineCapability;
    Set<String> additional = new LinkedHashSet<>();
    if (bareMetal) {
      additional.addAll(BARE_METAL_DEFAULT_CAPABILITIES);
    }
    if (capabilities != null && capabilities.additionalEnabledCapabilities != null) {
      additional.addAll(capabilities.additionalEnabledCapabilities);
    }
    if (bareMetal) {
      // The Machine API would fight Metal3 over the hosts: Cluster API manages them.
      additional.removeIf(c -> c.toLowerCase(Locale.ROOT).equals("machineapi"));
    }
    ObjectNode node = JSON.createObjectNode().put("baselineCapabilitySet", baseline);
    if (!additional.isEmpty()) {
      ArrayNode list = node.putArray("additionalEnabledCapabilities");
      additional.forEach(list::add);
    }
    return Optional.of(node);
  }

  /** Merges {@code overlay} into {@code base}: objects recursively, anything else replaced. */
  static void deepMerge(ObjectNode base, ObjectNode overlay) {
    Iterator<Map.Entry<String, JsonNode>> fields = overlay.fields();
    while (fields.hasNext()) {
      Map.Entry<String, JsonNode> field = fields.next();
      JsonNode existing = base.get(field.getKey());
      if (existing instanceof ObjectNode existingObject
          && field.getValue() instanceof ObjectNode overlayObject) {
        deepMerge(existingObject, overlayObject);
      } else {
        base.set(field.getKey(), field.getValue().deepCopy());
      }
    }
  }
}
