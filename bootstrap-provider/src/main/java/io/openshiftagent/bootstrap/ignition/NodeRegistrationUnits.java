package io.openshiftagent.bootstrap.ignition;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.openshiftagent.bootstrap.identity.MetadataTemplate;
import io.openshiftagent.bootstrap.identity.NodeIdentity;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The systemd units that give a host the node name, kubelet labels and provider ID of its {@link
 * NodeIdentity}, for what the Agent's own fields cannot carry:
 *
 * <ul>
 *   <li>{@code configdrive-metadata.service} writes the config drive's metadata to {@code
 *       /etc/metadata_env} exactly as the Go provider's unit of that name does (same file, same
 *       lines), when a value references host metadata;
 *   <li>{@code openshift-agent-node-registration.service}, before kubelet: resolves each reference
 *       from that file (grep and cut, never shell evaluation of a value), sets the hostname, and
 *       writes {@code CUSTOM_KUBELET_LABELS} and {@code KUBELET_PROVIDERID} to {@code
 *       /etc/kubernetes/kubelet-env}, which OpenShift's kubelet unit reads; if that unit does not
 *       pass {@code --provider-id}, a drop-in adds it (as the Go provider's injector does).
 * </ul>
 *
 * They go in the install ignition (the Agent's), so they run on the installed system; the discovery
 * ignition of the DiskImage boot mode gets only the hostname part, so the host registers under the
 * name it will have.
 */
public final class NodeRegistrationUnits {
  static final String CONFIGDRIVE_UNIT = "configdrive-metadata.service";
  static final String CONFIGDRIVE_SCRIPT = "/usr/local/bin/configdrive_metadata";
  static final String REGISTRATION_UNIT = "openshift-agent-node-registration.service";
  static final String REGISTRATION_SCRIPT = "/usr/local/bin/openshift-agent-node-registration";
  static final String METADATA_ENV = "/etc/metadata_env";
  static final String KUBELET_ENV = "/etc/kubernetes/kubelet-env";
  static final String PROVIDER_ID_DROP_IN =
      "/etc/systemd/system/kubelet.service.d/20-openshift-agent-provider-id.conf";
  private static final int MODE_0755 = 493;

  /** Files and units to add to an ignition document. */
  public record Fragment(List<ObjectNode> files, List<ObjectNode> units) {
    boolean isEmpty() {
      return files.isEmpty() && units.isEmpty();
    }
  }

  private NodeRegistrationUnits() {}

  /** What the installed system needs: nothing when the Agent's fields say it all. */
  public static Fragment forInstall(NodeIdentity identity) {
    NodeIdentity.OnHost onHost =
        identity.onHost().orElse(new NodeIdentity.OnHost(null, Map.of(), null));
    // A provider ID known here is literal text, whatever '$' it holds.
    MetadataTemplate providerID =
        identity.providerID() != null
            ? new MetadataTemplate(List.of(new MetadataTemplate.Text(identity.providerID())))
            : onHost.providerID();
    return fragment(onHost.name(), onHost.labels(), providerID, true);
  }

  /** What the discovery system needs (DiskImage): the hostname, when the host resolves it. */
  public static Fragment forDiscovery(MetadataTemplate name) {
    return name == null || name.isStatic()
        ? new Fragment(List.of(), List.of())
        : fragment(name, Map.of(), null, false);
  }

  private static Fragment fragment(
      MetadataTemplate name,
      Map<String, MetadataTemplate> labels,
      MetadataTemplate providerID,
      boolean kubelet) {
    if (name == null && labels.isEmpty() && providerID == null) {
      return new Fragment(List.of(), List.of());
    }
    boolean readsMetadata =
        (name != null && !name.isStatic())
            || (providerID != null && !providerID.isStatic())
            || labels.values().stream().anyMatch(v -> !v.isStatic());
    List<ObjectNode> files = new ArrayList<>();
    List<ObjectNode> units = new ArrayList<>();
    if (readsMetadata) {
      files.add(JsonDocuments.ignitionFile(CONFIGDRIVE_SCRIPT, MODE_0755, configdriveScript()));
      units.add(
          oneshot(
              CONFIGDRIVE_UNIT,
              "Config drive metadata in " + METADATA_ENV,
              "After=ostree-finalize-staged.service\nBefore=" + REGISTRATION_UNIT + "\n",
              CONFIGDRIVE_SCRIPT));
    }
    files.add(
        JsonDocuments.ignitionFile(
            REGISTRATION_SCRIPT, MODE_0755, registrationScript(name, labels, providerID, kubelet)));
    units.add(
        oneshot(
            REGISTRATION_UNIT,
            "Node name, kubelet labels and provider ID of spec.nodeRegistration",
            (readsMetadata ? "Wants=" + CONFIGDRIVE_UNIT + "\n" : "")
                + "After="
                + CONFIGDRIVE_UNIT
                + " ostree-finalize-staged.service\nBefore=kubelet.service\n",
            REGISTRATION_SCRIPT));
    return new Fragment(files, units);
  }

  /** The Go provider's configdrive-metadata, in effect: same file, same lines. */
  static String configdriveScript() {
    return """
        #!/bin/bash
        # openshift-agent: the metadata of the config drive (the filesystem labelled config-2) as
        # METADATA_<KEY>=<value> lines in /etc/metadata_env, sorted, as the Go provider writes them.
        set -uo pipefail
        export LC_ALL=C
        dir=$(mktemp -d)
        if mount -o ro -L config-2 "$dir"; then
          jq -r 'to_entries[] | "METADATA_\\(.key | ascii_upcase | gsub("-"; "_"))=\\(.value | if type == "string" then . else tojson end)"' \\
            "$dir/openstack/latest/meta_data.json" | sort | uniq > /etc/metadata_env.new
          umount "$dir"
        else
          echo 'no config drive: no host metadata' >&2
          : > /etc/metadata_env.new
        fi
        rmdir "$dir"
        mv /etc/metadata_env.new /etc/metadata_env
        """;
  }

  static String registrationScript(
      MetadataTemplate name,
      Map<String, MetadataTemplate> labels,
      MetadataTemplate providerID,
      boolean kubelet) {
    StringBuilder script =
        new StringBuilder(
            """
            #!/bin/bash
            # openshift-agent: this node's name, kubelet labels and provider ID (spec.nodeRegistration),
            # each $METADATA_* reference read from /etc/metadata_env (nothing when the host has none).
            set -euo pipefail
            meta() { grep "^$1=" /etc/metadata_env 2>/dev/null | cut -d= -f2- || true; }
            """);
    if (name != null) {
      script
          .append("name=")
          .append(shell(name))
          .append('\n')
          .append("if [ -n \"$name\" ]; then hostnamectl set-hostname \"$name\"; fi\n");
    }
    if (kubelet && (!labels.isEmpty() || providerID != null)) {
      List<String> pairs = new ArrayList<>();
      labels.forEach((key, value) -> pairs.add(quote(key + "=") + shell(value)));
      script
          .append("labels=")
          .append(pairs.isEmpty() ? "''" : String.join("','", pairs))
          .append('\n')
          .append("provider_id=")
          .append(providerID == null ? "''" : shell(providerID))
          .append('\n')
          .append(
              """
              env_file=%s
              mkdir -p "$(dirname "$env_file")"
              touch "$env_file"
              sed -i -e '/^CUSTOM_KUBELET_LABELS=/d' -e '/^KUBELET_PROVIDERID=/d' "$env_file"
              if [ -n "$labels" ]; then echo "CUSTOM_KUBELET_LABELS=$labels" >> "$env_file"; fi
              if [ -n "$provider_id" ]; then
                echo "KUBELET_PROVIDERID=$provider_id" >> "$env_file"
                # OpenShift's kubelet unit passes --provider-id=${KUBELET_PROVIDERID}; one that does
                # not gets it from a drop-in.
                unit=$(systemctl cat kubelet.service)
                if ! grep -q -- '--provider-id' <<< "$unit"; then
                  exec_start=$(awk '
                    /^ExecStart=./ { cmd = substr($0, 11); while (cmd ~ /\\\\$/ && (getline line) > 0) { sub(/\\\\$/, "", cmd); cmd = cmd line }; last = cmd }
                    END { print last }' <<< "$unit")
                  mkdir -p "$(dirname %s)"
                  printf '[Service]\\nExecStart=\\nExecStart=%%s --provider-id=${KUBELET_PROVIDERID}\\n' "$exec_start" > %s
                  systemctl daemon-reload
                fi
              fi
              """
                  .formatted(KUBELET_ENV, PROVIDER_ID_DROP_IN, PROVIDER_ID_DROP_IN));
    }
    return script.toString();
  }

  /** A template as a shell word: literal text single-quoted, each reference read by meta. */
  static String shell(MetadataTemplate template) {
    StringBuilder word = new StringBuilder();
    for (MetadataTemplate.Part part : template.parts()) {
      word.append(
          part instanceof MetadataTemplate.Text text
              ? quote(text.text())
              : "\"$(meta " + ((MetadataTemplate.Reference) part).name() + ")\"");
    }
    return word.isEmpty() ? "''" : word.toString();
  }

  static String quote(String text) {
    return IgnitionMerge.quote(text);
  }

  /** An enabled oneshot unit running {@code script}; {@code ordering} holds its [Unit] lines. */
  static ObjectNode oneshot(String name, String description, String ordering, String script) {
    ObjectNode unit = JsonDocuments.MAPPER.createObjectNode();
    unit.put("name", name);
    unit.put("enabled", true);
    unit.put(
        "contents",
        "[Unit]\nDescription="
            + description
            + "\n"
            + ordering
            + "\n[Service]\nType=oneshot\nRemainAfterExit=yes\nExecStart="
            + script
            + "\n\n[Install]\nWantedBy=multi-user.target\n");
    return unit;
  }
}
