package io.openshiftagent.bootstrap.ignition;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.openshiftagent.api.bootstrap.v1alpha2.OpenshiftAssistedConfig;
import io.openshiftagent.api.bootstrap.v1alpha2.OpenshiftAssistedConfigSpec;
import io.openshiftagent.bootstrap.identity.NodeIdentity;
import io.openshiftagent.bootstrap.names.Names;
import io.openshiftagent.provider.reconcile.Metadata;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;

/**
 * The ignition the installed node gets on top of OpenShift's (Agent {@code
 * spec.ignitionConfigOverrides}): the node registration the Agent's fields cannot carry ({@link
 * NodeRegistrationUnits}), the config's pre- and post-bootstrap commands as run-once systemd units,
 * then the user's install-time override, whose files and units win over ours at the same path or
 * name.
 */
public final class InstallIgnition {
  static final String VERSION = "3.1.0";
  static final String DEFAULT_SENTINEL_DIR = "/var/lib/capoa";
  static final String DEFAULT_KUBECONFIG = "/var/lib/kubelet/kubeconfig";
  static final String PRE_SCRIPT = "/usr/local/bin/openshift-agent-pre-bootstrap.sh";
  static final String POST_SCRIPT = "/usr/local/bin/openshift-agent-post-bootstrap.sh";
  static final String PRE_UNIT = "openshift-agent-pre-bootstrap.service";
  static final String POST_UNIT = "openshift-agent-post-bootstrap.service";
  private static final int MODE_0700 = 448;

  /**
   * The most install ignition an Agent can be given: etcd stores an object of up to 1.5 MiB, and
   * assisted-service keeps the host's inventory in the same Agent.
   */
  static final int MAX_BYTES = 1024 * 1024;

  private InstallIgnition() {}

  /**
   * The install-time ignition of a config's hosts: their node registration, bootstrap commands and
   * override annotation (when that is a JSON object; the config controller reports one that is
   * not).
   */
  public static String forConfig(OpenshiftAssistedConfig config, NodeIdentity identity) {
    String override = Metadata.annotation(config, Names.IGNITION_OVERRIDE_ANNOTATION);
    return build(
        config.getSpec(),
        override != null && JsonDocuments.isObject(override) ? override : null,
        identity);
  }

  /**
   * @param userOverride the install-time override annotation, already checked to be a JSON object,
   *     or null
   * @return the override, or null when there is nothing to add
   */
  public static String build(
      OpenshiftAssistedConfigSpec spec, String userOverride, NodeIdentity identity) {
    List<String> pre = orEmpty(spec.preBootstrapCommands);
    List<String> post = orEmpty(spec.postBootstrapCommands);
    NodeRegistrationUnits.Fragment registration = NodeRegistrationUnits.forInstall(identity);
    if (pre.isEmpty() && post.isEmpty() && registration.isEmpty()) {
      return userOverride;
    }
    String sentinels = orDefault(spec.bootstrapCommandSentinelDir, DEFAULT_SENTINEL_DIR);
    ObjectNode root = JsonDocuments.MAPPER.createObjectNode();
    root.putObject("ignition").put("version", VERSION);
    ArrayNode files = root.putObject("storage").putArray("files");
    ArrayNode units = root.putObject("systemd").putArray("units");
    files.addAll(registration.files());
    units.addAll(registration.units());
    if (!pre.isEmpty()) {
      String sentinel = sentinels + "/pre-bootstrap.done";
      files.add(
          JsonDocuments.ignitionFile(
              PRE_SCRIPT, MODE_0700, script(List.of(), pre, sentinels, sentinel)));
      units.add(
          unit(
              PRE_UNIT,
              "Run the pre-bootstrap commands once, before kubelet",
              // As in the Go provider, the commands may read /etc/metadata_env and the hostname.
              "After=network-online.target "
                  + NodeRegistrationUnits.CONFIGDRIVE_UNIT
                  + " "
                  + NodeRegistrationUnits.REGISTRATION_UNIT
                  + "\nWants=network-online.target\nBefore=kubelet.service\n",
              sentinel));
    }
    if (!post.isEmpty()) {
      String sentinel = sentinels + "/post-bootstrap.done";
      String kubeconfig = orDefault(spec.postBootstrapKubeconfigPath, DEFAULT_KUBECONFIG);
      files.add(
          JsonDocuments.ignitionFile(
              POST_SCRIPT, MODE_0700, script(waitForNode(kubeconfig), post, sentinels, sentinel)));
      units.add(
          unit(
              POST_UNIT,
              "Run the post-bootstrap commands once, after the node registered",
              "After=kubelet.service\nRequires=kubelet.service\n",
              sentinel));
    }
    if (userOverride != null) {
      merge(root, read(userOverride));
    }
    return JsonDocuments.write(root);
  }

  /**
   * Why {@code ignition} (from {@link #build}) cannot be given to an Agent, if it cannot: each
   * command and the override are within their bounds, but together they can be too large.
   */
  public static Optional<String> tooLargeForAnAgent(String ignition) {
    int bytes = ignition == null ? 0 : ignition.getBytes(StandardCharsets.UTF_8).length;
    if (bytes <= MAX_BYTES) {
      return Optional.empty();
    }
    return Optional.of(
        "the install ignition made of spec.preBootstrapCommands, spec.postBootstrapCommands and the"
            + " annotation "
            + Names.IGNITION_OVERRIDE_ANNOTATION
            + " is "
            + bytes
            + " bytes; an Agent holds at most "
            + MAX_BYTES
            + ": shorten them");
  }

  /** Merges {@code user} into {@code ours}: its files and units replace ours of the same key. */
  static void merge(ObjectNode ours, ObjectNode user) {
    if (user.path("ignition").isObject()) {
      // The user's ignition section (its version, config merges) is kept as written.
      ObjectNode ignition = ((ObjectNode) user.get("ignition")).deepCopy();
      if (!ignition.has("version")) {
        ignition.put("version", VERSION);
      }
      ours.set("ignition", ignition);
    }
    mergeList(ours, user, "storage", "files", "path");
    mergeList(ours, user, "systemd", "units", "name");
    user.fields()
        .forEachRemaining(
            field -> {
              if (!List.of("ignition", "storage", "systemd").contains(field.getKey())) {
                ours.set(field.getKey(), field.getValue());
              }
            });
    JsonNode userStorage = user.path("storage");
    userStorage
        .fields()
        .forEachRemaining(
            f -> {
              if (!f.getKey().equals("files")) {
                ((ObjectNode) ours.get("storage")).set(f.getKey(), f.getValue());
              }
            });
  }

  private static void mergeList(
      ObjectNode ours, ObjectNode user, String section, String list, String key) {
    JsonNode theirs = user.path(section).path(list);
    if (!theirs.isArray()) {
      return;
    }
    ArrayNode target = (ArrayNode) ours.path(section).path(list);
    for (JsonNode entry : theirs) {
      String id = entry.path(key).asText();
      for (int i = target.size() - 1; i >= 0; i--) {
        if (target.get(i).path(key).asText().equals(id)) {
          target.remove(i);
        }
      }
      target.add(entry);
    }
  }

  private static List<String> waitForNode(String kubeconfig) {
    return List.of(
        "kubeconfig=" + IgnitionMerge.quote(kubeconfig),
        "deadline=$((SECONDS + 600))",
        "until kubectl --kubeconfig=\"$kubeconfig\" get --raw /readyz >/dev/null 2>&1 \\",
        "    && kubectl --kubeconfig=\"$kubeconfig\" get node \"$(hostname)\" >/dev/null 2>&1; do",
        "  if [ \"$SECONDS\" -ge \"$deadline\" ]; then",
        "    echo 'the API server or this node is not ready after 600 s' >&2",
        "    exit 1",
        "  fi",
        "  sleep 10",
        "done");
  }

  private static String script(
      List<String> prelude, List<String> commands, String sentinelDir, String sentinel) {
    StringBuilder script = new StringBuilder("#!/bin/bash\nset -euo pipefail\n");
    prelude.forEach(line -> script.append(line).append('\n'));
    commands.forEach(line -> script.append(line).append('\n'));
    script
        .append("mkdir -p ")
        .append(IgnitionMerge.quote(sentinelDir))
        .append('\n')
        .append("touch ")
        .append(IgnitionMerge.quote(sentinel))
        .append('\n');
    return script.toString();
  }

  /** A run-once oneshot: the sentinel written at the end of the script keeps it from re-running. */
  private static ObjectNode unit(
      String name, String description, String ordering, String sentinel) {
    String script = name.equals(PRE_UNIT) ? PRE_SCRIPT : POST_SCRIPT;
    return NodeRegistrationUnits.oneshot(
        name, description, ordering + "ConditionPathExists=!" + sentinel + "\n", script);
  }

  private static ObjectNode read(String json) {
    try {
      return (ObjectNode) JsonDocuments.MAPPER.readTree(json);
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException("the ignition override is not valid JSON", e);
    }
  }

  private static List<String> orEmpty(List<String> list) {
    return list == null ? List.of() : list;
  }

  private static String orDefault(String value, String fallback) {
    return value == null || value.isBlank() ? fallback : value;
  }
}
