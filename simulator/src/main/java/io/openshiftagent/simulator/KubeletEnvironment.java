package io.openshiftagent.simulator;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What the installed system of a host passes its kubelet through {@code
 * /etc/kubernetes/kubelet-env}, which OpenShift's kubelet unit reads ({@code
 * --node-labels=...,${CUSTOM_KUBELET_LABELS}}, {@code --provider-id=${KUBELET_PROVIDERID}}), as the
 * Agent's install-time ignition override sets it: a file of the override that writes {@code
 * CUSTOM_KUBELET_LABELS=<k=v,...>} or {@code KUBELET_PROVIDERID=<id>} (a script echoing the line,
 * or that file itself; the last line wins, as in an environment file). References {@code
 * $METADATA_<KEY>} or {@code ${METADATA_<KEY>}} are read from the host's {@code /etc/metadata_env}:
 * each key of its config drive's {@code meta_data.json} upper-cased, {@code -} as {@code _}; a key
 * the host does not have gives nothing. A value naming any other shell variable is not understood,
 * and is left out (logged by the caller).
 *
 * @param labels the Node's labels asked for
 * @param providerID the Node's {@code spec.providerID}, or null
 * @param unresolved the values left out, for the log
 */
record KubeletEnvironment(Map<String, String> labels, String providerID, String unresolved) {
  private static final Pattern LINE =
      Pattern.compile("(CUSTOM_KUBELET_LABELS|KUBELET_PROVIDERID)=([^\"\\s]*)");
  private static final Pattern REFERENCE =
      Pattern.compile("\\$(?:\\{(METADATA_[A-Za-z0-9_]*)}|(METADATA_[A-Za-z0-9_]*))");
  private static final Pattern OTHER_VARIABLE = Pattern.compile("\\$");

  static final KubeletEnvironment NONE = new KubeletEnvironment(Map.of(), null, "");

  /**
   * @param ignition the Agent's {@code spec.ignitionConfigOverrides}, or null
   * @param metadataEnv the host's {@code /etc/metadata_env} as variables and values
   */
  static KubeletEnvironment of(String ignition, Map<String, String> metadataEnv) {
    if (ignition == null || ignition.isBlank()) {
      return NONE;
    }
    JsonNode root;
    try {
      root = Serialization.jsonMapper().readTree(ignition);
    } catch (Exception notJson) {
      return NONE;
    }
    String labels = null;
    String providerID = null;
    for (JsonNode file : root.path("storage").path("files")) {
      Matcher line = LINE.matcher(contents(file.path("contents").path("source").asText()));
      while (line.find()) {
        if (line.group(1).equals("KUBELET_PROVIDERID")) {
          providerID = line.group(2);
        } else {
          labels = line.group(2);
        }
      }
    }
    StringBuilder unresolved = new StringBuilder();
    Map<String, String> resolvedLabels = new LinkedHashMap<>();
    for (String pair : labels == null ? new String[0] : labels.split(",")) {
      int eq = pair.indexOf('=');
      String value = eq < 0 ? null : resolve(pair.substring(eq + 1), metadataEnv);
      if (value == null) {
        unresolved.append(" label ").append(pair);
      } else {
        resolvedLabels.put(pair.substring(0, eq), value);
      }
    }
    String resolvedID = providerID == null ? null : resolve(providerID, metadataEnv);
    if (providerID != null && resolvedID == null) {
      unresolved.append(" provider ID ").append(providerID);
    }
    return new KubeletEnvironment(
        resolvedLabels,
        resolvedID == null || resolvedID.isEmpty() ? null : resolvedID,
        unresolved.toString().strip());
  }

  /** A value with its metadata references resolved; null if it names any other variable. */
  private static String resolve(String value, Map<String, String> metadataEnv) {
    Matcher reference = REFERENCE.matcher(value);
    StringBuilder resolved = new StringBuilder();
    int end = 0;
    while (reference.find()) {
      String literal = value.substring(end, reference.start());
      if (OTHER_VARIABLE.matcher(literal).find()) {
        return null;
      }
      String name = reference.group(1) != null ? reference.group(1) : reference.group(2);
      resolved.append(literal).append(metadataEnv.getOrDefault(name, ""));
      end = reference.end();
    }
    String rest = value.substring(end);
    return OTHER_VARIABLE.matcher(rest).find() ? null : resolved.append(rest).toString();
  }

  /** A file's contents from its data URL (base64 or percent-encoded). */
  private static String contents(String source) {
    int comma = source.indexOf(',');
    if (!source.startsWith("data:") || comma < 0) {
      return "";
    }
    String data = source.substring(comma + 1);
    return source.substring(0, comma).endsWith(";base64")
        ? new String(Base64.getDecoder().decode(data), StandardCharsets.UTF_8)
        : URLDecoder.decode(data, StandardCharsets.UTF_8);
  }

  /**
   * A Metal3 host's {@code /etc/metadata_env}: what the baremetal-operator puts on its config drive
   * (its defaults {@code uuid} = the BareMetalHost's UID, {@code metal3-namespace}, {@code
   * metal3-name}, {@code local-hostname}, {@code local_hostname}, {@code name}, overlaid by the
   * YAML map of the {@code spec.metaData} Secret's {@code metaData} key), one variable per key.
   */
  static Map<String, String> metadataEnv(KubernetesClient hub, GenericKubernetesResource host) {
    Map<String, Object> metaData = new LinkedHashMap<>();
    String name = host.getMetadata().getName();
    metaData.put("uuid", host.getMetadata().getUid());
    metaData.put("metal3-namespace", host.getMetadata().getNamespace());
    metaData.put("metal3-name", name);
    metaData.put("local-hostname", name);
    metaData.put("local_hostname", name);
    metaData.put("name", name);
    String secretName = Fields.string(host, "spec", "metaData", "name");
    String secretNamespace = Fields.string(host, "spec", "metaData", "namespace");
    Secret secret =
        secretName == null
            ? null
            : hub.secrets()
                .inNamespace(
                    secretNamespace == null ? host.getMetadata().getNamespace() : secretNamespace)
                .withName(secretName)
                .get();
    String yaml =
        secret == null || secret.getData() == null || secret.getData().get("metaData") == null
            ? null
            : new String(
                Base64.getDecoder().decode(secret.getData().get("metaData")),
                StandardCharsets.UTF_8);
    if (yaml != null && Serialization.unmarshal(yaml, Object.class) instanceof Map<?, ?> map) {
      map.forEach((key, value) -> metaData.put(String.valueOf(key), value));
    }
    Map<String, String> env = new TreeMap<>();
    metaData.forEach(
        (key, value) ->
            env.put(
                "METADATA_" + key.toUpperCase(java.util.Locale.ROOT).replace('-', '_'),
                value instanceof String s ? s : Serialization.asJson(value)));
    return env;
  }
}
