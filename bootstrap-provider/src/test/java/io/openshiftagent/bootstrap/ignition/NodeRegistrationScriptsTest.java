package io.openshiftagent.bootstrap.ignition;

import static org.assertj.core.api.Assertions.assertThat;

import io.openshiftagent.api.bootstrap.v1alpha2.NodeRegistrationOptions;
import io.openshiftagent.bootstrap.identity.HostMetadata;
import io.openshiftagent.bootstrap.identity.NodeIdentity;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * The scripts the install ignition runs on a host outside Metal3, run for real ({@link
 * HostSandbox}): the host ends up with exactly the name, labels and provider ID the hub resolves
 * for a Metal3 host with the same metadata, and a value is never run as a command.
 */
class NodeRegistrationScriptsTest {
  static final String KUBELET_WITH_PROVIDER_ID =
      """
      [Service]
      EnvironmentFile=-/etc/kubernetes/kubelet-env
      ExecStart=/usr/bin/kubelet \\
          --node-labels=node-role.kubernetes.io/worker,${CUSTOM_KUBELET_LABELS} \\
          --provider-id=${KUBELET_PROVIDERID} \\
          --v=2
      """;

  static final String KUBELET_WITHOUT_PROVIDER_ID =
      """
      [Service]
      ExecStartPre=/bin/mkdir -p /etc/kubernetes/manifests
      ExecStart=/usr/bin/kubelet \\
          --config=/etc/kubernetes/kubelet.conf \\
          --v=2
      """;

  private static NodeRegistrationOptions registration(
      String name, String providerID, String... labels) {
    NodeRegistrationOptions options = new NodeRegistrationOptions();
    options.name = name;
    options.providerID = providerID;
    options.kubeletExtraLabels = List.of(labels);
    return options;
  }

  /** The scripts of the install ignition, as the host runs them (configdrive first). */
  private static List<String> installScripts(NodeRegistrationOptions registration) {
    NodeIdentity.OnHost onHost =
        NodeIdentity.of(registration, "machine-0", Optional.empty()).onHost().orElseThrow();
    return List.of(
        NodeRegistrationUnits.configdriveScript(),
        NodeRegistrationUnits.registrationScript(
            onHost.name(), onHost.labels(), onHost.providerID(), true));
  }

  private static Map<String, String> kubeletEnv(Map<String, String> files) {
    Map<String, String> env = new TreeMap<>();
    for (String line : files.getOrDefault("/etc/kubernetes/kubelet-env", "").split("\n")) {
      if (line.contains("=")) {
        env.put(line.substring(0, line.indexOf('=')), line.substring(line.indexOf('=') + 1));
      }
    }
    return env;
  }

  @Test
  void theHostSeesTheMetadataTheHubResolvesForAMetal3Host() throws Exception {
    Map<String, Object> metaData = new LinkedHashMap<>();
    metaData.put("uuid", "9f1c-77");
    metaData.put("name", "host-0");
    metaData.put("local-hostname", "host-0");
    metaData.put("local_hostname", "host-0");
    metaData.put("metal3-namespace", "clusters");
    metaData.put("index", 7);
    NodeRegistrationOptions registration =
        registration(
            "$METADATA_NAME",
            "openstack://${METADATA_UUID}",
            "metal3.io/uuid=$METADATA_UUID",
            "index=node-${METADATA_INDEX}",
            "rack=$METADATA_RACK");

    try (HostSandbox host = new HostSandbox(KUBELET_WITH_PROVIDER_ID).configDrive(metaData)) {
      Map<String, String> files = host.boot(installScripts(registration));

      HostMetadata sameMetadata = HostMetadata.of(metaData);
      assertThat(files.get("/etc/metadata_env"))
          .isEqualTo(String.join("\n", sameMetadata.environmentFile()) + "\n");
      NodeIdentity onTheHub = NodeIdentity.of(registration, "machine-0", Optional.of(sameMetadata));
      assertThat(files.get("/etc/hostname")).isEqualTo(onTheHub.hostname() + "\n");
      Map<String, String> labels = new TreeMap<>();
      for (String label : kubeletEnv(files).get("CUSTOM_KUBELET_LABELS").split(",")) {
        labels.put(label.substring(0, label.indexOf('=')), label.substring(label.indexOf('=') + 1));
      }
      assertThat(labels).isEqualTo(onTheHub.labels());
      assertThat(labels).containsEntry("rack", "").containsEntry("index", "node-7");
      assertThat(kubeletEnv(files)).containsEntry("KUBELET_PROVIDERID", onTheHub.providerID());
      assertThat(onTheHub.providerID()).isEqualTo("openstack://9f1c-77");
      // The kubelet unit passes --provider-id already: nothing else is changed.
      assertThat(files).doesNotContainKeys(NodeRegistrationUnits.PROVIDER_ID_DROP_IN);
    }
  }

  @Test
  void aKubeletUnitWithoutProviderIdGetsItFromADropInOnce() throws Exception {
    try (HostSandbox host =
        new HostSandbox(KUBELET_WITHOUT_PROVIDER_ID).configDrive(Map.of("uuid", "u-1"))) {
      List<String> scripts = installScripts(registration(null, "openstack://$METADATA_UUID"));
      Map<String, String> first = host.boot(scripts);
      Map<String, String> second = host.boot(scripts);

      assertThat(first.get(NodeRegistrationUnits.PROVIDER_ID_DROP_IN))
          .isEqualTo(
              "[Service]\nExecStart=\nExecStart=/usr/bin/kubelet     --config=/etc/kubernetes/kubelet.conf"
                  + "     --v=2 --provider-id=${KUBELET_PROVIDERID}\n");
      assertThat(first.get("/run/daemon-reloads")).isEqualTo("reloaded\n");
      // The second boot finds --provider-id (in the drop-in) and each variable still once.
      assertThat(second).doesNotContainKey("/run/daemon-reloads");
      assertThat(second.get("/etc/kubernetes/kubelet-env"))
          .isEqualTo("KUBELET_PROVIDERID=openstack://u-1\n");
    }
  }

  @Test
  void valuesAreNeverRunAsCommands() throws Exception {
    Map<String, Object> hostile =
        Map.of("name", "$(touch /run/pwned)`touch /run/pwned`", "uuid", "a'; touch /run/pwned #");
    try (HostSandbox host = new HostSandbox(KUBELET_WITH_PROVIDER_ID).configDrive(hostile)) {
      Map<String, String> files =
          host.boot(installScripts(registration("$METADATA_NAME", "x://$METADATA_UUID")));

      assertThat(files).doesNotContainKey("/run/pwned");
      assertThat(files.get("/etc/hostname")).isEqualTo("$(touch /run/pwned)`touch /run/pwned`\n");
      assertThat(kubeletEnv(files))
          .containsEntry("KUBELET_PROVIDERID", "x://a'; touch /run/pwned #");
    }
  }

  @Test
  void withoutAConfigDriveEveryReferenceIsNothingAndTheHostKeepsItsName() throws Exception {
    try (HostSandbox host = new HostSandbox(KUBELET_WITH_PROVIDER_ID)) {
      Map<String, String> files =
          host.boot(installScripts(registration("$METADATA_NAME", null, "uuid=$METADATA_UUID")));

      assertThat(files.get("/etc/metadata_env")).isEmpty();
      assertThat(files).doesNotContainKey("/etc/hostname");
      assertThat(kubeletEnv(files)).containsEntry("CUSTOM_KUBELET_LABELS", "uuid=");
    }
  }

  @Test
  void theDiscoveryHostGetsOnlyItsName() throws Exception {
    try (HostSandbox host =
        new HostSandbox(KUBELET_WITH_PROVIDER_ID).configDrive(Map.of("name", "host-3"))) {
      NodeRegistrationUnits.Fragment discovery =
          NodeRegistrationUnits.forDiscovery(
              io.openshiftagent.bootstrap.identity.MetadataTemplate.parse("$METADATA_NAME"));
      assertThat(discovery.units()).hasSize(2);

      Map<String, String> files =
          host.boot(
              List.of(
                  NodeRegistrationUnits.configdriveScript(),
                  NodeRegistrationUnits.registrationScript(
                      io.openshiftagent.bootstrap.identity.MetadataTemplate.parse("$METADATA_NAME"),
                      Map.of(),
                      null,
                      false)));

      assertThat(files.get("/etc/hostname")).isEqualTo("host-3\n");
      assertThat(files).doesNotContainKey("/etc/kubernetes/kubelet-env");
    }
  }
}
