package io.openshiftagent.controlplane.cluster;

import io.fabric8.kubernetes.client.utils.Serialization;
import io.openshiftagent.api.external.OwnedFieldsPatch;
import io.openshiftagent.api.external.assisted.AgentClusterInstall;
import io.openshiftagent.api.external.assisted.AgentClusterInstallSpec;
import io.openshiftagent.provider.reconcile.Metadata;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The merge patch that brings an existing AgentClusterInstall in step with the spec: the fields we
 * own that differ (unset ones removed), and the install-config overrides annotation. A pure
 * function; empty when the AgentClusterInstall agrees.
 */
final class ClusterInstallPatch {
  /** The AgentClusterInstall spec fields we own. */
  private static final List<String> OWNED_FIELDS =
      List.of(
          "clusterDeploymentRef",
          "imageSetRef",
          "networking",
          "provisionRequirements",
          "apiVIPs",
          "ingressVIPs",
          "platformType",
          "sshPublicKey",
          "proxy",
          "diskEncryption",
          "loadBalancer",
          "mastersSchedulable",
          "manifestsConfigMapRefs");

  private static final List<String> OWNED_NETWORKING_FIELDS =
      List.of("clusterNetwork", "serviceNetwork", "machineNetwork", "networkType");

  private ClusterInstallPatch() {}

  static OwnedFieldsPatch of(
      AgentClusterInstall current, AgentClusterInstallSpec desired, Optional<String> overrides) {
    Map<String, Object> currentSpec = toMap(current.getSpec());
    OwnedFieldsPatch patch = new OwnedFieldsPatch();
    ownedSpecFields(desired)
        .forEach(
            (field, value) -> {
              if (!mergeIsNoOp(currentSpec.get(field), value)) {
                patch.set(value, "spec", field);
              }
            });
    String currentOverrides = Metadata.annotation(current, InstallConfigOverrides.ACI_ANNOTATION);
    if (!Objects.equals(currentOverrides, overrides.orElse(null))) {
      patch.set(
          overrides.orElse(null), "metadata", "annotations", InstallConfigOverrides.ACI_ANNOTATION);
    }
    return patch;
  }

  /** The owned fields, with explicit nulls for unset ones so that a merge patch removes them. */
  static Map<String, Object> ownedSpecFields(AgentClusterInstallSpec desired) {
    Map<String, Object> all = toMap(desired);
    Map<String, Object> owned = new LinkedHashMap<>();
    for (String field : OWNED_FIELDS) {
      owned.put(field, all.get(field));
    }
    @SuppressWarnings("unchecked")
    Map<String, Object> networking =
        new LinkedHashMap<>((Map<String, Object>) owned.getOrDefault("networking", Map.of()));
    OWNED_NETWORKING_FIELDS.forEach(f -> networking.putIfAbsent(f, null));
    owned.put("networking", networking);
    return owned;
  }

  /**
   * Whether applying {@code patch} as a JSON merge patch onto {@code current} changes nothing. An
   * absent field equals its Go zero value (0, false, ""): assisted-service writes the whole
   * AgentClusterInstall back through Go types whose fields are {@code omitempty}, so {@code
   * workerAgents: 0} or {@code mastersSchedulable: false} vanish on its every update; patching them
   * back each time fought the service (its status writes lost to 409s in a loop).
   */
  @SuppressWarnings("unchecked")
  static boolean mergeIsNoOp(Object current, Object patch) {
    if (patch == null) {
      return current == null;
    }
    if (current == null && isGoZeroValue(patch)) {
      return true;
    }
    if (patch instanceof Map<?, ?> patchMap) {
      if (!(current instanceof Map<?, ?> currentMap)) {
        return false;
      }
      return ((Map<String, Object>) patchMap)
          .entrySet().stream().allMatch(e -> mergeIsNoOp(currentMap.get(e.getKey()), e.getValue()));
    }
    return Objects.equals(
        Serialization.jsonMapper().valueToTree(current),
        Serialization.jsonMapper().valueToTree(patch));
  }

  private static boolean isGoZeroValue(Object value) {
    return value instanceof Number n && n.doubleValue() == 0
        || Boolean.FALSE.equals(value)
        || "".equals(value);
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> toMap(Object value) {
    return value == null
        ? Map.of()
        : Serialization.jsonMapper().convertValue(value, LinkedHashMap.class);
  }
}
