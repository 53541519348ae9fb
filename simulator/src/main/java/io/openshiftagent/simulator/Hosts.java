package io.openshiftagent.simulator;

import static io.openshiftagent.simulator.Metal3.BMH_API;
import static io.openshiftagent.simulator.Metal3.name;
import static io.openshiftagent.simulator.Metal3.namespace;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.openshiftagent.api.external.ExternalKinds;
import io.openshiftagent.api.external.OwnedFieldsPatch;
import java.net.HttpURLConnection;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Plays the machines: a provisioned BareMetalHost boots its image. A host that boots an InfraEnv's
 * discovery ISO runs the discovery agent, which registers with assisted-service: the Agent appears
 * under that InfraEnv with the host's inventory.
 */
final class Hosts extends Actor {
  static final String AGENT_API =
      ExternalKinds.AGENT_INSTALL_GROUP + "/" + ExternalKinds.AGENT_INSTALL_VERSION;

  private final SimulatedDurations durations;
  private final Set<String> booted = ConcurrentHashMap.newKeySet();

  Hosts(KubernetesClient client, SimulatedDurations durations) {
    super(client);
    this.durations = durations;
  }

  @Override
  void start() {
    watch(BMH_API, "BareMetalHost", this::boot);
  }

  private void boot(GenericKubernetesResource host) {
    String image = Fields.string(host, "status", "provisioning", "image", "url");
    boolean liveIso =
        "live-iso".equals(Fields.string(host, "status", "provisioning", "image", "format"));
    if (!Metal3.PROVISIONED.equals(Fields.string(host, "status", "provisioning", "state"))
        || !liveIso
        || !booted.add(host.getMetadata().getUid() + " " + image)) {
      return;
    }
    after(durations.hostBoot(), () -> registerAgent(host, image));
  }

  /** The discovery agent registers: assisted-service creates the Agent under the InfraEnv. */
  private void registerAgent(GenericKubernetesResource host, String isoUrl) {
    GenericKubernetesResource infraEnv =
        cachedIn(AGENT_API, "InfraEnv", namespace(host)).stream()
            .filter(i -> isoUrl.equals(Fields.string(i, "status", "isoDownloadURL")))
            .findFirst()
            .orElse(null);
    if (infraEnv == null) {
      log.info("host {} booted {}, which no InfraEnv serves", name(host), isoUrl);
      return;
    }
    Map<String, String> labels = new HashMap<>(Fields.stringMap(infraEnv, "spec", "agentLabels"));
    labels.put(ExternalKinds.INFRAENV_LABEL, name(infraEnv));
    Map<String, Object> spec = new LinkedHashMap<>();
    spec.put("approved", false);
    spec.put("role", "");
    Map<String, String> clusterRef = Fields.stringMap(infraEnv, "spec", "clusterRef");
    if (!clusterRef.isEmpty()) {
      spec.put("clusterDeploymentName", clusterRef);
    }
    GenericKubernetesResource agent = new GenericKubernetesResource();
    agent.setApiVersion(AGENT_API);
    agent.setKind("Agent");
    agent.setMetadata(
        new ObjectMetaBuilder()
            .withName(hostId(host))
            .withNamespace(namespace(host))
            .withLabels(labels)
            .build());
    agent.setAdditionalProperty("spec", spec);
    try {
      client.resource(agent).create();
    } catch (KubernetesClientException e) {
      if (e.getCode() != HttpURLConnection.HTTP_CONFLICT) {
        throw e;
      }
    }
    mergePatchStatus(
        resource(AGENT_API, "Agent", namespace(host), hostId(host)),
        new OwnedFieldsPatch()
            .set(inventory(host), "status", "inventory")
            .set(Map.of("state", "known"), "status", "debugInfo")
            .set(
                List.of(
                    Map.of(
                        "type", "Connected",
                        "status", "True",
                        "reason", "AgentIsConnected",
                        "message",
                            "The agent's connection to the installation service is unimpaired",
                        "lastTransitionTime", Fields.now())),
                "status",
                "conditions"));
    log.info("host {} registered as Agent {}", name(host), hostId(host));
  }

  /** The host's hardware id, which the discovery agent uses as the Agent's name. */
  static String hostId(GenericKubernetesResource host) {
    return UUID.nameUUIDFromBytes(host.getMetadata().getUid().getBytes(StandardCharsets.UTF_8))
        .toString();
  }

  private static Map<String, Object> inventory(GenericKubernetesResource host) {
    String mac = Fields.string(host, "spec", "bootMACAddress");
    Map<String, Object> inventory = new LinkedHashMap<>();
    inventory.put("hostname", name(host));
    inventory.put(
        "interfaces",
        List.of(
            Map.of(
                "name",
                "eno1",
                "macAddress",
                mac == null ? "00:00:00:00:00:01" : mac,
                "ipV4Addresses",
                List.of("192.168.222.10/24"),
                "flags",
                List.of("up", "broadcast", "multicast"),
                "speedMbps",
                10000)));
    inventory.put(
        "disks",
        List.of(
            Map.of(
                "id",
                "/dev/disk/by-id/wwn-0x" + hostId(host).replace("-", "").substring(0, 16),
                "name",
                "sda",
                "path",
                "/dev/sda",
                "driveType",
                "SSD",
                "sizeBytes",
                480_000_000_000L,
                "bootable",
                true,
                "installationEligibility",
                Map.of("eligible", true))));
    inventory.put("cpu", Map.of("count", 16, "architecture", "x86_64"));
    inventory.put("memory", Map.of("physicalBytes", 68_719_476_736L));
    return inventory;
  }
}
