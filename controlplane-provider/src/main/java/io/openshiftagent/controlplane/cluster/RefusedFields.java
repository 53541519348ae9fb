package io.openshiftagent.controlplane.cluster;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The fields of the user's spec that assisted-service's refusal of an AgentClusterInstall is about,
 * found from the service's own words: it names its AgentClusterInstall fields, its annotation or
 * its concepts, never ours.
 */
final class RefusedFields {
  /** What the service's words contain (lower case) and the user's field it comes from. */
  private static final Map<String, String> WORDS = new LinkedHashMap<>();

  static {
    WORDS.put(
        InstallConfigOverrides.ACI_ANNOTATION,
        "annotation "
            + InstallConfigOverrides.OVERRIDE_ANNOTATION
            + " (with spec.config.capabilities)");
    WORDS.put("proxy", "spec.config.proxy");
    WORDS.put("tang", "spec.config.diskEncryption");
    WORDS.put("disk encryption", "spec.config.diskEncryption");
    WORDS.put("ssh", "spec.config.sshAuthorizedKey");
    WORDS.put("machine network", "spec.config.machineNetworks");
    WORDS.put("cluster network", "the Cluster's spec.clusterNetwork.pods");
    WORDS.put("service network", "the Cluster's spec.clusterNetwork.services");
    WORDS.put("api vip", "spec.config.apiVIPs");
    WORDS.put("ingress vip", "spec.config.ingressVIPs");
    WORDS.put("manifest", "spec.config.manifestsConfigMapRefs");
    WORDS.put("network type", "spec.config.networkType");
  }

  private RefusedFields() {}

  /** The user's fields the refusal names, in a fixed order; empty when it names none we know. */
  static List<String> of(String refusal) {
    String words = refusal.toLowerCase(Locale.ROOT).replace('_', ' ');
    return WORDS.entrySet().stream()
        .filter(w -> words.contains(w.getKey()))
        .map(Map.Entry::getValue)
        .distinct()
        .toList();
  }

  /** {@code refusal} followed by the fields to check, when it names any. */
  static String explained(String refusal) {
    List<String> fields = of(refusal);
    return fields.isEmpty() ? refusal : refusal + "; check " + String.join(" and ", fields);
  }
}
